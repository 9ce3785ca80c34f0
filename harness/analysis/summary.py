"""Per-encoding summary of runs: counts by status, PAR-2 and median time over verified solves."""

from __future__ import annotations

import pandas as pd

# Column order of the summary; `timeout` etc. count runs with that status.
STATUS_COLUMNS = ("solved", "wrong", "unsat", "timeout", "memout", "crash", "error", "unknown")


def solved_mask(runs: pd.DataFrame) -> pd.Series:
    """Only runs whose solution the independent checker accepted count as solved."""
    return (runs["status"] == "solved") & (runs["verified"] == 1)


def par2(runs: pd.DataFrame) -> pd.Series:
    """Per-run PAR-2 score: solve time if verified-solved or unsat, else twice the run's time limit.

    `error` runs (bad input: no encoding ran) score NaN, so they do not count in a mean.
    """
    answered = solved_mask(runs) | (runs["status"] == "unsat")
    score = runs["solve_s"].where(answered, 2 * runs["time_limit_s"])
    return score.where(runs["status"] != "error")


def summarize(runs: pd.DataFrame, by: str = "encoding") -> pd.DataFrame:
    """One row per `by` value: runs, a count per status, PAR-2 (mean, s) and median solve time (s)."""
    if runs.empty:
        return pd.DataFrame(columns=["runs", *STATUS_COLUMNS, "par2_s", "median_s"])
    runs = runs.assign(_par2=par2(runs), _solved_s=runs["solve_s"].where(solved_mask(runs)))
    counts = pd.crosstab(runs[by], runs["status"]).reindex(columns=list(STATUS_COLUMNS), fill_value=0)
    grouped = runs.groupby(by)
    table = counts.assign(par2_s=grouped["_par2"].mean(), median_s=grouped["_solved_s"].median())
    table.insert(0, "runs", grouped.size())
    return table
