"""The selector's training (`harness.select`): the rule file round-trips, the search finds a planted
threshold, unknown cells never count as solved, the cross-validation's folds keep each family on one
side, the stored runs are told apart by configuration, and the committed rule is what training gives."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from harness.select import cells, search
from harness.select import train as training
from loopbench_encodings.loop import choose
from loopbench_encodings.loop.features import NAMES

ROOT = Path(__file__).resolve().parents[1]


def test_a_rule_round_trips_through_its_file_and_its_text(tmp_path):
    rule = choose.Rule((choose.Condition("share_degree2", True, 0.1125),
                        choose.Condition("vertices", False, 4321.5)), "asp", "cegar-split", {"graphs": 3})
    path = tmp_path / "rule.json"
    path.write_text(rule.to_json())
    back = choose.read(path)
    assert back == rule and back.trained == {"graphs": 3} and back.to_json() == rule.to_json()
    assert choose.parse(str(rule)) == rule
    assert str(rule) == "asp if share_degree2 > 0.1125 and vertices <= 4321.5 else cegar-split"
    assert choose.parse("always asp") == choose.Rule((), "asp", "asp")
    assert rule.choose({"share_degree2": 0.2, "vertices": 100}) == "asp"
    assert rule.choose({"share_degree2": 0.2, "vertices": 5000}) == "cegar-split"
    committed = choose.read()
    assert choose.parse(str(committed)) == committed


def test_a_bad_rule_is_one_line_naming_what_is_wrong(tmp_path):
    with pytest.raises(ValueError, match="condition 'vertices = 3'"):
        choose.parse("asp if vertices = 3 else cegar-split")
    with pytest.raises(ValueError, match="expected 'always CONFIG'"):
        choose.parse("asp when vertices > 3")
    (tmp_path / "bad.json").write_text('{"when": [{"feature": "vertices"}]}')
    with pytest.raises(ValueError, match=r"bad\.json: not a selection rule"):
        choose.read(tmp_path / "bad.json")


def frame(values: list[float]) -> pd.DataFrame:
    """Features where only `vertices` varies (every other feature one value: no cut point)."""
    index = [f"graph{i}" for i in range(len(values))]
    return pd.DataFrame({name: values if name == "vertices" else [1.0] * len(values) for name in NAMES},
                        index=index)


def test_the_search_finds_a_planted_threshold():
    feats = frame([float(v) for v in range(10, 110, 10)])  # 10..100
    big = feats["vertices"] > 55
    seconds = pd.DataFrame({"a": np.where(big, 5.0, math.inf), "b": np.where(big, math.inf, 7.0)},
                           index=feats.index)
    rule = search.fit(feats, seconds)
    assert [str(c) for c in rule.when] in (["vertices > 55"], ["vertices <= 55"])
    assert list(search.chosen(rule, feats)) == ["a" if b else "b" for b in big]
    # one configuration best everywhere: no condition is worth its keep
    assert search.fit(feats, seconds.assign(a=1.0)).when == ()


def test_an_unknown_cell_is_never_counted_solved():
    feats = frame([1.0, 2.0, 3.0, 4.0])
    # `a` is unknown where it would be the better: the fit must not count it so
    seconds = pd.DataFrame({"a": [np.nan, np.nan, 1.0, 1.0], "b": [30.0, 30.0, math.inf, 2.0]},
                           index=feats.index)
    rule = search.fit(feats, seconds)
    # `always a` might solve all four, but only two are known: the fit takes the four it knows
    assert list(search.chosen(rule, feats)) == ["b", "b", "a", "a"]
    scores = search.score(seconds["a"])
    assert scores["solved <= 60 s"] == (2, 4)  # at least the two known, at most with both unknowns
    assert scores["PAR-2"][0] == pytest.approx((1 + 1 + 120 + 120) / 4)
    low, high = search.oracle(seconds)
    assert search.score(low, high)["solved <= 1 s"] == (2, 4)
    assert search.score(low, high)["solved <= 60 s"] == (4, 4)


def test_families_come_from_the_degree_histogram_and_a_fold_holds_one_family_whole():
    feats = training.featurefile.read(ROOT / training.featurefile.FEATURES_CSV)
    groups = search.families(feats)
    assert groups["graph1"] == search.family(feats.loc["graph1"])
    cubic = feats.index[feats["cubic"] == 1]
    assert (groups[cubic] == "min3-max3-d2<=0-cubic").all()
    folds = search.folds(groups)
    assert len(folds) == groups.nunique() > 5
    held_count = sum(f.astype(int) for f in folds)
    assert (held_count == 1).all()  # every graph held out exactly once
    for held in folds:
        assert set(groups[held]).isdisjoint(set(groups[~held]))
        assert groups[held].nunique() == 1


def test_stored_runs_are_told_apart_by_their_configuration():
    from harness import registry

    asp = {k: str(v) for k, v in registry.entry("asp").resolve("graph").options.items()}
    split = registry.entry("cegar-split").resolve("graph").options
    cegar = registry.entry("cegar").resolve("graph").options
    assert cells.config_of("asp", asp, cells.CANDIDATES) == "asp"
    assert cells.config_of("asp", {**asp, "configuration": "auto"}, cells.CANDIDATES) == ""
    assert cells.config_of("sat", split, cells.CANDIDATES) == "cegar-split"
    assert cells.config_of("sat", cegar, cells.CANDIDATES) == ""
    assert cells.config_of("sat", cegar, ("cegar-split", "cegar")) == "cegar"
    # the third candidate is sat's graph default before degree=auto: its runs count as it, today's do not
    frontier = registry.entry("cegar-split-frontier").resolve("graph").options
    assert cells.config_of("sat", frontier, cells.CANDIDATES) == "cegar-split-frontier"
    assert cells.config_of("sat", registry.entry("sat").resolve("graph").options, cells.CANDIDATES) == ""


def test_the_committed_rule_is_what_training_gives_and_never_reads_the_held_out_set():
    databases = [ROOT / d for d in cells.DATABASES]
    found = training.data(databases, ROOT / training.featurefile.FEATURES_CSV)
    held = training.held_out_names()
    assert len(held) == 100 and not found.training[list(held)].any()
    assert int(found.training.sum()) == 801
    rule = training.train(found, [Path(d) for d in cells.DATABASES], training.featurefile.FEATURES_CSV)
    assert rule.to_json() == choose.RULE_FILE.read_text(encoding="utf-8")
    # a borrowed cell is only where split=hubs leaves the graph whole
    assert (found.features.loc[found.borrowed["cegar-split"], "split_parts"] == 0).all()
    unknown = int(found.seconds.loc[found.training, "asp"].isna().sum())
    assert rule.trained["unknown_cells"]["asp"] == unknown > 0


def test_a_run_at_a_shorter_limit_counts_only_for_a_configuration_whose_search_never_reads_its_limit(
        tmp_path):
    from harness.run import cli as run_cli

    db = tmp_path / "runs.sqlite"
    argv = ["--encoding", "cegar-split,asp", "--instances", "graph-smoke", "--time-limit", "5",
            "--db", str(db)]
    assert run_cli.main(argv) == 0
    stored = cells.runs([db], cells.CANDIDATES)
    # cegar-split's 5 s runs say nothing of its 60 s search (its sub-solves' budgets are its own); asp's do
    assert set(stored["config"]) == set(cells.LIMIT_FREE) == {"asp"}
    assert len(stored) == 14 and (stored["limit"] == 5).all()


def test_a_cell_known_only_below_the_limit_is_unknown_past_it_and_unsolved_up_to_it():
    rows = [("g0", "asp", 3.0, 10.0),  # solved within a 10 s run: its time
            ("g1", "asp", math.inf, 10.0),  # unsolved within 10 s: unknown at 60, unsolved at 1 and 10
            ("g2", "asp", math.inf, 10.0), ("g2", "asp", 30.0, 60.0),  # the 60 s run is read
            ("g3", "asp", math.inf, 60.0),  # unsolved within the limit
            ("g0", "cegar-split", 0.5, 60.0), ("g1", "cegar-split", 20.0, 60.0),
            ("g2", "cegar-split", 2.0, 60.0), ("g3", "cegar-split", math.inf, 60.0)]
    stored = pd.DataFrame(rows, columns=["graph", "config", "seconds", "limit"]).assign(db="x")
    seconds, floor = cells.table(stored)
    assert seconds["asp"].to_dict() == {"g0": 3.0, "g1": pytest.approx(np.nan, nan_ok=True), "g2": 30.0,
                                        "g3": math.inf}
    assert floor["asp"].to_dict() == {"g0": 0.0, "g1": 10.0, "g2": 0.0, "g3": 0.0}
    soonest = cells.soonest(seconds, floor)
    asp = search.score(seconds["asp"], soonest["asp"])
    assert asp["solved <= 10 s"] == (1, 1) and asp["solved <= 60 s"] == (2, 3)
    low, high = search.oracle(seconds, soonest)
    assert search.score(low, high)["solved <= 1 s"] == (1, 1)  # g1 could not have been asp's within 1 s
    # summed over the cutoffs, g1 is cegar-split's (solved within 60 s) and no fit may send it to asp
    feats = frame([1.0, 2.0, 3.0, 4.0]).set_axis(["g0", "g1", "g2", "g3"])
    picked = search.chosen(search.fit(feats, seconds), feats)
    assert picked["g1"] == "cegar-split"


def test_the_objective_counts_the_short_cutoffs_too():
    feats = frame([1.0] * 10)  # no feature tells the graphs apart: only `always` rules
    # `a` solves all ten at 20 s; `b` nine within 1 s and one never: at 60 s alone `a` is the better,
    # summed over 1, 10 and 60 s `b` (27 against 10)
    seconds = pd.DataFrame({"a": [20.0] * 10, "b": [0.5] * 9 + [math.inf]}, index=feats.index)
    assert search.OBJECTIVE_CUTOFFS == (1.0, 10.0, 60.0)
    assert search.fit(feats, seconds) == choose.Rule((), "b", "b")


def test_training_on_other_candidates_writes_its_rule_where_told_and_names_only_them(tmp_path, capsys):
    from harness.select.__main__ import main

    out = tmp_path / "rule.json"
    db = ["--db", str(ROOT / "results/selector/asp-10s.sqlite"),
          "--db", str(ROOT / "results/fhcp/headline.sqlite")]
    assert main(["train", "--candidates", "asp,cegar-split", *db, "--out", str(out),
                 "--features", str(ROOT / training.featurefile.FEATURES_CSV)]) == 0
    rule = choose.read(out)
    assert {rule.then, rule.otherwise} <= {"asp", "cegar-split"}
    assert "`cegar-split-frontier`" not in capsys.readouterr().out
    assert main(["train", "--candidates", "asp,nosuch", *db, "--out", str(out)]) == 2
    assert "nosuch" in capsys.readouterr().err
