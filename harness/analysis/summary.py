"""Per-encoding summary of runs: counts by status, PAR-2 and median time over verified solves."""

from __future__ import annotations

import pandas as pd

from harness.analysis.verdicts import CERTIFIED, CONFIRMED, REFUTED, UNPROVEN, unsat_verdicts

# Column order of the summary; `timeout` etc. count runs with that status. `certified` counts unsat
# claims with a checked proof, `unsat` confirmed ones (a second encoding agrees), `unproven` the
# unsat claims nothing backs; a refuted one counts as `wrong`.
STATUS_COLUMNS = ("solved", "wrong", "certified", "unsat", "unproven", "timeout", "memout", "crash", "error",
                  "unknown")


def solved_mask(runs: pd.DataFrame) -> pd.Series:
    """Only runs whose solution the independent checker accepted count as solved."""
    return (runs["status"] == "solved") & (runs["verified"] == 1)


def verdicts_of(runs: pd.DataFrame) -> pd.Series:
    """The runs' `unsat_verdict` column (judged over the whole database) if any, else judged here."""
    return runs["unsat_verdict"] if "unsat_verdict" in runs else unsat_verdicts(runs)


def shown_status(runs: pd.DataFrame) -> pd.Series:
    """The status a summary counts: an unproven `unsat` as `unproven`, a certified one as `certified`,
    a refuted one as `wrong`."""
    verdict = verdicts_of(runs)
    status = runs["status"].astype(object).copy()
    status[(verdict == UNPROVEN).fillna(False).to_numpy()] = "unproven"
    status[(verdict == CERTIFIED).fillna(False).to_numpy()] = "certified"
    status[(verdict == REFUTED).fillna(False).to_numpy()] = "wrong"
    return status


def par2(runs: pd.DataFrame) -> pd.Series:
    """Per-run PAR-2: solve time if verified-solved or a certified or confirmed unsat, else 2x the limit.

    An unsat claim that no proof certifies and no second encoding confirms (or that a solution
    refutes) is not an answer.
    `error` runs (bad input: no encoding ran) score NaN, so they do not count in a mean.
    """
    confirmed = (runs["status"] == "unsat") & verdicts_of(runs).isin([CONFIRMED, CERTIFIED]).fillna(False)
    answered = solved_mask(runs) | confirmed
    score = runs["solve_s"].where(answered, 2 * runs["time_limit_s"])
    return score.where(runs["status"] != "error")


def summarize(runs: pd.DataFrame, by: str = "encoding") -> pd.DataFrame:
    """One row per `by` value: runs, a count per status, PAR-2 (mean, s) and median solve time (s)."""
    if runs.empty:
        return pd.DataFrame(columns=["runs", *STATUS_COLUMNS, "par2_s", "median_s"])
    runs = runs.assign(_par2=par2(runs), _solved_s=runs["solve_s"].where(solved_mask(runs)),
                       _status=shown_status(runs))
    counts = pd.crosstab(runs[by], runs["_status"]).reindex(columns=list(STATUS_COLUMNS), fill_value=0)
    counts.columns.name = None
    grouped = runs.groupby(by)
    table = counts.assign(par2_s=grouped["_par2"].mean(), median_s=grouped["_solved_s"].median())
    table.insert(0, "runs", grouped.size())
    return table
