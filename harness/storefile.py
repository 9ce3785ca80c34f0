"""Opening a results database: what is wrong with it said in one line, and reading where it cannot be written.

A damaged file, one of a newer schema, one without its tables, a read-only folder and a full disk
each raise StoreError, whose text names the file and what to do; every command that opens a
database prints it as its one line and exits 2. `reading` opens a database for a reader
(`harness.analysis.results`, the plots' sweep specs, a run's steps) read-only and as such: with
`mode=ro` where SQLite may make its `-shm` file beside it; where the folder cannot be written (a
read-only checkout of results/: every committed database is in WAL mode, and `mode=ro` needs the
`-shm`), nobody can be writing it, so it is opened `immutable=1`, or, when a `-wal` file holds
transactions not yet checkpointed into it, from a private copy of the two. This module knows no
schema: callers pass the version they know.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MOVE_ASIDE = "move it aside (the same command then starts a new one) or give another --db"


class StoreError(Exception):
    """A results database that cannot be used as asked: str() is one line naming the file and what to do."""


def explain(path: str | Path, exc: sqlite3.Error) -> StoreError:
    """SQLite's complaint about `path` as a StoreError that says what to do about it."""
    said = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    low = said.lower()
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return StoreError(f"{path}: not a results database, or a damaged one (SQLite: {said}): {MOVE_ASIDE}")
    if "full" in low or "disk i/o" in low:
        return StoreError(f"{path}: cannot be written (SQLite: {said}; the disk is full, or a file-size "
                          "limit was reached): free space or give a --db elsewhere; the runs stored so far "
                          "are kept, and the same command resumes")
    if "readonly" in low or "read-only" in low or "unable to open" in low or "permission" in low:
        return StoreError(f"{path}: cannot be written here (SQLite: {said}; the file or its folder is "
                          "read-only): give a --db in a folder you can write, or make it writable")
    if "locked" in low or "busy" in low:
        return StoreError(f"{path}: locked by another process for over a minute (SQLite: {said}): wait for "
                          "it to finish, or give another --db")
    return StoreError(f"{path}: SQLite: {said}")


def refuse_newer(path: str | Path, version: int, known: int) -> None:
    """StoreError where the file's schema (`PRAGMA user_version`) is newer than this code knows."""
    if version > known:
        raise StoreError(f"{path}: schema version {version}, and this loopbench knows up to {known}: use the "
                         "newer loopbench that wrote it, or give another --db")


def missing_tables(path: str | Path, conn: sqlite3.Connection, version: int, tables: tuple[str, ...]) -> None:
    """StoreError where a file that says it has a schema (version >= 1) lacks one of `tables`."""
    have = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    gone = [t for t in tables if t not in have]
    if version >= 1 and gone:
        raise StoreError(f"{path}: schema version {version}, but no table {', '.join(gone)}: not a results "
                         f"database, or a damaged one: {MOVE_ASIDE}")


@contextmanager
def reading(path: str | Path, known: int) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the database at `path` (see the module docstring), closed on leaving;
    StoreError for a file of a schema newer than `known` and for any SQLite error while it is open."""
    path = Path(path)
    copy: str | None = None
    conn: sqlite3.Connection | None = None
    try:
        try:
            conn = _connect(f"{path.resolve().as_uri()}?mode=ro")
        except sqlite3.OperationalError:
            if os.access(path.parent, os.W_OK):
                raise  # not the folder: say what SQLite says
            wal = path.with_name(path.name + "-wal")
            if wal.is_file() and wal.stat().st_size:  # commits still in the WAL: read them from a copy
                copy = tempfile.mkdtemp(prefix="loopbench-read-")
                for one in (path, wal):
                    shutil.copyfile(one, Path(copy) / one.name)
                conn = _connect(f"{(Path(copy) / path.name).as_uri()}?mode=ro")
            else:
                conn = _connect(f"{path.resolve().as_uri()}?immutable=1")
        refuse_newer(path, conn.execute("PRAGMA user_version").fetchone()[0], known)
        yield conn
    except sqlite3.Error as exc:
        raise explain(path, exc) from None
    finally:
        if conn is not None:
            conn.close()
        if copy is not None:
            shutil.rmtree(copy, ignore_errors=True)


def _connect(uri: str) -> sqlite3.Connection:
    """A connection that has read the schema (so a file SQLite cannot open or read fails here)."""
    conn = sqlite3.connect(uri, uri=True)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error:
        conn.close()
        raise
    return conn
