"""Speed-ups and the virtual best, computed once (`analysis.ranking`): by hand here, and every caller agrees.

The agreement test reads the committed `results/reference-hard` sweep (real runs of five strategies):
`harness.compare`, the plots' table and the notebooks' paired ratios must give the figure `ranking` gives.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from harness.analysis import compare, plots, ranking

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "results" / "reference-hard" / "runs.sqlite"


def test_a_speedup_is_the_geometric_mean_of_base_over_config_on_what_both_solved():
    times = pd.DataFrame({"base": [4.0, 1.0, 9.0, np.nan], "fast": [1.0, 1.0, np.nan, 2.0]})
    up = ranking.speedup(times, "base", "fast")
    assert up.geomean == pytest.approx(math.sqrt(4.0 * 1.0))  # rows 3 and 4: solved by one only
    assert (up.both_solved, up.base_solved, up.config_solved, up.instances) == (2, 3, 3, 4)
    assert ranking.speedup(times, "fast", "base").geomean == pytest.approx(1 / up.geomean)
    assert ranking.paired_speedup(times["base"], times["fast"]) == pytest.approx(up.geomean)
    # a 0 s time is floored, never a division by zero or an infinite mean
    assert ranking.paired_speedup([1e-3], [0.0]) == pytest.approx(1e-3 / ranking.FLOOR_S)
    assert math.isnan(ranking.paired_speedup([], []))
    with pytest.raises(ValueError, match="differ in length"):
        ranking.paired_speedup([1.0, 2.0], [1.0])
    table = ranking.speedups(times, "base")
    assert table.loc["fast", "speedup"] == pytest.approx(up.geomean) and table.loc["base", "speedup"] == 1


def test_the_virtual_best_takes_each_instances_least_time_and_none_where_no_one_solved():
    times = pd.DataFrame({"a": [3.0, np.nan, 1.0], "b": [2.0, np.nan, 5.0]}, index=["x", "y", "z"])
    best = ranking.virtual_best(times)
    assert best["x"] == 2.0 and best["z"] == 1.0 and math.isnan(best["y"])
    assert ranking.virtual_best(times[[]]).isna().all()


def test_the_bootstrap_lives_beside_the_speedup_and_brackets_its_geometric_mean():
    ratios = [2.0, 4.0, 8.0, 2.0, 4.0]
    estimate = ranking.bootstrap_geomean(ratios, seed=3)
    assert estimate.geomean == pytest.approx(ranking.geomean(ratios))
    assert 2.0 <= estimate.low < estimate.geomean < estimate.high <= 8.0
    assert ranking.bootstrap_geomean(ratios, level=0.5, seed=3).high <= estimate.high  # narrower at 50 %
    assert plots.bootstrap_geomean is ranking.bootstrap_geomean  # the notebooks' name for the same code


def test_compare_the_plots_table_and_paired_ratios_give_rankings_speedup_on_a_real_sweep(tmp_path):
    # a copy: SQLite reading a WAL-mode file leaves its -shm and -wal beside it, in the repository
    copy = tmp_path / REFERENCE.name
    shutil.copyfile(REFERENCE, copy)
    runs = plots.load(copy)
    inst = plots.per_instance(runs)
    expected = ranking.speedup(plots.solved_times(inst), "circuit", "sat")
    assert expected.both_solved > 10 and expected.geomean > 1  # a real comparison, not an empty one
    head_to_head = compare.compare(runs, "sat", "circuit", resamples=200)
    assert head_to_head.speedup.geomean == pytest.approx(expected.geomean)
    assert head_to_head.speedup.n == expected.both_solved
    assert plots.table(runs, "circuit").loc["sat", "speedup_vs_circuit"] == pytest.approx(expected.geomean)
    ratios = plots.paired_ratios(runs, "sat", "circuit")["ratio"]  # sat / circuit: the other way round
    assert ranking.geomean(1 / ratios) == pytest.approx(expected.geomean)
    same = compare.compare(runs, "sat", "sat", resamples=200)
    assert same.speedup.geomean == pytest.approx(1.0) and same.speedup.n == expected.config_solved
    vbs = ranking.virtual_best(plots.solved_times(inst, common=True)[["sat", "circuit"]])
    assert head_to_head.best_solved == int(vbs.notna().sum())
