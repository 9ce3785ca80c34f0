"""`harness.compare` on a real sweep: counts that add up, speed-ups recomputed from the rows, restrictions.

Sweeps into one database: circuit, lazy and sat over masyu-smoke (12 puzzles: the session's
`smoke_db`, copied); `dummy` answering every puzzle with janko001's loop (the checker accepts it
there only: one lone solve for the others); sat over masyu-seed, which adds janko080 (janko001 is
already stored: same run key).
"""

from __future__ import annotations

import json
import shutil
import sqlite3

import numpy as np
import pandas as pd
import pytest

from harness import compare as cli
from harness import sets
from harness.analysis import plots, results
from harness.analysis.compare import compare, render
from harness.presets import PRESETS
from harness.run import cli as run_cli

SMOKE = [i.source for i in sets.instances("masyu-smoke")]
JANKO001 = next(i for i in sets.instances("masyu-smoke") if i.name == "janko001")


@pytest.fixture(scope="module")
def db(smoke_db, tmp_path_factory):
    db = tmp_path_factory.mktemp("compare") / "runs.sqlite"
    shutil.copyfile(smoke_db, db)
    common = ["--db", str(db), "--time-limit", "20", "--jobs", "1"]
    assert run_cli.main(["--encoding", "dummy", "--option", "status=sat", "--option",
                         f"solution={JANKO001.known_solution}", "--instances", "masyu-smoke", *common]) == 0
    assert run_cli.main(["--encoding", "sat", "--instances", "masyu-seed", *common]) == 0
    return db


@pytest.fixture(scope="module")
def runs(db):
    return plots.load(db)


def sweep_ids(db) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [s for (s,) in conn.execute("SELECT sweep_id FROM sweeps ORDER BY started_at")]


def test_the_counts_add_up_to_the_instances(runs):
    c = compare(runs, "dummy", "sat", set_name="masyu-smoke")
    assert c.instances == len(SMOKE) == 12
    assert (c.both_solved, c.neither_solved, c.a.only_solved) == (1, 0, [])
    assert c.b.only_solved == sorted(s for s in SMOKE if s != JANKO001.source)
    assert c.both_solved + len(c.a.only_solved) + len(c.b.only_solved) + c.neither_solved == c.instances
    assert c.wins + c.losses + c.ties == c.both_solved == c.speedup.n
    assert (c.a.solved, c.b.solved) == (1, 12)
    # eleven wrong answers score twice the 20 s limit; sat's twelve solves score their own times
    assert c.a.par2_s == pytest.approx((11 * 40 + c.per_instance["a_s"].iloc[0]) / 12)
    mine = runs[(runs["encoding"] == "sat") & runs["source"].isin(SMOKE)]
    assert c.b.par2_s == pytest.approx(mine["solve_cpu_s"].astype(float).mean())


@pytest.mark.parametrize(("clock", "column"), [("cpu", "solve_cpu_s"), ("wall", "solve_s")])
def test_speedups_are_recomputed_from_the_rows_on_the_clock_asked(runs, db, clock, column):
    c = compare(runs, "sat", "circuit", set_name="masyu-smoke", clock=clock)
    assert c.instances == c.both_solved == 12
    assert f"({column})" in c.clock and f"({column})" in render(c)
    raw = results.load(db)
    raw = raw[raw["source"].isin(SMOKE) & (raw["status"] == "solved")]
    times = raw.pivot_table(index="source", columns="encoding", values=column)
    expected = (times["circuit"] / times["sat"]).sort_index()
    got = c.per_instance.assign(source=[f"{s}/{n}" for s, n in c.per_instance.index]).set_index("source")
    assert np.allclose(got["speedup"].sort_index(), expected)
    if clock == "wall":
        return
    assert c.wins == int((expected > 1).sum()) and c.losses == int((expected < 1).sum())
    assert c.speedup.geomean == pytest.approx(np.exp(np.log(expected).mean()))
    assert c.speedup.low <= c.speedup.geomean <= c.speedup.high
    reverse = compare(runs, "circuit", "sat", set_name="masyu-smoke")
    assert reverse.speedup.geomean == pytest.approx(1 / c.speedup.geomean)
    assert (reverse.wins, reverse.losses) == (c.losses, c.wins)


def test_a_config_compared_with_itself_ties_everywhere(runs):
    c = compare(runs, "sat", "sat", across=True)
    assert c.speedup.geomean == c.speedup.low == c.speedup.high == 1
    assert c.ties == c.both_solved == c.instances == 13 and c.wins == c.losses == 0
    assert c.sweeps.startswith("ACROSS SWEEPS") and c.sweeps.count(" runs, load ") == 2


def test_by_default_one_sweep_the_newest_that_ran_both_and_the_output_says_which(runs, db):
    first, dummy, seed = sweep_ids(db)
    newest = compare(runs, "sat", "sat")  # sat ran in two sweeps: the newest one is compared
    assert newest.instances == 1 and newest.sweeps.startswith(f"one sweep: {seed}")
    assert "load " in newest.sweeps
    both = compare(runs, "sat", "circuit")  # only the first sweep ran both
    assert both.instances == 12 and both.b.not_run == 0 and both.sweeps.startswith(f"one sweep: {first}")
    apart = compare(runs, "dummy", "sat", set_name="masyu-smoke")  # no sweep ran both: said loudly
    assert apart.instances == 12 and apart.sweeps.startswith("ACROSS SWEEPS")
    # alone and not at its defaults, the dummy's configuration is labelled with how it differs
    assert apart.a.config.startswith("dummy[status=sat,solution=")
    assert f"{apart.a.config}: {dummy}" in apart.sweeps and f"sat: {first}" in apart.sweeps
    assert "ACROSS SWEEPS" in render(apart)


def test_set_and_sweep_restrictions(runs, db):
    whole = compare(runs, "sat", "circuit", across=True)
    assert whole.instances == 12 and whole.a.not_run == 0 and whole.b.not_run == 1  # janko080: sat alone
    first, dummy, seed = sweep_ids(db)
    assert compare(runs, "sat", "circuit", sweeps=[first]).b.not_run == 0
    assert compare(runs, "sat", "sat", sweeps=[seed]).instances == 1  # janko001 was stored by the first
    assert compare(runs, "sat", "sat", sweeps=[seed[:-3], first]).instances == 13  # a unique prefix will do
    assert compare(runs, "sat", "sat", set_name="masyu-seed", across=True).instances == 2
    # One sweep by default: the seed sweep ran one of the set's two puzzles (the first had stored the other).
    assert compare(runs, "sat", "sat", set_name="masyu-seed").instances == 1
    with pytest.raises(ValueError, match="matches no sweep"):
        compare(runs, "sat", "circuit", sweeps=["no-such-sweep"])
    with pytest.raises(KeyError):
        compare(runs, "sat", "circuit", set_name="no-such-set")


def test_configs_are_named_as_the_plots_name_them(runs):
    sat = runs[runs["encoding"] == "sat"]
    cutset = [json.dumps({**json.loads(o), "cuts": "cutset"}) for o in sat["options"]]
    both = pd.concat([runs, sat.assign(options=cutset, run_key=sat["run_key"] + "x")], ignore_index=True)
    assert "sat[cuts=cutset]" in set(plots.with_config(both)["config"])
    c = compare(both, "sat[cuts=cutset]", "circuit", set_name="masyu-smoke")
    assert c.a.config == "sat[cuts=cutset]" and c.instances == 12
    # as harness.run spells a configuration: `sat` is sat at its defaults, `sat:cuts=cutset` the other
    assert compare(both, "sat", "circuit").a.config == "sat[cuts=loop]"
    assert compare(both, "sat:cuts=cutset", "circuit").a.config == "sat[cuts=cutset]"
    disc = [json.dumps({**json.loads(o), "cuts": "disc"}) for o in sat["options"]]
    neither = pd.concat([runs[runs["encoding"] != "sat"], sat.assign(options=cutset),
                         sat.assign(options=disc, run_key=sat["run_key"] + "y")], ignore_index=True)
    with pytest.raises(ValueError, match="ambiguous"):  # neither at the default: which is meant?
        compare(neither, "sat", "circuit")


def test_an_option_older_runs_lack_is_labelled_as_its_default(runs):
    sat = runs[runs["encoding"] == "sat"]
    older = [json.dumps({k: v for k, v in json.loads(o).items() if k != "join"}) for o in sat["options"]]
    merged = [json.dumps({**json.loads(o), "join": "merge"}) for o in sat["options"]]
    both = pd.concat([sat.assign(options=older), sat.assign(options=merged, run_key=sat["run_key"] + "m")],
                     ignore_index=True)
    assert set(plots.with_config(both)["config"]) == {"sat[join=false]", "sat[join=merge]"}


def test_cli_text_and_json(db, capsys):
    assert cli.main(["--db", str(db), "dummy", "sat", "--set", "masyu-smoke"]) == 0
    text = capsys.readouterr().out
    assert "dummy[status=sat,solution=" in text and "] vs sat on the 12 instances both ran" in text
    assert "only sat solved: masyu-" in text
    assert cli.main(["--db", str(db), "sat", "circuit", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["instances"] == 12 and len(out["per_instance"]) == out["both_solved"] == 12
    assert out["a"]["config"] == "sat" and out["b"]["not_run"] == 0  # one sweep: the one that ran both
    assert cli.main(["--db", str(db), "sat", "nosuch"]) == 2
    assert "nosuch" in capsys.readouterr().err
    assert render(compare(plots.load(db), "sat", "sat", across=True)).count("as fast on 13") == 1
    assert cli.main(["--db", str(db), "sat", "circuit", "--across-sweeps"]) == 0
    assert "ACROSS SWEEPS" in capsys.readouterr().out


def test_a_run_spells_the_configuration_harness_run_names():
    from harness.analysis.configs import defaults, spells

    merged = {**defaults("sat"), "join": "merge"}
    assert spells("sat", merged, "sat:join=merge") and not spells("sat", merged, "sat")
    assert spells("sat", defaults("sat"), "sat") and spells("sat", {}, "sat")  # options it lacks: defaults
    assert not spells("sat", merged, "sat:join=merge:arcs=true")
    assert not spells("lazy", merged, "sat:join=merge")


def test_the_speed_up_reads_as_a_person_says_it_the_faster_first(runs):
    slower_first = compare(runs, "circuit", "sat", set_name="masyu-smoke")
    faster_first = compare(runs, "sat", "circuit", set_name="masyu-smoke")
    g = faster_first.speedup.geomean  # circuit time / sat time
    assert g > 1  # sat is faster than circuit on the smoke set, as in every sweep here
    said = f"sat is {g:.3g}x faster than circuit: geometric mean of the per-instance time ratios"
    assert said in render(slower_first) and said in render(faster_first)
    assert "speed-up of" not in render(slower_first)
    # the interval on the same side as the sentence, in the same order (low to high)
    low, high = faster_first.speedup.low, faster_first.speedup.high
    assert f"bootstrap interval {low:.3g}x to {high:.3g}x" in render(slower_first)
    assert "faster on an instance both solved: circuit on " in render(slower_first)
    same = render(compare(runs, "sat", "sat", across=True))
    assert "sat and sat are as fast" in same and "the interval holds 1x: no clear winner" in same


def test_without_configurations_the_newest_sweeps_are_compared(db, capsys):
    first, dummy, seed = sweep_ids(db)
    # the newest sweep ran sat alone: nothing to compare it with there, and the error says what to name
    assert cli.main(["--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert f"sweep {seed} ran only sat" in err and "name the configurations to compare (A B)" in err
    assert "A and B are needed" not in err
    # A alone: the newest sweep that ran it, A against each other configuration there
    assert cli.main(["--db", str(db), "circuit"]) == 0
    out = capsys.readouterr().out
    assert out.count(" on the 12 instances both ran") == 2
    assert "circuit vs lazy on" in out and "circuit vs sat on" in out and f"one sweep: {first}" in out
    # that sweep's own configurations without A: the best ranked against the others
    assert cli.main(["--db", str(db), "--sweep", first, "--json"]) == 0
    pairs = [(c["a"]["config"], c["b"]["config"]) for c in json.loads(capsys.readouterr().out)["comparisons"]]
    assert len(pairs) == 2 and len({a for a, _ in pairs}) == 1 and {b for _, b in pairs} | {pairs[0][0]} == {
        "circuit", "lazy", "sat"}


def test_a_lone_configuration_off_its_defaults_is_named_by_the_nearest_name_and_how_it_differs(runs):
    sat = runs[runs["encoding"] == "sat"]
    cutset = [json.dumps({**json.loads(o), "cuts": "cutset"}) for o in sat["options"]]
    alone = pd.concat([runs[runs["encoding"] != "sat"], sat.assign(options=cutset)], ignore_index=True)
    assert set(plots.with_config(alone.query("encoding == 'sat'"))["config"]) == {"sat[cuts=cutset]"}
    assert compare(alone, "sat:cuts=cutset", "circuit").a.config == "sat[cuts=cutset]"
    # a preset's options but one: named by the preset, which is nearer than the encoding's defaults
    arc_model = PRESETS["arc-model"].options
    near = [json.dumps({**json.loads(o), **arc_model, "cuts": "loop"}) for o in sat["options"]]
    other = pd.concat([runs[runs["encoding"] != "sat"], sat.assign(options=near)], ignore_index=True)
    assert set(plots.with_config(other.query("encoding == 'sat'"))["config"]) == {"arc-model[cuts=loop]"}
    for spelled in ("arc-model:cuts=loop", "sat:arcs=true:phase=solver:cuts=loop"):
        assert compare(other, spelled, "circuit").a.config == "arc-model[cuts=loop]", spelled
    with pytest.raises(ValueError, match="not among"):  # `sat` is sat at its defaults: none ran
        compare(other, "sat", "circuit")
