"""Per-encoding summary of runs: counts by status, PAR-2 and median time over verified solves.

Times are on one clock, CPU by default: `solve_cpu_s`, the CPU time of the encoding's own work,
the clock the time limit is judged on. A run stored before that column existed falls back to its
wall time (`solve_s`), and `clock_note` says how many did. `with_clock(runs, "wall")` ranks on
wall time (`solve_s`) instead; every figure and table says which clock it shows.
"""

from __future__ import annotations

import pandas as pd

from harness.analysis.ranking import ranked
from harness.analysis.verdicts import unsat_verdicts
from harness.outcomes import ANSWERING, Shown, Status, shown

# Column order of the summary, one per shown status (harness.outcomes.Shown); `timeout` etc. count runs
# with that status. `unsat` counts confirmed claims only (another model family agrees); `certified` the
# claims a checked proof backs; `unproven` the rest; `suspect` the claims whose own proof was judged
# wrong; a refuted one counts as `wrong`.
STATUS_COLUMNS = tuple(Shown)


CLOCKS = ("cpu", "wall")


def with_clock(runs: pd.DataFrame, clock: str = "cpu") -> pd.DataFrame:
    """The runs with a `clock` column naming the clock their times are read on (`cpu` or `wall`)."""
    if clock not in CLOCKS:
        raise ValueError(f"clock {clock!r} is not one of {', '.join(CLOCKS)}")
    return runs.assign(clock=clock)


def clock_of(runs: pd.DataFrame) -> str:
    """The clock the runs are read on: `cpu` unless `with_clock` said otherwise."""
    if "clock" in runs and len(runs) and (runs["clock"] == "wall").all():
        return "wall"
    return "cpu"


def solve_time(runs: pd.DataFrame) -> pd.Series:
    """Each run's solve time on its clock: `solve_cpu_s` (or `solve_s` for a run without it), or `solve_s`."""
    wall = pd.to_numeric(runs["solve_s"], errors="coerce").astype(float)
    if clock_of(runs) == "wall" or "solve_cpu_s" not in runs:
        return wall
    return pd.to_numeric(runs["solve_cpu_s"], errors="coerce").astype(float).fillna(wall)


def wall_fallbacks(runs: pd.DataFrame) -> int:
    """How many runs read on the CPU clock have no `solve_cpu_s` (stored before it) and show wall time."""
    if clock_of(runs) == "wall" or runs.empty:
        return 0
    cpu = runs["solve_cpu_s"] if "solve_cpu_s" in runs else pd.Series(float("nan"), index=runs.index)
    return int((cpu.isna() & runs["solve_s"].notna()).sum())


def clock_note(runs: pd.DataFrame) -> str:
    """One line saying which clock the runs' times are on, and which runs fall back to wall time."""
    if clock_of(runs) == "wall":
        return "times: wall time of the encoding's own work (solve_s)"
    note = "times: CPU time of the encoding's own work (solve_cpu_s)"
    old = wall_fallbacks(runs)
    if old:
        note += (f"; {old} of {len(runs)} runs predate solve_cpu_s and show wall time (solve_s) instead, "
                 "which runs ahead of CPU time on a loaded machine")
    return note


def clock_axis(runs: pd.DataFrame) -> str:
    """An axis label's words for the runs' time: `solve CPU time`, `solve wall time`, or a mix."""
    if clock_of(runs) == "wall":
        return "solve wall time"
    return "solve CPU time" if not wall_fallbacks(runs) else "solve time (CPU; wall for old runs)"


def solved_mask(runs: pd.DataFrame) -> pd.Series:
    """Only runs whose solution the independent checker accepted count as solved."""
    return (runs["status"] == Status.SOLVED) & (runs["verified"] == 1)


def verdicts_of(runs: pd.DataFrame) -> pd.Series:
    """The runs' `unsat_verdict` column (judged over the whole database) if any, else judged here."""
    return runs["unsat_verdict"] if "unsat_verdict" in runs else unsat_verdicts(runs)


def shown_status(runs: pd.DataFrame) -> pd.Series:
    """The status a summary counts (`harness.outcomes.shown`): an unproven `unsat` as `unproven`, a certified
    one as `certified`, a suspect one (its proof judged wrong) as `suspect`, a refuted one as `wrong`."""
    verdict = verdicts_of(runs).astype(object)
    said = [shown(s, v).value for s, v in zip(runs["status"], verdict, strict=True)]
    return pd.Series(said, index=runs.index, dtype=object)


def par2(runs: pd.DataFrame) -> pd.Series:
    """Per-run PAR-2 score: solve time (`solve_time`) if verified-solved or a confirmed unsat, else twice
    the time limit.

    An unsat claim that neither another model family confirms nor a checked proof certifies (or that a
    solution refutes) is not an answer.
    `error` runs (bad input: no encoding ran) score NaN, so they do not count in a mean.
    """
    confirmed = (runs["status"] == Status.UNSAT) & verdicts_of(runs).isin(ANSWERING).fillna(False)
    answered = solved_mask(runs) | confirmed
    score = solve_time(runs).where(answered, 2 * runs["time_limit_s"])
    return score.where(runs["status"] != Status.ERROR)


def summarize(runs: pd.DataFrame, by: str = "encoding") -> pd.DataFrame:
    """One row per `by` value, in competition rank order: its `rank`, runs, a count per status, PAR-2
    (mean, s) and median solve time (s).

    Ranked as the SAT Competition ranks (`ranking.rank`): a `by` value with a wrong answer after
    every one without, then by solved count, then by PAR-2. Times on the runs' clock
    (`solve_time`; `clock_note` says which).
    """
    if runs.empty:
        return pd.DataFrame(columns=["rank", "runs", *STATUS_COLUMNS, "par2_s", "median_s"])
    runs = runs.assign(_par2=par2(runs), _solved_s=solve_time(runs).where(solved_mask(runs)),
                       _status=shown_status(runs))
    counts = pd.crosstab(runs[by], runs["_status"]).reindex(columns=list(STATUS_COLUMNS), fill_value=0)
    counts.columns.name = None
    grouped = runs.groupby(by)
    table = counts.assign(par2_s=grouped["_par2"].mean(), median_s=grouped["_solved_s"].median())
    table.insert(0, "runs", grouped.size())
    return ranked(table)


def seed_spread(runs: pd.DataFrame, by: str = "config") -> pd.DataFrame:
    """Per config: how many seeds, and the min, median and max over seeds of solved count and PAR-2.

    Each seed's solved count and mean PAR-2 are over that seed's runs (`par2` scores them);
    with one seed the three agree. `runs` must carry the `by` column.
    """
    columns = ["seeds", "solved_min", "solved_median", "solved_max",
               "par2_min_s", "par2_median_s", "par2_max_s"]
    if runs.empty:
        return pd.DataFrame(columns=columns)
    scored = runs.assign(_solved=solved_mask(runs).astype(int), _par2=par2(runs))
    per_seed = scored.groupby([by, "seed"]).agg(solved=("_solved", "sum"), par2=("_par2", "mean"))
    grouped = per_seed.groupby(level=0)
    out = pd.DataFrame({
        "seeds": grouped.size(),
        "solved_min": grouped["solved"].min(), "solved_median": grouped["solved"].median(),
        "solved_max": grouped["solved"].max(),
        "par2_min_s": grouped["par2"].min(), "par2_median_s": grouped["par2"].median(),
        "par2_max_s": grouped["par2"].max(),
    })
    out.index.name = by
    return out[columns]
