"""The per-encoding summary: status counts, PAR-2 over the runs an encoding really ran, medians."""

import math

import pandas as pd

from harness.analysis.summary import par2, summarize


def runs() -> pd.DataFrame:
    return pd.DataFrame({
        "encoding": ["a", "a", "a", "a", "a", "b"],
        "status": ["solved", "timeout", "unsat", "error", "solved", "wrong"],
        "verified": [1, None, None, None, 0, 0],  # a solved row the checker did not accept is not solved
        "solve_s": [1.0, 10.0, 2.0, None, 3.0, 0.5],
        "time_limit_s": [10.0] * 6,
    })


def test_par2_scores_each_run():
    scores = par2(runs())
    assert list(scores[:3]) == [1.0, 20.0, 2.0]
    assert math.isnan(scores[3])  # bad input: no encoding ran, so it does not count
    assert list(scores[4:]) == [20.0, 20.0]


def test_summarize_counts_statuses_and_means_par2():
    table = summarize(runs())
    a, b = table.loc["a"], table.loc["b"]
    assert (a["runs"], a["solved"], a["timeout"], a["unsat"], a["error"]) == (5, 2, 1, 1, 1)
    assert a["par2_s"] == (1.0 + 20.0 + 2.0 + 20.0) / 4
    assert a["median_s"] == 1.0  # only the verified solve counts
    assert (b["wrong"], b["par2_s"]) == (1, 20.0) and math.isnan(b["median_s"])
