"""The results store: one SQLite file in WAL mode, one row per run, written by the coordinator alone.

Every finished run is its own transaction (`INSERT … ON CONFLICT DO NOTHING` on `run_key`), so a
sweep killed with SIGKILL loses only the runs in flight and the same command resumes it. Columns
follow the database contract in FORMATS.md; keys a row carries beyond them go into `extra`. What
makes a file unusable (damaged, newer, without its runs, unwritable, a full disk) is a one-line
StoreError (`harness.storefile`), found before the file is changed.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from harness.extra import merge_extra
from harness.schema import (
    ADD_COLUMN,
    COLUMNS,
    MIGRATIONS,
    RUN_COLUMNS,
    SCHEMA_VERSION,
    STATUSES,
    SWEEP_COLUMNS,
    q,
)
from harness.storefile import StoreError, explain, missing_tables, refuse_newer


class Store:
    """The coordinator's handle on the database: create or migrate it, record sweeps and runs."""

    def __init__(self, path: str | Path) -> None:
        """Open (or create) and migrate the database; StoreError (`harness.storefile`), one line naming the
        file and what to do, for a damaged file, a newer schema, missing tables, a folder or disk that
        cannot be written. What is wrong is found before anything is written: such a file is left as it
        was."""
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot make its folder ({exc.strerror}): give a --db in a folder "
                             "you can write") from None
        # check_same_thread=False: the coordinator may hand the store to its result thread; it is
        # still one writer, used from one thread at a time.
        with self._said():  # a file that cannot be made (a read-only folder) fails here
            self.conn = sqlite3.connect(self.path, timeout=60, check_same_thread=False)
        try:
            with self._said():
                version = self.conn.execute("PRAGMA user_version").fetchone()[0]  # a damaged file fails here
                refuse_newer(self.path, version, SCHEMA_VERSION)
                missing_tables(self.path, self.conn, version, ("runs",))  # the runs are the data
                self.conn.execute("PRAGMA journal_mode=WAL")
                # NORMAL in WAL mode: a power cut may lose the last commits, never corrupt the file.
                self.conn.execute("PRAGMA synchronous=NORMAL")
                self._migrate(version)
        except StoreError:
            self.conn.close()
            raise

    @contextmanager
    def _said(self) -> Iterator[None]:
        """SQLite's errors as one StoreError line that names the file and what to do."""
        try:
            yield
        except sqlite3.Error as exc:
            raise explain(self.path, exc) from None

    def _migrate(self, version: int) -> None:
        for target in range(version + 1, SCHEMA_VERSION + 1):
            with self.conn:
                for statement in MIGRATIONS.get(target, []):
                    added = ADD_COLUMN.match(statement)
                    if added and added[2] in self._columns(added[1]):
                        continue  # created with the table, or added by another version's migration
                    self.conn.execute(statement)
                self.conn.execute(f"PRAGMA user_version = {target}")
        with self.conn:  # a column of today that no migration added (versions merged out of order)
            # the sweep log alone gone (a file made by hand): made again, empty, as a new file has it
            sweeps = ", ".join(f"{q(n)} {t}" for n, t in SWEEP_COLUMNS)
            self.conn.execute(f"CREATE TABLE IF NOT EXISTS sweeps ({sweeps})")
            have = self._columns("runs")
            for name, kind in RUN_COLUMNS:
                if name not in have:
                    self.conn.execute(f"ALTER TABLE runs ADD COLUMN {q(name)} {kind}")

    def _columns(self, table: str) -> set[str]:
        return {row[1] for row in self.conn.execute(f"PRAGMA table_info({q(table)})")}

    def done_keys(self) -> set[str]:
        with self._said():
            return {key for (key,) in self.conn.execute("SELECT run_key FROM runs")}

    def insert(self, row: dict[str, Any]) -> bool:
        """Record one finished run in its own transaction; False if its run_key was already there."""
        record = as_record(row)
        names = ", ".join(map(q, record))
        marks = ", ".join("?" for _ in record)
        with self._said(), self.conn:  # a full disk: this run is not stored, those before it are
            cursor = self.conn.execute(
                f"INSERT INTO runs ({names}) VALUES ({marks}) ON CONFLICT(run_key) DO NOTHING",
                tuple(record.values()),
            )
        return cursor.rowcount == 1

    def begin_sweep(self, sweep: dict[str, Any]) -> None:
        self._write_sweep(sweep, "INSERT INTO sweeps")

    def end_sweep(self, sweep: dict[str, Any]) -> None:
        self._write_sweep(sweep, "INSERT OR REPLACE INTO sweeps")

    def _write_sweep(self, sweep: dict[str, Any], verb: str) -> None:
        names = [n for n, _ in SWEEP_COLUMNS if n in sweep]
        values = [json.dumps(sweep[n]) if isinstance(sweep[n], (dict, list)) else sweep[n] for n in names]
        with self._said(), self.conn:
            self.conn.execute(
                f"{verb} ({', '.join(map(q, names))}) VALUES ({', '.join('?' for _ in names)})", values
            )

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def as_record(row: dict[str, Any]) -> dict[str, Any]:
    """The row restricted to the table's columns; other keys are merged into the `extra` JSON."""
    if row.get("status") not in STATUSES:
        raise ValueError(f"run {row.get('run_key')}: status {row.get('status')!r} is not one of {STATUSES}")
    record = {name: row[name] for name in COLUMNS if name in row and name != "extra"}
    record["solution"] = record.get("solution") or ""  # FORMATS.md: the string, or empty
    record["detail"] = record.get("detail") or ""
    record["extra"] = merge_extra(row.get("extra"), {k: v for k, v in row.items() if k not in COLUMNS})
    return record
