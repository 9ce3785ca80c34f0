"""Options as declarations (`harness.options`), presets (`harness.presets`) and their one resolution per
(entry, kind) on a run's way from the command line to the store."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from harness import kinds, options, registry, sets
from harness.analysis.configs import with_config
from harness.encoding import Encoding, Limits, Outcome
from harness.option_tables import PAGE, page
from harness.presets import PRESETS
from harness.run import cli, sweep, worker
from harness.run.execute import execute
from harness.run.supervise import REQUEST_KEYS

ROOT = Path(__file__).resolve().parent.parent
GRAPH = sets.instances("graph-smoke")[0]
MASYU = sets.instances("masyu-smoke")[0]


def project_encodings() -> dict[str, type[Encoding]]:
    return {n: c for n, c in registry.encodings().items() if c.__module__.startswith(registry.PACKAGE + ".")
            and c.declared}


def test_every_declared_option_has_help_and_a_default_its_own_declaration_accepts():
    for name, cls in project_encodings().items():
        for option in options.declarations(cls).values():
            assert option.help, (name, option.name)
            assert option.read(option.default) == option.default, (name, option.name)
            for kind, value in option.by_kind.items():
                assert option.read(value) == value, (name, option.name, kind)


def test_describe_lists_every_option_with_its_help(capsys):
    assert cli.main(["--describe", "sat"]) == 0
    said = capsys.readouterr().out
    for option in options.declarations(registry.encodings()["sat"]).values():
        assert f"  {option.name}=" in said and option.help in said
    assert cli.main(["--describe", "cegar-split"]) == 0
    assert "preset cegar-split" in capsys.readouterr().out
    assert cli.main(["--describe", "nope"]) == 2


def test_the_committed_option_tables_are_the_declarations():
    committed = PAGE.read_text()
    assert committed == page(committed), "docs/ENCODINGS.md differs: python -m harness.option_tables --write"


def test_sat_on_a_graph_is_the_record_configuration_and_labelled_so():
    plain = sweep.Sweep([GRAPH], ["sat"]).resolve("sat", "graph")[0]
    assert plain == registry.entry("cegar-split-auto").resolve("graph").options
    assert plain["split"] == "hubs" and "colour" not in plain and "cuts" not in plain  # idle there
    # the presets before degree=auto, before the frontier and before any pre-pass, which runs stored
    # before them carry
    frontier = {**plain, "degree": "all"}
    assert frontier == registry.entry("cegar-split-frontier").resolve("graph").options
    prepass = registry.entry("cegar-split-prepass").resolve("graph").options
    assert {**frontier, "prepass": "rotations"} == prepass
    assert {**frontier, "prepass": "off"} == registry.entry("cegar-split").resolve("graph").options
    masyu = sweep.Sweep([MASYU], ["sat"]).resolve("sat", "masyu")[0]
    assert masyu["join"] == "false" and masyu["colour"] == "late" and "split" not in masyu
    runs = with_config(_runs([("sat", "graph", plain), ("sat", "masyu", masyu),
                              ("sat", "masyu", {**masyu, "cuts": "cutset"})]))
    assert list(runs["config"]) == ["cegar-split-auto", "sat[cuts=loop]", "sat[cuts=cutset]"]
    from harness.analysis.plots import resolve_baseline

    labels = sorted(set(runs["config"]))
    assert resolve_baseline(labels, "cegar-split-auto") == "cegar-split-auto"
    # a row from before the degree option: its plain default (all), so cegar-split-frontier's
    assert list(with_config(_runs([("sat", "graph", {k: v for k, v in plain.items() if k != "degree"})])
                            )["config"]) == ["cegar-split-frontier"]
    before = {k: v for k, v in frontier.items() if k != "prepass"}  # a row from before the option
    assert list(with_config(_runs([("sat", "graph", before)]))["config"]) == ["cegar-split"]
    assert resolve_baseline(labels, "sat:cuts=cutset") == "sat[cuts=cutset]"


def _runs(rows):
    import pandas as pd

    return pd.DataFrame({"encoding": [e for e, _, _ in rows], "puzzle": [k for _, k, _ in rows],
                         "options": [json.dumps(o, sort_keys=True) for _, _, o in rows]})


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_resolves_on_every_kind_its_encoding_serves(preset):
    cls = registry.encodings()[PRESETS[preset].encoding]
    served = [k for k in kinds.names() if cls.serves(k)]
    assert served
    for kind in served:
        resolved = registry.entry(preset).resolve(kind, strict=False).options
        # the preset's own options hold wherever they apply
        assert all(str(resolved[k]) == v for k, v in PRESETS[preset].options.items() if k in resolved), kind
        runs = with_config(_runs([(PRESETS[preset].encoding, kind, resolved)]))
        assert list(runs["config"]) == [_first_alike(preset, kind)]


def _first_alike(preset: str, kind: str) -> str:
    """The label of `preset`'s runs on `kind`: the first preset resolving alike there, unless that is its
    encoding's own defaults there and its plain ones too (then the encoding's name: `sat-plain` on Masyu)."""
    encoding = PRESETS[preset].encoding
    mine = registry.entry(preset).resolve(kind, strict=False).options
    plain = registry.entry("sat-plain").resolve(kind, strict=False).options if encoding == "sat" else None
    if mine == registry.entry(encoding).resolve(kind, strict=False).options == plain:
        return encoding
    return next(p for p in PRESETS if PRESETS[p].encoding == encoding
                and registry.entry(p).resolve(kind, strict=False).options == mine)


def test_a_preset_takes_overrides_and_its_key_follows_what_it_resolves_to(monkeypatch):
    over = registry.entry("cegar-split:fix=false").resolve("graph").options
    assert over["fix"] == "false" and over["split"] == "hubs"
    plan = sweep.Sweep([GRAPH], ["cegar"])
    key = sweep.plan(plan)[0][0]["identity"]["run_key"]
    monkeypatch.setitem(PRESETS, "cegar", PRESETS["cegar"].__class__("sat", {**PRESETS["cegar"].options,
                                                                              "fix": "false"}))
    again = sweep.plan(sweep.Sweep([GRAPH], ["cegar"]))[0][0]
    assert again["identity"]["run_key"] != key and json.loads(again["identity"]["options"])["fix"] == "false"


def test_an_option_doing_nothing_on_the_kind_is_refused_by_solve_and_left_out_by_a_sweep(capsys, tmp_path):
    from harness import solve

    found = tmp_path / "petersen.txt"
    found.write_text(GRAPH.text)
    assert solve.main([str(found), "-e", "sat", "-o", "colour=on", "--time-limit", "5"]) == 2
    said = capsys.readouterr().err.strip()
    assert "colour=on does nothing on graph" in said and "\n" not in said
    notes: list[str] = []
    specs, _ = sweep.plan(sweep.Sweep([GRAPH, MASYU], ["sat:colour=on"]), notes)
    by_kind = {s["identity"]["puzzle"]: json.loads(s["identity"]["options"]) for s in specs}
    assert "colour" not in by_kind["graph"] and by_kind["masyu"]["colour"] == "on"
    assert notes == ["sat:colour=on on graph instances: colour=on left out (nothing there)"]


def test_a_sweep_checks_an_entry_on_each_kind_it_meets_with_that_kinds_defaults():
    # degree=free needs the arcs: sat's graph defaults hold them, its puzzle defaults do not
    graphs = sweep.Sweep([GRAPH], ["sat:degree=free"])
    assert graphs.resolved_options()["sat:degree=free"]["degree"] == "free"
    specs, _ = sweep.plan(graphs)
    ran = json.loads(specs[0]["identity"]["options"])
    assert (ran["degree"], ran["arcs"]) == ("free", registry.entry("sat").resolve("graph").options["arcs"])
    assert ran["arcs"] != "false"
    with pytest.raises(ValueError, match="^sat:degree=free on masyu instances: degree=free needs arcs"):
        sweep.Sweep([GRAPH, MASYU], ["sat:degree=free"]).resolved_options()
    with pytest.raises(ValueError, match="needs arcs"):  # given against given: no kind rescues it
        sweep.Sweep([GRAPH], ["sat:degree=free:arcs=false"]).resolved_options()
    with pytest.raises(ValueError, match="needs arcs"):  # an encoding object for no kind is checked as before
        registry.create("sat", degree="free")


def test_rules_between_options_are_one_line_errors_and_kind_defaults_give_way():
    with pytest.raises(ValueError, match="directed=true needs arcs=true or arcs=asymmetry"):
        registry.create("sat", directed="true")
    with pytest.raises(ValueError, match="has no option"):
        registry.create("propagator", join="merge")
    # proof=true on a graph: the graph's fix, directed and split give way to their plain defaults
    proved = registry.entry("sat:proof=true").resolve("graph").options
    assert (proved["fix"], proved["directed"], proved["split"]) == ("false", "false", "off")
    with pytest.raises(ValueError, match="proof=true cannot be given with fix=true"):
        registry.entry("cegar:proof=true").resolve("graph")  # a preset's options do not give way


def test_options_are_resolved_once_per_entry_and_kind_and_never_in_the_worker(monkeypatch, tmp_path):
    calls: list[tuple[str, str | None]] = []
    real = options.resolve

    def counted(cls, given, kind=None, *args, **kwargs):
        calls.append((cls.name, kind))
        return real(cls, given, kind, *args, **kwargs)

    monkeypatch.setattr(options, "resolve", counted)
    masyu = sets.instances("masyu-smoke")[:3]
    args = cli.parser().parse_args(["--encoding", "sat,cegar", "--seed", "0", "1", "--time-limit", "10",
                                    "--db", str(tmp_path / "r.sqlite")])
    plan = cli.build(args, [])
    plan.instances = [*masyu, GRAPH]
    specs, _ = sweep.plan(plan)
    sweep.config(plan)  # what the sweeps table records: the same resolutions
    assert len(specs) == 2 * 2 * 4
    assert sorted(calls, key=str) == sorted([("sat", None), ("sat", None), ("sat", "masyu"), ("sat", "masyu"),
                                             ("sat", "graph"), ("sat", "graph")], key=str)
    calls.clear()
    for spec in specs[:3]:  # the worker's side, as the supervisor hands it a request
        request = {k: spec[k] for k in REQUEST_KEYS if k in spec} | {"seq": 1}
        answer = worker.serve(request, worker.GUARD)
        assert answer["row"]["status"] in ("solved", "unsat"), answer["row"].get("detail")
        assert json.loads(answer["row"]["options"]) == spec["options"]
    assert calls == []


def test_a_plugin_with_defaults_and_choices_only_keeps_working():
    class Old(Encoding):
        name = "old"
        puzzles = None
        defaults = {"size": 3, "mode": "a"}
        choices = {"mode": ("a", "b")}

        def solve(self, puzzle, limits, seed, exclude=()):
            return Outcome("unknown")

    assert Old(size="4").options == {"size": 4, "mode": "a"}
    with pytest.raises(ValueError, match="not one of a, b"):
        Old(mode="c")
    assert options.resolve(Old, {}, "masyu").options == {"size": 3, "mode": "a"}
    assert "size=int" in "\n".join(options.describe(Old))


def test_execute_resolves_a_configuration_for_the_instances_kind():
    row = execute(MASYU, "cegar", {}, 0, Limits(time_s=10))
    assert row["status"] == "solved" and json.loads(row["options"])["join"] == "merge"
    row = execute(GRAPH, "sat", {"colour": "on"}, 0, Limits(time_s=10))
    assert row["status"] == "error" and "does nothing on graph" in row["detail"]


# `NAME:KEY=VALUE...` as harness.run spells a configuration, and `NAME[KEY=VALUE,...]` as labels did
COLON = re.compile(r"\b([a-z]+)((?::[a-z_]+=[A-Za-z0-9_.-]+)+)")
BRACKET = re.compile(r"\b([a-z]+)\[([a-z_]+=[^\],\s]+(?:,[a-z_]+=[^\],\s]+)*)\]")


def _spelled(encoding: str, pairs: dict[str, str]) -> tuple[str, frozenset]:
    """A configuration by what it sets apart from its encoding's plain defaults."""
    plain = {k: str(v) for k, v in options.every_option(registry.encodings()[encoding]).items()}
    return encoding, frozenset((k, v) for k, v in pairs.items() if plain.get(k) != v)


def test_no_preset_is_spelled_out_in_tests_docs_or_results_readmes():
    # a preset setting nothing apart from the plain defaults (`sat-plain`) has nothing to spell out
    spelled = {name: _spelled(p.encoding, p.options) for name, p in PRESETS.items()}
    presets = {said: name for name, said in spelled.items() if said[1]}
    files = [*ROOT.glob("tests/**/*.py"), *ROOT.glob("docs/*.md"), *ROOT.glob("results/*/README.md"),
             ROOT / "README.md"]
    found = []
    for path in files:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for pattern, sep in ((COLON, ":"), (BRACKET, ",")):
                for m in pattern.finditer(line):
                    if m.group(1) not in registry.encodings():
                        continue
                    pairs = dict(p.split("=", 1) for p in m.group(2).strip(":").split(sep))
                    if (name := presets.get(_spelled(m.group(1), pairs))) is not None:
                        found.append(f"{path.relative_to(ROOT)}:{n}: {m.group(0)} is preset {name}")
    assert files and not found, "\n".join(found)
