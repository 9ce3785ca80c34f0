"""The store: schema and version, one row per run_key, extra JSON, pandas loading and the parquet snapshot."""

from __future__ import annotations

import json
import sqlite3

import pandas as pd
import pytest

from harness.analysis import results
from harness.run.store import Store
from harness.schema import COLUMNS, SCHEMA_VERSION, q

# The database contract of FORMATS.md, plus the limits summary.py reads: these names must not drift.
CONTRACT = [
    "run_key", "instance", "source", "puzzle", "rows", "cols", "encoding", "options", "seed",
    "status", "solution", "verified", "detail", "solve_s", "build_s", "wall_s", "cpu_s", "peak_rss_mb",
    "iterations", "cuts", "conflicts", "host", "started_at", "time_limit_s", "memory_limit_mb",
    "matches_known", "extra", "commit", "dirty", "finished_at", "fingerprint",
]


def row(key="k1", status="solved", **more):
    return {"run_key": key, "instance": "janko001", "source": "x.txt", "puzzle": "masyu", "rows": 6,
            "cols": 6, "encoding": "dummy", "options": "{}", "seed": 0, "status": status,
            "solution": "9c/36", "verified": 1, "solve_s": 0.01, "time_limit_s": 60.0,
            "memory_limit_mb": 4096, "started_at": "2026-01-01T00:00:00.000+00:00", **more}


def test_a_new_database_has_the_schema_in_wal_mode(tmp_path):
    db = tmp_path / "sub" / "runs.sqlite"
    Store(db).close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        columns = [r[1] for r in conn.execute("PRAGMA table_info(runs)")]
        assert {r[1] for r in conn.execute("PRAGMA table_info(sweeps)")} >= {"sweep_id", "config"}
    assert columns == list(COLUMNS)
    assert set(CONTRACT) <= set(columns)


def test_a_run_key_is_stored_once(tmp_path):
    with Store(tmp_path / "runs.sqlite") as store:
        assert store.insert(row())
        assert not store.insert(row(status="crash"))
        assert store.done_keys() == {"k1"}
    runs = results.load(tmp_path / "runs.sqlite")
    assert list(runs["status"]) == ["solved"]


def test_unknown_keys_go_to_extra_and_bad_statuses_are_refused(tmp_path):
    with Store(tmp_path / "runs.sqlite") as store:
        store.insert(row(extra=json.dumps({"deterministic_time": 1.5}), late_status="solved"))
        with pytest.raises(ValueError, match="status"):
            store.insert(row(key="k2", status="TIMEOUT_CPU"))
    (extra,) = results.load(tmp_path / "runs.sqlite")["extra"]
    assert json.loads(extra) == {"deterministic_time": 1.5, "late_status": "solved"}


def test_load_returns_the_contract_columns_with_stable_dtypes(tmp_path):
    db = tmp_path / "runs.sqlite"
    with Store(db) as store:
        store.insert(row())
        store.insert(row(key="k2", status="timeout", solution=None, verified=None))
    runs = results.load(db)
    assert set(CONTRACT) <= set(runs.columns)
    assert str(runs["verified"].dtype) == "Int64" and runs["solve_s"].dtype == "float64"
    assert list(runs["solution"]) == ["9c/36", ""]  # empty, never NULL


def test_load_of_an_empty_database_and_of_no_file(tmp_path):
    Store(tmp_path / "runs.sqlite").close()
    assert results.load(tmp_path / "runs.sqlite").empty
    with pytest.raises(FileNotFoundError):
        results.load(tmp_path / "missing.sqlite")
    assert not (tmp_path / "missing.sqlite").exists()


def test_a_newer_schema_is_refused(tmp_path):
    db = tmp_path / "runs.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(RuntimeError, match="schema version"):
        Store(db)


def old_database(path, version: int, extra_columns: tuple[str, ...] = ()) -> None:
    """A file as an older loopbench wrote it: the columns of version 1 (+ `extra_columns`), and a run."""
    from harness.schema import RUN_COLUMNS_V1, SWEEP_COLUMNS_V1

    columns = list(RUN_COLUMNS_V1) + [(c, "INTEGER") for c in extra_columns]
    with sqlite3.connect(path) as conn:
        conn.execute(f"CREATE TABLE runs ({', '.join(f'{q(n)} {t}' for n, t in columns)})")
        conn.execute(f"CREATE TABLE sweeps ({', '.join(f'{q(n)} {t}' for n, t in SWEEP_COLUMNS_V1)})")
        conn.execute("INSERT INTO runs (run_key, status) VALUES ('old', 'solved')")
        conn.execute(f"PRAGMA user_version = {version}")


@pytest.mark.parametrize(("version", "extra"), [(1, ()), (2, ("unique",))], ids=["v1", "v2-with-unique"])
def test_an_older_file_is_migrated_in_place_and_keeps_its_rows(tmp_path, version, extra):
    db = tmp_path / "runs.sqlite"
    old_database(db, version, extra)
    assert results.load(db)["fingerprint"].isna().all()  # a reader copes with the old columns
    with Store(db) as store:
        assert store.insert(row(key="new", fingerprint="abc"))
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        columns = [r[1] for r in conn.execute("PRAGMA table_info(runs)")]
    assert set(COLUMNS) | set(extra) == set(columns) and columns.count("fingerprint") == 1
    runs = results.load(db).set_index("run_key")
    assert runs.loc["new", "fingerprint"] == "abc" and pd.isna(runs.loc["old", "fingerprint"])
    Store(db).close()  # opening again migrates nothing twice


def test_the_parquet_snapshot_matches_the_database(tmp_path):
    db = tmp_path / "runs.sqlite"
    with Store(db) as store:
        store.insert(row())
    path = results.write_snapshot(db)
    assert path == tmp_path / "runs.parquet"
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []
    pd.testing.assert_frame_equal(pd.read_parquet(path), results.load(db), check_dtype=False)


def test_a_version_1_database_is_migrated_in_place(tmp_path):
    from harness.schema import MIGRATIONS, RUN_COLUMNS_V1

    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as conn:  # a database as version 1 left it, with one run
        for statement in MIGRATIONS[1]:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
        conn.execute("INSERT INTO runs (run_key, status) VALUES ('old', 'solved')")
    with Store(db) as store:
        assert store.insert(row(key="new", unique=0))
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        assert [r[1] for r in conn.execute("PRAGMA table_info(runs)")] == list(COLUMNS)
        assert "unsupported" in {r[1] for r in conn.execute("PRAGMA table_info(sweeps)")}
    assert COLUMNS[:len(RUN_COLUMNS_V1)] == tuple(n for n, _ in RUN_COLUMNS_V1)
    assert COLUMNS[len(RUN_COLUMNS_V1):] == ("unique", "fingerprint", "solve_cpu_s", "check_s", "unique_s",
                                            "harness_fingerprint", "vertices", "edges")
    runs = results.load(db).set_index("run_key")
    assert runs.loc["old", "unique"] is pd.NA and runs.loc["new", "unique"] == 0
    assert str(runs["unique"].dtype) == "Int64"
