"""Runs in results/'s databases that the worker's old CPU backstop (RLIMIT_CPU, SIGXCPU) ended, and how
many of them before their CPU limit by the run's own clock (getrusage), per database.

    python results/backstop_kills.py   # a markdown table, the databases with such runs

Before 2026-12-07 the worker set RLIMIT_CPU to its getrusage total + the part's limit + 1 s; the kernel
reads that limit on another clock (ITIMER_PROF's), which drifts from getrusage where a core is shared, so
some runs were ended before their limit. Their rows say `killed by SIGXCPU (the worker's CPU-time
backstop)`; `cpu_s` is the run's CPU by getrusage. Those are `timeout` rows that might have been solved.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pandas as pd

from harness.analysis.plots.data import markdown


def kills(db: Path) -> dict | None:
    """The database's backstop kills: how many, how many before the limit (`cpu_s`, which counts from
    the run's start, below `time_limit_s`), the least share of its limit one used."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
        try:
            rows = pd.read_sql("select cpu_s, time_limit_s from runs where detail like '%SIGXCPU%'", con)
            runs = con.execute("select count(*) from runs").fetchone()[0]
        except pd.errors.DatabaseError:
            return None  # not a runs database
    if rows.empty:
        return None
    share = rows.cpu_s / rows.time_limit_s
    return {"database": str(db), "runs": runs, "backstop kills": len(rows),
            "before the limit": int((share < 1).sum()), "least share": round(share.min(), 2)}


if __name__ == "__main__":
    found = [k for db in sorted(Path("results").glob("*/*.sqlite")) if (k := kills(db))]
    frame = pd.DataFrame(found).sort_values("before the limit", ascending=False)
    total = frame.sum(numeric_only=True)
    print(markdown(frame.set_index("database")), end="")
    print(f"\nIn all: {int(total['backstop kills'])} backstop kills in {len(frame)} databases, "
          f"{int(total['before the limit'])} before their limit.")
