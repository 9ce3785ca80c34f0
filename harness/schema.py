"""The results database's contract, a leaf the store and every reader share: tables, columns, versions, path.

Columns follow docs/FORMATS.md (keep the names exact); `harness.run.store` creates and migrates
the file with `MIGRATIONS`, `harness.analysis.results` reads it by `COLUMNS` and their types.
"""

from __future__ import annotations

import re
from pathlib import Path

from harness.outcomes import Status

DEFAULT_DB = Path("results/runs.sqlite")  # where the runs go and are read from unless told otherwise

SCHEMA_VERSION = 5

# (column, SQL type) as version 1 created them. FORMATS.md names the contract; keep names exact.
RUN_COLUMNS_V1: tuple[tuple[str, str], ...] = (
    ("run_key", "TEXT PRIMARY KEY"),
    ("sweep_id", "TEXT"),
    ("instance", "TEXT"),
    ("source", "TEXT"),
    ("instance_sha256", "TEXT"),
    ("puzzle", "TEXT"),
    ("rows", "INTEGER"),
    ("cols", "INTEGER"),
    ("encoding", "TEXT"),
    ("options", "TEXT"),
    ("seed", "INTEGER"),
    ("status", "TEXT NOT NULL"),
    ("solution", "TEXT"),
    ("verified", "INTEGER"),
    ("matches_known", "INTEGER"),
    ("detail", "TEXT"),
    ("solve_s", "REAL"),
    ("build_s", "REAL"),
    ("wall_s", "REAL"),
    ("cpu_s", "REAL"),
    ("peak_rss_mb", "REAL"),
    ("iterations", "INTEGER"),
    ("cuts", "INTEGER"),
    ("conflicts", "INTEGER"),
    ("time_limit_s", "REAL"),
    ("memory_limit_mb", "INTEGER"),
    ("python_version", "TEXT"),
    ("ortools_version", "TEXT"),
    ("pysat_version", "TEXT"),
    ("networkx_version", "TEXT"),
    ("commit", "TEXT"),
    ("dirty", "INTEGER"),
    ("host", "TEXT"),
    ("started_at", "TEXT"),
    ("finished_at", "TEXT"),
    ("extra", "TEXT"),
)
# Columns added by later versions (ALTER TABLE appends them, so they come last).
ADDED_RUN_COLUMNS: dict[int, tuple[tuple[str, str], ...]] = {
    2: (("unique", "INTEGER"),),  # 1 one solution, 0 a second exists, NULL not asked or no verdict
    3: (("fingerprint", "TEXT"),),  # of the encoding's code and solver versions (harness.fingerprint)
    4: (
        ("solve_cpu_s", "REAL"),  # CPU time of the encoding's own work: what the limit is judged on
        ("check_s", "REAL"),  # CPU time of the independent checker
        ("unique_s", "REAL"),  # CPU time of the uniqueness solve (NULL when not asked)
        ("harness_fingerprint", "TEXT"),  # of the runner, checker, uniqueness and measurement code
    ),
    # a kind's size in its own words (`Kind.size_columns`): a graph's, beside `rows` and `cols`,
    # which hold the same numbers for every kind; NULL for a grid kind and in rows from before
    5: (("vertices", "INTEGER"), ("edges", "INTEGER")),
}
ADDED_SWEEP_COLUMNS: dict[int, tuple[tuple[str, str], ...]] = {
    2: (("unsupported", "INTEGER"),),  # instance x encoding pairs left out: the encoding lacks the kind
}
RUN_COLUMNS = RUN_COLUMNS_V1 + tuple(c for v in sorted(ADDED_RUN_COLUMNS) for c in ADDED_RUN_COLUMNS[v])
COLUMNS = tuple(name for name, _ in RUN_COLUMNS)
STATUSES = tuple(Status)  # the `status` column's words (harness.outcomes)

SWEEP_COLUMNS_V1: tuple[tuple[str, str], ...] = (
    ("sweep_id", "TEXT PRIMARY KEY"),
    ("started_at", "TEXT"),
    ("finished_at", "TEXT"),
    ("argv", "TEXT"),
    ("config", "TEXT"),
    ("commit", "TEXT"),
    ("dirty", "INTEGER"),
    ("host", "TEXT"),
    ("planned", "INTEGER"),
    ("skipped", "INTEGER"),
    ("recorded", "INTEGER"),
    ("failed", "INTEGER"),
)
SWEEP_COLUMNS = SWEEP_COLUMNS_V1 + tuple(
    c for v in sorted(ADDED_SWEEP_COLUMNS) for c in ADDED_SWEEP_COLUMNS[v])

# The machine canary's readings (`harness.run.canary`): an additive table, made by its writer where
# missing and read where present, so it needs no schema version and older harnesses ignore it.
CANARY_COLUMNS: tuple[tuple[str, str], ...] = (
    ("at", "TEXT"),  # when the reading was taken (UTC, ISO 8601)
    ("host", "TEXT"),
    ("sweep_id", "TEXT"),  # the batch that took it; NULL for `python -m harness.run.canary`
    ("workload", "TEXT"),  # what was timed (`canary.WORKLOAD`): readings of other work do not compare
    ("solver_s", "REAL"),  # CPU seconds of the workload's solver half
    ("python_s", "REAL"),  # CPU seconds of its pure-Python half
    ("work", "TEXT"),  # the work done, fixed by the seeds: a check that it was the same work
)


def q(name: str) -> str:
    """A quoted identifier: `commit` (a column) is also an SQL keyword."""
    return f'"{name}"'


# Migrations from version N-1 to N, each a list of statements run in one transaction. Version 1
# creates the tables with every column of today; a later version adds its columns to older files
# (`ALTER TABLE … ADD COLUMN`, skipped where the column is there already), so versions apply in
# any order of merging and a version number with no entry here is simply passed.
MIGRATIONS: dict[int, list[str]] = {
    1: [
        f"CREATE TABLE IF NOT EXISTS runs ({', '.join(f'{q(n)} {t}' for n, t in RUN_COLUMNS_V1)})",
        f"CREATE TABLE IF NOT EXISTS sweeps ({', '.join(f'{q(n)} {t}' for n, t in SWEEP_COLUMNS_V1)})",
        "CREATE INDEX IF NOT EXISTS runs_by_encoding ON runs (encoding, status)",
    ],
    2: [f"ALTER TABLE runs ADD COLUMN {q(n)} {t}" for n, t in ADDED_RUN_COLUMNS[2]]
    + [f"ALTER TABLE sweeps ADD COLUMN {q(n)} {t}" for n, t in ADDED_SWEEP_COLUMNS[2]],
    3: [f"ALTER TABLE runs ADD COLUMN {q(n)} {t}" for n, t in ADDED_RUN_COLUMNS[3]],
    4: [f"ALTER TABLE runs ADD COLUMN {q(n)} {t}" for n, t in ADDED_RUN_COLUMNS[4]],
    5: [f"ALTER TABLE runs ADD COLUMN {q(n)} {t}" for n, t in ADDED_RUN_COLUMNS[5]],
}
ADD_COLUMN = re.compile(r'ALTER TABLE\s+"?(\w+)"?\s+ADD COLUMN\s+"?(\w+)"?', re.IGNORECASE)
