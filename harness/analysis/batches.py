"""Batches of one sweep: the resumptions of one sweep command, each its own `sweep_id`, read as one sweep.

A long sweep is run in batches: interrupted and resumed with the same command, at the same commit,
on the same host; each resumption is a new row of the `sweeps` table (`harness.run.sweep`). Two
sweeps are batches of one when their plans are the same (the stored `config`: encodings, resolved
options, instances, seeds, limits, run order; without how the runs were executed, `EXECUTION`, so
that `--jobs 2` resumed as `--jobs 1`, or the database moved into the repository, is the same plan)
and so are their commit, dirty flag and host. Nothing else joins sweeps: another plan, commit or
host stays a sweep of its own, and a comparison across it is refused or marked (`tables.mixed`).
`with_batches` gives each run its sweep's first batch's id as `sweep_id` (the batch's own in `batch_id`).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pandas as pd

from harness.analysis.sweeps import sweep_ids

# how the runs were executed, not which
EXECUTION = ("executor", "jobs", "pin", "cores_per_run", "scheduler", "slurm")


def plan(config: object) -> str | None:
    """The sweep's plan as canonical JSON: its stored config without `EXECUTION`; None if unrecorded."""
    try:
        settings = json.loads(config) if isinstance(config, str) else None
    except json.JSONDecodeError:
        return None
    if not isinstance(settings, dict):
        return None
    return json.dumps({k: v for k, v in settings.items() if k not in EXECUTION}, sort_keys=True)


def read(db: str | Path) -> pd.DataFrame:
    """The database's `sweeps` table (read-only; empty when it has none)."""
    from harness.schema import SCHEMA_VERSION, q
    from harness.storefile import StoreError, reading

    columns = ["sweep_id", "started_at", "finished_at", "config", "commit", "dirty", "host", "planned"]
    try:
        with reading(db, SCHEMA_VERSION) as conn:
            rows = conn.execute(f"SELECT {', '.join(map(q, columns))} FROM sweeps").fetchall()
    except (StoreError, sqlite3.OperationalError):  # no sweeps table: no batches to join
        return pd.DataFrame(columns=columns)
    return pd.DataFrame(rows, columns=columns)


def groups(sweeps: pd.DataFrame) -> pd.Series:
    """Per sweep id, the id of the first batch (by start) of its sweep: the same plan, commit, dirty flag
    and host. A sweep without a recorded plan, commit or host is a sweep of its own."""
    out: dict[str, str] = {}
    first: dict[tuple, str] = {}
    for row in sweeps.sort_values(["started_at", "sweep_id"], kind="stable", na_position="last").itertuples():
        key = (plan(row.config), row.commit, None if pd.isna(row.dirty) else int(row.dirty), row.host)
        if key[0] is None or pd.isna(row.commit) or pd.isna(row.host):
            out[row.sweep_id] = row.sweep_id
            continue
        out[row.sweep_id] = first.setdefault(key, row.sweep_id)
    return pd.Series(out, dtype=object)


def with_batches(runs: pd.DataFrame, db: str | Path) -> pd.DataFrame:
    """The runs with `batch_id` (the sweep that ran each) and `sweep_id` the first batch of its sweep."""
    ids = sweep_ids(runs)
    first = groups(read(db))
    joined = ids.map(lambda s: first.get(s, s))
    if "sweep_id" not in runs:
        return runs
    return runs.assign(batch_id=runs["sweep_id"], sweep_id=joined.where(runs["sweep_id"].notna(), None))


def first_batch(runs: pd.DataFrame, sweep: str) -> str:
    """The sweep a `--sweep` names: a later batch's id names its sweep (the first batch's id)."""
    if "batch_id" not in runs:
        return sweep
    hits = runs.loc[runs["batch_id"] == sweep, "sweep_id"]
    return str(hits.iloc[0]) if len(hits) else sweep


def batch_count(runs: pd.DataFrame) -> int:
    """How many batches the runs come from (1 for runs without `batch_id`)."""
    if "batch_id" not in runs:
        return 1
    return max(1, int(runs["batch_id"].dropna().nunique()))
