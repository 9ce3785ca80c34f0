"""Reading the results store with pandas, and writing its parquet snapshot safely."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from harness import kinds
from harness.analysis.verdicts import with_verdicts
from harness.schema import COLUMNS, DEFAULT_DB, RUN_COLUMNS, SCHEMA_VERSION
from harness.storefile import StoreError, missing_tables, reading

# Stable dtypes whatever the NULLs: nullable integers, floats with NaN.
DTYPES = {name: "Int64" if "INTEGER" in kind else "float64" for name, kind in RUN_COLUMNS
          if "INTEGER" in kind or "REAL" in kind}


def load(db: str | Path = DEFAULT_DB) -> pd.DataFrame:
    """Every run in the database as a DataFrame, one row per run, columns as in docs/FORMATS.md.

    A file of an older schema reads too (columns it lacks come back empty, a kind's own size
    columns filled from `rows` and `cols`: `with_size_columns`). One column is derived:
    `unsat_verdict`, each unsat claim judged against every run of the file (`analysis.verdicts`).
    """
    path = Path(db)
    if not path.is_file():
        raise FileNotFoundError(f"no results database at {path}")
    # Read-only, as such: a reader never creates, migrates or locks the coordinator's file, and reads
    # one in a read-only checkout (`storefile.reading`); StoreError for a newer schema, a damaged file.
    with reading(path, SCHEMA_VERSION) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        missing_tables(path, conn, version, ("runs",))
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'runs'").fetchone():
            runs = pd.DataFrame(columns=list(COLUMNS))  # a new, empty file
        else:
            cursor = conn.execute("SELECT * FROM runs ORDER BY started_at, run_key")
            # as pd.read_sql builds it, without its wrapping SQLite's errors in its own type
            runs = pd.DataFrame.from_records(cursor.fetchall(), columns=[d[0] for d in cursor.description],
                                             coerce_float=True)
    for name in COLUMNS:
        if name not in runs:
            runs[name] = None
    runs = runs.astype({name: kind for name, kind in DTYPES.items() if name in runs.columns})
    return with_verdicts(with_size_columns(runs))


def with_size_columns(runs: pd.DataFrame) -> pd.DataFrame:
    """Each kind's own size columns (`Kind.size_columns`: a graph's `vertices`, `edges`) filled from
    `rows` and `cols` where they are empty: rows stored before those columns existed read alike."""
    for name, kind in kinds.kinds().items():
        if tuple(kind.size_columns) == ("rows", "cols"):
            continue
        mine = runs["puzzle"] == name
        for column, same in zip(kind.size_columns, ("rows", "cols"), strict=True):
            empty = mine & (runs[column].isna() if column in runs else True)
            runs.loc[empty, column] = runs.loc[empty, same]
    return runs


def latest(runs: pd.DataFrame) -> pd.DataFrame:
    """The runs of the newest code only: what summaries, plots and notebooks show unless asked otherwise.

    Per encoding and options, only the runs with the code version of the most recent run (the
    encoding's fingerprint and the harness fingerprint: `code_version`; rows from before either
    count as older versions); and per run identity (puzzle, encoding, options, seed, limits, code),
    only the newest row, so a `--rerun` replaces what it ran again.
    """
    if runs.empty:
        return runs
    when = runs["finished_at"].fillna(runs["started_at"]).fillna("")
    code = code_version(runs)
    ordered = runs.assign(_when=when, _code=code).sort_values("_when", kind="stable")
    newest = ordered.groupby(["encoding", "options"], dropna=False)["_code"].transform("last")
    kept = ordered[ordered["_code"] == newest]
    identity = ["instance_sha256", "encoding", "options", "seed", "time_limit_s", "memory_limit_mb", "_code"]
    kept = kept.drop_duplicates(subset=identity, keep="last")
    return runs[runs.index.isin(kept.index)]


def code_version(runs: pd.DataFrame) -> pd.Series:
    """Each run's code version: its encoding fingerprint and harness fingerprint ("" for a missing one)."""
    def column(name: str) -> pd.Series:
        return runs[name].astype(object).fillna("") if name in runs else pd.Series("", index=runs.index)

    return column("fingerprint").astype(str) + "/" + column("harness_fingerprint").astype(str)


def snapshot_path(db: str | Path) -> Path:
    """Where the parquet snapshot of a database lives: beside it, same stem."""
    return Path(db).with_suffix(".parquet")


def write_snapshot(db: str | Path, path: str | Path | None = None) -> Path:
    """Write the runs to parquet through a temporary file renamed into place (a reader never sees half)."""
    target = Path(path) if path is not None else snapshot_path(db)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        load(db).to_parquet(temporary, index=False)
        os.replace(temporary, target)
    except OSError as exc:  # a full disk, a read-only folder: the runs are in the database all the same
        raise StoreError(f"{target}: cannot write the parquet snapshot ({exc}): free space or make the "
                         f"folder writable; the runs are stored in {db}, and the same sweep command "
                         "writes it again") from None
    finally:
        temporary.unlink(missing_ok=True)
    return target
