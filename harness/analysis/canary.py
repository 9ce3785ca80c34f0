"""The machine canary's readings taken during the runs a table shows, said in one phrase of its stamp.

`harness.run.canary` times one fixed workload when each batch of a sweep starts, between runs and
when it ends. A table's runs are matched to the readings their batches took (by `sweep_id`) and to
those `python -m harness.run.canary` took on their host between the first run's start and the last
run's end. The phrase gives the solver half's median CPU seconds with the range, and says so in
capitals when the slowest reading is more than `MOVED` times the fastest: the machine's CPU second
bought different amounts of work during the sweep, and its CPU times are not like for like.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pandas as pd

from harness.run.canary import WORKLOAD
from harness.schema import CANARY_COLUMNS, SCHEMA_VERSION, q
from harness.storefile import StoreError, reading

MOVED = 1.25  # slowest / fastest reading past which the stamp says the machine's speed moved


def read(db: str | Path) -> pd.DataFrame:
    """The database's canary readings of today's workload (empty when it has none)."""
    names = [n for n, _ in CANARY_COLUMNS]
    try:
        with reading(db, SCHEMA_VERSION) as conn:
            rows = conn.execute(f"SELECT {', '.join(map(q, names))} FROM canaries WHERE workload = ?",
                                (WORKLOAD,)).fetchall()
    except (StoreError, sqlite3.OperationalError):  # no canaries table: a sweep from before the canary
        return pd.DataFrame(columns=names)
    return pd.DataFrame(rows, columns=names)


def during(readings: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """The readings the runs' batches took, and the free-standing ones on their hosts while they ran."""
    if readings.empty or runs.empty:
        return readings.iloc[0:0]
    batches = set(runs["batch_id" if "batch_id" in runs else "sweep_id"].dropna())
    hosts = set(runs["host"].dropna()) if "host" in runs else set()
    start = runs["started_at"].dropna().min() if "started_at" in runs else None
    end = runs["finished_at"].dropna().max() if "finished_at" in runs else None
    mine = readings["sweep_id"].isin(batches)
    if isinstance(start, str) and isinstance(end, str):
        beside = (readings["sweep_id"].isna() & readings["host"].isin(hosts)
                  & (readings["at"] >= start) & (readings["at"] <= end))
        mine = mine | beside
    return readings[mine]


def phrase(readings: pd.DataFrame) -> str:
    """`canary 0.362 s (0.355-0.371, 14 readings)`, with the warning when it moved; "" without readings."""
    solver = pd.to_numeric(readings["solver_s"], errors="coerce").dropna()
    solver = solver[solver > 0]
    if solver.empty:
        return ""
    said = (f"canary {solver.median():.3g} s ({solver.min():.3g}-{solver.max():.3g}, "
            f"{len(solver)} reading{'s' if len(solver) != 1 else ''})")
    ratio = solver.max() / solver.min()
    if ratio > MOVED:
        said += (f", THE MACHINE'S SPEED MOVED {ratio:.2g}x DURING THE RUNS: their CPU times are not "
                 "like for like")
    return said


def note(db: str | Path, runs: pd.DataFrame) -> str:
    """The stamp's canary phrase for these runs of this database ("" when no reading matches)."""
    return phrase(during(read(db), runs))
