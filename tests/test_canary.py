"""The machine canary: the same work each time, stored beside the runs, matched to them, in the stamp."""

from __future__ import annotations

import sqlite3

import pandas as pd
import pytest

from harness.analysis import canary as readings_of
from harness.run import canary
from harness.run.store import Store
from harness.schema import SCHEMA_VERSION


def test_each_reading_does_the_same_work_and_times_it_in_cpu_seconds():
    first, second = canary.measure(), canary.measure()
    assert first["work"] == second["work"]  # fixed by the seeds: the same conflicts, the same vertices
    assert first["work"].startswith("20001 conflicts")  # the budget was spent: the formula is not trivial
    for reading in (first, second):
        assert 0 < reading["solver_s"] < 30 and 0 < reading["python_s"] < 30
        assert reading["workload"] == canary.WORKLOAD


def _reading(at: str, solver_s: float, host: str = "vm") -> dict:
    return {"at": at, "host": host, "workload": canary.WORKLOAD, "solver_s": solver_s, "python_s": 0.1,
            "work": "w"}


def test_a_reading_is_a_row_of_its_own_table_and_leaves_the_schema_version_alone(tmp_path):
    db = tmp_path / "runs.sqlite"
    Store(db).close()
    canary.record(db, _reading("2026-12-02T07:00:00.000+00:00", 0.4), "sweep-1")
    canary.record(db, {**_reading("2026-12-02T07:10:00.000+00:00", 0.5), "workload": "other work"})
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    Store(db).close()  # the store opens the file with the extra table as before
    stored = readings_of.read(db)
    assert list(stored["solver_s"]) == [0.4]  # a reading of other work is not compared with today's
    assert list(stored["sweep_id"]) == ["sweep-1"]


def test_a_database_without_the_table_has_no_readings(tmp_path):
    db = tmp_path / "runs.sqlite"
    Store(db).close()
    assert readings_of.read(db).empty
    assert readings_of.note(db, pd.DataFrame({"sweep_id": ["s"]})) == ""


def _runs() -> pd.DataFrame:
    return pd.DataFrame({"batch_id": ["b1", "b1"], "sweep_id": ["b1", "b1"], "host": ["vm", "vm"],
                         "started_at": ["2026-12-02T07:00:00+00:00", "2026-12-02T07:05:00+00:00"],
                         "finished_at": ["2026-12-02T07:01:00+00:00", "2026-12-02T08:00:00+00:00"]})


def test_the_runs_readings_are_their_batches_and_the_free_ones_on_their_host_while_they_ran():
    readings = pd.DataFrame([
        {**_reading("2026-12-02T06:00:00+00:00", 1.0), "sweep_id": "b1"},  # taken by the batch: kept
        {**_reading("2026-12-02T07:30:00+00:00", 2.0), "sweep_id": None},  # beside it, same host: kept
        {**_reading("2026-12-02T07:30:00+00:00", 3.0, host="other"), "sweep_id": None},  # another host
        {**_reading("2026-12-02T09:00:00+00:00", 4.0), "sweep_id": None},  # after the last run ended
        {**_reading("2026-12-02T07:30:00+00:00", 5.0), "sweep_id": "b2"},  # another batch's
    ])
    assert sorted(readings_of.during(readings, _runs())["solver_s"]) == [1.0, 2.0]


def test_the_stamp_says_the_median_and_range_and_shouts_when_the_speed_moved():
    steady = pd.DataFrame({"solver_s": [0.36, 0.37, 0.40]})
    assert readings_of.phrase(steady) == "canary 0.37 s (0.36-0.4, 3 readings)"
    moved = pd.DataFrame({"solver_s": [0.36, 0.37, 0.95]})
    said = readings_of.phrase(moved)
    assert said.startswith("canary 0.37 s (0.36-0.95, 3 readings), THE MACHINE'S SPEED MOVED 2.6x")
    assert readings_of.phrase(pd.DataFrame({"solver_s": []})) == ""


def test_a_sweep_reads_at_start_each_interval_and_end_and_not_at_all_when_told_not_to(tmp_path, monkeypatch):
    clock = iter(range(0, 10_000, 100))  # each reading and tick 100 s after the last
    monkeypatch.setattr(canary.time, "monotonic", lambda: next(clock))
    taken: list[str] = []
    monkeypatch.setattr(canary, "record", lambda db, reading, sweep_id: taken.append(sweep_id))
    monkeypatch.setattr(canary, "measure", lambda: {})
    every = canary.Readings(tmp_path / "db", "s", every=250)
    every.take()  # t=0
    for _ in range(5):  # ticks at t=100, 200, 300 (a reading: 250 s past the last), 500, 600
        every.tick()
    assert taken == ["s", "s"]
    taken.clear()
    never = canary.Readings(tmp_path / "db", "s", every=0)
    never.take()
    never.tick()
    assert taken == []


def test_a_database_that_will_not_take_a_reading_costs_a_warning_not_the_sweep(tmp_path, capsys):
    folder = tmp_path / "not-a-db"
    folder.mkdir()
    readings = canary.Readings(folder, "s", every=1)  # a folder: sqlite cannot open it
    readings.take()
    readings.take()
    said = capsys.readouterr().err
    assert said.count("the canary's reading is not stored") == 1 and readings.every == 0


def test_the_interval_comes_from_the_environment_and_a_bad_one_is_one_line(monkeypatch):
    monkeypatch.setenv(canary.EVERY_ENV, "90")
    assert canary.default_every() == 90
    monkeypatch.delenv(canary.EVERY_ENV)
    assert canary.default_every() == canary.DEFAULT_EVERY_S
    monkeypatch.setenv(canary.EVERY_ENV, "often")
    with pytest.raises(ValueError, match="LOOPBENCH_CANARY_EVERY='often'"):
        canary.default_every()


def test_a_real_sweep_reads_the_canary_and_its_table_says_so(tmp_path):
    from harness import sets
    from harness.analysis import tables
    from harness.run import sweep

    db = tmp_path / "runs.sqlite"
    instances = sets.resolve("masyu-default")[:2]
    sweep.run(sweep.Sweep(instances=instances, encodings=["lazy"], time_s=20, db=db, canary_every=600),
              progress=False)
    stored = readings_of.read(db)
    with sqlite3.connect(db) as conn:
        batch = conn.execute("SELECT sweep_id FROM sweeps").fetchone()[0]
    assert list(stored["sweep_id"]) == [batch, batch]  # at the start and at the end
    said = tables.make(["--db", str(db)], root=tmp_path.parent)
    assert ", canary " in said and "2 readings" in said
