"""Batches of one sweep: the resumptions of one sweep command, each its own `sweep_id`, read as one sweep.

A long sweep is run in batches: interrupted and resumed with the same command, at the same commit,
on the same host; each resumption is a new row of the `sweeps` table (`harness.run.sweep`). Two
sweeps are batches of one when their plans are the same (the stored `config`: encodings, resolved
options, instances, seeds, limits, run order; without how the runs were executed, `EXECUTION`, so
that `--jobs 2` resumed as `--jobs 1`, or the database moved into the repository, is the same plan)
and so are their commit, dirty flag and host. A batch may also run part of the sweep's instances
(the same plan with fewer of them, in a shuffle of its own: a session that picks which graphs of a
long sweep it runs first); it joins the sweep whose instances hold its own, the first begun of them
where several do. Nothing else joins sweeps: another plan, commit or host stays a sweep of its own,
and a comparison across it is refused or marked (`tables.mixed`).
`with_batches` gives each run its sweep's first batch's id as `sweep_id` (the batch's own in `batch_id`).
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pandas as pd

from harness.analysis.sweeps import sweep_ids

# how the runs were executed, not which
EXECUTION = ("executor", "jobs", "pin", "cores_per_run", "scheduler", "slurm")


def _settings(config: object) -> dict | None:
    try:
        settings = json.loads(config) if isinstance(config, str) else None
    except json.JSONDecodeError:
        return None
    return settings if isinstance(settings, dict) else None


def plan(config: object) -> tuple[str, frozenset[str]] | None:
    """The sweep's plan, its stored config without `EXECUTION`, in two parts: all but its instances
    (canonical JSON), and its instances (paths normalised); None if unrecorded."""
    settings = _settings(config)
    if settings is None:
        return None
    rest = {k: v for k, v in settings.items() if k not in EXECUTION and k != "instances"}
    instances = settings.get("instances") or []
    return json.dumps(rest, sort_keys=True), frozenset(os.path.normpath(str(i)) for i in instances)


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
    """Per sweep id, the id of the first batch (by start) of its sweep: the same plan (or the same with
    part of its instances), commit, dirty flag and host. A sweep without a recorded plan, commit or host
    is a sweep of its own."""
    out: dict[str, str] = {}
    alike: dict[tuple, list[tuple[str, frozenset[str]]]] = {}  # plans that differ at most in instances
    for row in sweeps.sort_values(["started_at", "sweep_id"], kind="stable", na_position="last").itertuples():
        apart = plan(row.config)
        if apart is None or pd.isna(row.commit) or pd.isna(row.host):
            out[row.sweep_id] = row.sweep_id
            continue
        # a plan that records no instances joins only its like
        key = (apart[0], row.commit, None if pd.isna(row.dirty) else int(row.dirty), row.host, not apart[1])
        alike.setdefault(key, []).append((row.sweep_id, apart[1]))
    for started in alike.values():  # each in the order the batches began
        # a sweep's whole plan: the instances of a batch no other batch's instances strictly hold
        whole = [(sweep, held) for sweep, held in started if not any(held < other for _, other in started)]
        first: dict[str, str] = {}
        for sweep, held in started:
            root = next(r for r, whole_held in whole if held <= whole_held)
            out[sweep] = first.setdefault(root, sweep)
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
