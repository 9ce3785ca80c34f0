"""The `auto` encoding: on a graph it runs the configuration its rule names for the graph's features, and
the row's `extra` holds the features and the choice; another kind is refused; a sweep stores them."""

from __future__ import annotations

import pytest

from harness import registry, sets
from harness.analysis.results import load
from harness.encoding import Limits
from harness.extra import extra_column, read_extra
from harness.run.cli import main as run_main
from harness.run.execute import execute
from loopbench_encodings.loop import choose
from loopbench_encodings.loop.features import features

LIMITS = Limits(time_s=30.0)
SMALL = ("graph-prism-6-s2026-000", "graph-cubic-60-s2026-000")  # 6 and 60 vertices, both Hamiltonian
BY_SIZE = "asp if vertices > 30 else cegar-split"


def smoke(name: str):
    return next(i for i in sets.resolve("graph-smoke") if i.name == name)


@pytest.mark.parametrize("rule", ["", BY_SIZE])
def test_auto_runs_what_its_rule_chooses_and_records_features_and_choice(rule):
    said = choose.read() if not rule else choose.parse(rule)
    for name in SMALL:
        instance = smoke(name)
        row = execute(instance, "auto", {"rule": rule} if rule else {}, 0, LIMITS)
        extra = read_extra(row["extra"])
        found = features(instance.puzzle.neighbours)
        assert extra["auto_features"] == pytest.approx(found)
        assert extra["auto_choice"] == said.choose(found) and extra["auto_rule"] == str(said)
        assert row["status"] == "solved" and row["verified"] == 1, (name, row["detail"])
        assert extra["auto_features_cpu_s"] >= 0
        if extra["auto_choice"] == "asp":
            assert "clingo_version" in extra  # the chosen encoding's own stats are kept
    if rule == BY_SIZE:  # the two graphs are on either side of its threshold
        chosen = {read_extra(execute(smoke(n), "auto", {"rule": rule}, 0, LIMITS)["extra"])["auto_choice"]
                  for n in SMALL}
        assert chosen == {"asp", "cegar-split"}


def test_the_choice_is_reported_before_the_chosen_configuration_runs_and_with_its_reports():
    """What a run stopped by the runner past its limit keeps: the statistics reported last."""
    reported: list[dict] = []
    limits = Limits(time_s=30.0, progress=reported.append)
    encoding = registry.create_for("auto:rule=always cegar-split", "graph")
    encoding.prepare()
    outcome = encoding.solve(smoke("graph-cubic-60-s2026-000").puzzle, limits, 0)
    assert outcome.status == "sat" and outcome.stats["iterations"] >= 1
    first, *during = reported
    assert set(first) == {"auto_choice", "auto_rule", "auto_features", "auto_features_cpu_s"}
    assert first["auto_choice"] == "cegar-split"
    assert during and all(r["auto_choice"] == "cegar-split" and "conflicts" in r for r in during)


def test_auto_serves_graphs_only_and_refuses_a_bad_rule():
    assert registry.encodings()["auto"].serves("graph") and not registry.encodings()["auto"].serves("masyu")
    masyu = sets.resolve("masyu-smoke")[0]
    assert "does not support masyu" in execute(masyu, "auto", {}, 0, LIMITS)["detail"]
    with pytest.raises(ValueError, match="no feature colour"):
        registry.create_for("auto:rule=asp if colour > 1 else cegar-split", "graph")
    with pytest.raises(ValueError, match="unknown encoding 'nosuch'"):
        registry.create_for("auto:rule=always nosuch", "graph")
    with pytest.raises(ValueError, match="auto itself"):
        registry.create_for("auto:rule=always auto", "graph")


def test_a_sweep_stores_the_features_and_the_choice_in_extra(tmp_path):
    db = tmp_path / "runs.sqlite"
    for name in SMALL:
        (tmp_path / f"{name}.txt").write_text(smoke(name).text)
    files = [str(tmp_path / f"{name}.txt") for name in SMALL]
    assert run_main(["--encoding", f"auto:rule={BY_SIZE}", "--instances", *files, "--db", str(db),
                     "--time-limit", "30", "--jobs", "1"]) == 0
    runs = load(db).set_index("instance")
    assert dict(extra_column(runs, "auto_choice")) == {SMALL[0]: "cegar-split", SMALL[1]: "asp"}
    assert extra_column(runs, "auto_features")[SMALL[1]]["vertices"] == 60
    assert (runs["verified"] == 1).all()
