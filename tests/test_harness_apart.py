"""The harness's work apart: proof checks and uniqueness solves measured alone, never costing an answer."""

from __future__ import annotations

import json

import pytest

from harness import kinds, registry
from harness.instances import Instance
from harness.run.memory import GUARD_ENV
from harness.run.supervise import Supervisor
from harness.run.sweep import Sweep, make_spec

# A black pearl in the middle of 3x3 needs two cells straight on each of its legs: no answer.
NO_ANSWER = "3 3\n- - -\n- b -\n- - -\n"


def seen(row):
    """The row with its `extra` JSON merged in, as the store would keep it."""
    return {**json.loads(row.get("extra") or "{}"), **row}


def spec(instance, encoding, options, time_s=10.0, memory_mb=400, unique=False, **sweep_fields):
    sweep = Sweep(instances=[instance], encodings=[encoding], time_s=time_s, memory_mb=memory_mb,
                  unique=unique, **sweep_fields)
    return make_spec(sweep, instance, encoding, registry.create(encoding, **options).options, 0)


@pytest.fixture(params=["auto", "rlimit"])
def guarded(request, monkeypatch):
    """A supervisor whose worker holds memory with a cgroup where one can be made (auto), or RLIMIT_DATA."""
    monkeypatch.setenv(GUARD_ENV, request.param)
    sup = Supervisor()
    yield sup
    sup.close()


def test_an_answer_is_kept_when_the_uniqueness_solve_runs_out_of_memory(guarded, empty_2x2):
    options = {"status": "sat", "solution": "9c/36", "again": "alloc", "megabytes": 0}
    row = seen(guarded.run(spec(empty_2x2, "dummy", options, time_s=30.0, unique=True)))
    assert (row["status"], row["verified"], row["solution"]) == ("solved", 1, "9c/36"), row
    assert row["unique"] is None and "uniqueness unknown" in row["detail"]
    assert row["unique_error"].startswith("memout"), row  # said in a field of its own
    assert row["peak_rss_mb"] < 200  # the solve's own peak: the uniqueness solve's is apart
    assert row["unique_peak_rss_mb"] > 300


def test_a_crash_in_the_uniqueness_solve_keeps_the_answer(supervisor, empty_2x2):
    options = {"status": "sat", "solution": "9c/36", "again": "raise"}
    row = seen(supervisor.run(spec(empty_2x2, "dummy", options, unique=True)))
    assert (row["status"], row["verified"]) == ("solved", 1), row
    assert row["unique"] is None and row["unique_error"].startswith("crash: ")
    assert "dummy encoding told to raise" in row["unique_error"]


def test_a_proof_check_out_of_memory_leaves_the_answer_and_says_so(guarded, tmp_path):
    path = tmp_path / "none.txt"
    path.write_text(NO_ANSWER)
    instance = Instance("none", str(path), kinds.read_text(NO_ANSWER, str(path)))
    # The check gets 1 MB of its own: less than the worker holds, so it fails however it is stopped.
    row = guarded.run(spec(instance, "sat", {"proof": "true"}, check_memory_mb=1))
    assert row["status"] == "unsat", row
    extra = seen(row)
    assert "memout" in extra["check_error"] or "MemoryError" in extra["check_error"], extra
    assert extra["proof"].startswith("unchecked"), extra  # a verdict reached past the limits does not stand
    assert extra["check_memory_limit_mb"] == 1


def test_a_proof_check_is_measured_apart_from_the_solve(supervisor, tmp_path):
    path = tmp_path / "none.txt"
    path.write_text(NO_ANSWER)
    instance = Instance("none", str(path), kinds.read_text(NO_ANSWER, str(path)))
    row = seen(supervisor.run(spec(instance, "sat", {"proof": "true"}, check_time_s=7.0)))
    assert row["status"] == "unsat" and row["proof"] == "certified", row
    assert row["check_cpu_s"] > 0 and row["check_peak_rss_mb"] > 0
    assert row["check_time_limit_s"] == 7.0 and row["check_memory_limit_mb"] == 400
    assert row["cpu_s"] >= row["solve_cpu_s"] + row["check_cpu_s"] - 0.01
