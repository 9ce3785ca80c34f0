"""The store: schema and version, one row per run_key, extra JSON, pandas loading and the parquet snapshot."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from harness.analysis import results
from harness.run.store import Store
from harness.schema import COLUMNS, SCHEMA_VERSION, q
from harness.storefile import StoreError

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
    with pytest.raises(StoreError, match="schema version"):
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


# --- a store that says what is wrong -----------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "results" / "graph" / "frontier.sqlite"  # committed in WAL mode, two configs
PAIR = ("frontier[order=greedy]", "frontier[order=rcm]")


def unusable(path: Path, case: str) -> None:
    """A database file that cannot be used: damaged, of a newer schema, or without its runs table."""
    if case == "damaged":
        path.write_bytes(b"SQLite format 3\0" + bytes(range(256)) * 16)
        return
    with sqlite3.connect(path) as conn:
        if case == "newer":
            conn.execute("CREATE TABLE runs (run_key TEXT PRIMARY KEY)")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        else:  # missing tables: says version 5, holds only the sweeps table
            conn.execute("CREATE TABLE sweeps (sweep_id TEXT PRIMARY KEY)")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    conn.close()


WORDS = {"damaged": "not a results database, or a damaged one",
         "newer": f"schema version {SCHEMA_VERSION + 1}", "missing": "no table runs"}


@pytest.mark.parametrize("case", list(WORDS))
def test_an_unusable_database_is_one_line_naming_it_and_what_to_do_exit_2_and_left_as_it_was(tmp_path, capsys,
                                                                                              case):
    from helpers import write_instances

    from harness.compare import main as compare
    from harness.report.__main__ import main as report
    from harness.run.cli import main as run

    db = tmp_path / "runs.sqlite"
    unusable(db, case)
    before = db.read_bytes()
    folder = write_instances(tmp_path / "set", [(2, 2)])
    sweep = ["--encoding", "dummy", "--instances", str(folder), "--db", str(db)]
    commands = {"harness.run": lambda: run(sweep),
                "harness.report": lambda: report(["--db", str(db), "--out", str(tmp_path / "out")]),
                "harness.compare": lambda: compare(["--db", str(db), *PAIR])}
    for name, command in commands.items():
        code = command()
        err = capsys.readouterr().err
        assert code == 2, (name, err)
        assert err.count("\n") == 1 and str(db) in err and WORDS[case] in err and "Traceback" not in err, name
        assert ("give another --db" in err or "newer loopbench" in err), name  # what to do
        assert db.read_bytes() == before, name  # nothing changed
        left = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("runs"))
        assert left == ["runs.sqlite"], name
    with pytest.raises(StoreError):
        results.load(db)


def bound_by_permissions() -> None:
    """In a child about to run a command: where it is root, drop the capabilities that let root write a
    chmod'd folder all the same (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH: prctl PR_CAPBSET_DROP, so the
    command exec'd next has neither). Elsewhere the permissions bind as they are."""
    if os.geteuid() == 0:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
            if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@pytest.fixture
def shared_dir(tmp_path):
    """tmp_path, made writable again afterwards (the tests chmod folders in it read-only)."""
    yield tmp_path
    for path in [tmp_path, *tmp_path.rglob("*")]:
        path.chmod(0o777 if path.is_dir() else 0o666)


def command(args: list[str], folder: Path, preexec=bound_by_permissions) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "MPLCONFIGDIR": str(folder / "mpl")}
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300, preexec_fn=preexec)


def test_a_read_only_checkout_of_a_committed_wal_database_is_reported_and_compared(shared_dir):
    checkout = shared_dir / "results"
    checkout.mkdir()
    db = checkout / COMMITTED.name
    shutil.copyfile(COMMITTED, db)
    with open(db, "rb") as handle:
        assert handle.read(20)[18:20] == b"\2\2"  # WAL mode: `mode=ro` alone needs to make a -shm beside it
    db.chmod(0o444)
    checkout.chmod(0o555)
    out = shared_dir / "out"
    out.mkdir(mode=0o777)
    (shared_dir / "mpl").mkdir(mode=0o777)
    before = db.read_bytes()
    done = command(["harness.compare", "--db", str(db), *PAIR], shared_dir)
    assert done.returncode == 0, done.stderr
    assert " faster than " in done.stdout or "no clear winner" in done.stdout  # the comparison was made
    done = command(["harness.report", "--db", str(db), "--out", str(out), "--draw", "0"], shared_dir)
    assert done.returncode == 0, done.stderr
    assert "frontier[order=rcm]" in (out / "index.html").read_text()
    assert db.read_bytes() == before and sorted(p.name for p in checkout.iterdir()) == [db.name]


def test_commits_still_in_the_wal_of_a_read_only_folder_are_read_from_a_copy(shared_dir):
    db = shared_dir / "runs.sqlite"
    with Store(db) as store:
        store.insert(row(key="checkpointed"))
    keeper = sqlite3.connect(db)  # holds the WAL open: the next commit stays in it, not checkpointed
    keeper.execute("SELECT count(*) FROM runs").fetchone()
    with Store(db) as store:
        store.insert(row(key="in-the-wal"))
    shutil.copytree(shared_dir, shared_dir / "copy", ignore=shutil.ignore_patterns("copy"))
    keeper.close()
    copy = shared_dir / "copy"
    assert (copy / "runs.sqlite-wal").stat().st_size > 0
    for path in copy.iterdir():
        path.chmod(0o444)
    copy.chmod(0o555)
    script = ("import sys; from harness.analysis import results; "
              "print(sorted(results.load(sys.argv[1])['run_key']))")
    done = subprocess.run([sys.executable, "-c", script, str(copy / "runs.sqlite")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, preexec_fn=bound_by_permissions)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['checkpointed', 'in-the-wal']"


def test_a_read_only_folder_refuses_the_writer_in_one_line(shared_dir):
    from helpers import write_instances

    folder = write_instances(shared_dir / "set", [(2, 2)])
    locked = shared_dir / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    done = command(["harness.run", "--encoding", "dummy", "--instances", str(folder), "--db",
                    str(locked / "runs.sqlite")], shared_dir)
    assert done.returncode == 2, done.stderr
    err = done.stderr.strip()
    assert err.count("\n") == 0 and str(locked / "runs.sqlite") in err and "read-only" in err
    assert "give a --db in a folder you can write" in err and list(locked.iterdir()) == []


def test_a_full_disk_mid_sweep_is_one_line_keeps_what_was_stored_and_the_same_command_resumes(tmp_path):
    """Disk full as a file-size limit (RLIMIT_FSIZE, with SIGXFSZ ignored so a write fails instead of
    killing): it needs no root and no mount, and SQLite meets it as a failed write, as on a full disk."""
    from helpers import write_instances

    folder = write_instances(tmp_path / "set", [(2, 2), (2, 3), (3, 3), (3, 4)])
    db = tmp_path / "runs.sqlite"
    argv = ["harness.run", "--encoding", "dummy", "--seed", *map(str, range(10)), "--instances", str(folder),
            "--db", str(db)]
    with Store(db):
        pass  # made at its full size of pages beforehand: what grows past the limit is the WAL

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (48 << 10, 48 << 10))

    done = command(argv, tmp_path, preexec=small_disk)
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if "error" in line]
    assert len(errors) == 1 and str(db) in errors[0] and "disk is full" in errors[0], done.stderr
    assert "the same command resumes" in errors[0] and "Traceback" not in done.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        kept = conn.execute("SELECT count(*) FROM runs").fetchone()[0]
    conn.close()
    assert 0 < kept < 40
    done = command(argv, tmp_path, preexec=None)
    assert done.returncode == 0, done.stderr
    assert f"40 runs planned, {kept} already stored, {40 - kept} recorded" in done.stdout
