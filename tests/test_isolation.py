"""Isolation: a supervisor drives a real worker, enforces CPU, wall and memory limits, and survives faults."""

from __future__ import annotations

import os
import time

import pytest

from harness import registry
from harness.run import supervise
from harness.run.supervise import Supervisor, overlay
from harness.run.sweep import Sweep, make_spec


def spec(instance, time_s=1.0, memory_mb=400, seed=0, **options):
    sweep = Sweep(instances=[instance], encodings=["dummy"], time_s=time_s, memory_mb=memory_mb)
    return make_spec(sweep, instance, "dummy", registry.create("dummy", **options).options, seed)


def test_a_correct_answer_is_solved_and_measured(supervisor, empty_2x2):
    row = supervisor.run(spec(empty_2x2, status="sat", solution="9c/36"))
    assert (row["status"], row["verified"], row["solution"]) == ("solved", 1, "9c/36")
    assert row["time_limit_s"] == 1.0 and row["memory_limit_mb"] == 400
    assert row["wall_s"] > 0 and row["cpu_s"] >= 0 and row["peak_rss_mb"] > 5
    assert row["run_key"] and row["host"] and row["python_version"]
    assert row["started_at"] <= row["finished_at"]


def test_one_worker_serves_many_runs_and_survives_an_exception(supervisor, empty_2x2):
    supervisor.run(spec(empty_2x2))
    pid = supervisor.worker.pid
    row = supervisor.run(spec(empty_2x2, behave="raise"))
    assert row["status"] == "crash"
    assert "RuntimeError: dummy encoding told to raise" in row["detail"] and "Traceback" in row["detail"]
    assert supervisor.run(spec(empty_2x2))["status"] == "unknown"
    assert supervisor.worker.pid == pid


def test_spin_is_killed_within_a_second_of_the_cpu_limit(supervisor, empty_2x2):
    supervisor.run(spec(empty_2x2))
    pid = supervisor.worker.pid
    row = supervisor.run(spec(empty_2x2, behave="spin"))
    assert row["status"] == "timeout", row
    assert row["cpu_s"] >= 1.0 and "CPU" in row["detail"]  # how soon after the limit: bench_harness.py
    assert row["timeout_by"] == "cpu"  # said apart from a wall-cap kill, not only in the detail
    assert supervisor.worker is None  # retired; the next run gets a fresh process
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert supervisor.run(spec(empty_2x2))["status"] == "unknown"


def test_hang_is_killed_at_the_wall_cap(supervisor, empty_2x2):
    row = supervisor.run({**spec(empty_2x2, behave="hang"), "wall_cap_s": 1.5})
    assert row["status"] == "timeout" and "wall-time cap" in row["detail"]
    assert row["timeout_by"] == "wall"
    assert row["wall_s"] >= 1.5 and row["status"] == "timeout"


def test_unbounded_allocation_is_a_memout_within_ten_percent(supervisor, empty_2x2):
    # A CPU limit far above what the allocation takes: the test is about memory, not a race with the clock.
    row = supervisor.run(spec(empty_2x2, time_s=30.0, memory_mb=400, behave="alloc"))
    assert row["status"] == "memout", row
    assert 380 <= row["peak_rss_mb"] <= 440
    assert row["memory_guard"] in ("cgroup-v1", "cgroup-v2", "rlimit-data")


@pytest.mark.parametrize("guard", ["auto", "rlimit"])
def test_the_kernel_holds_the_memory_limit_without_the_poll(monkeypatch, empty_2x2, guard):
    """With the supervisor's poll out of the way (one look per 60 s), the kernel alone stops an
    unbounded allocation at the limit: an OOM kill in the worker's cgroup, or a refused allocation."""
    from harness.run.memory import GUARD_ENV

    monkeypatch.setenv(GUARD_ENV, guard)
    monkeypatch.setattr(supervise, "POLL_S", 60.0)
    sup = Supervisor()
    try:
        row = sup.run(spec(empty_2x2, time_s=30.0, memory_mb=300, behave="alloc"))
        after = sup.run(spec(empty_2x2))  # the next run gets a worker (a fresh one after an OOM kill)
    finally:
        sup.close()
    assert row["status"] == "memout", row
    assert row["memout_by"] == row["memory_guard"] != "poll"
    if guard == "rlimit":
        assert row["memory_guard"] == "rlimit-data" and "MemoryError" in row["detail"]
    assert 250 <= row["peak_rss_mb"] <= 330
    assert after["status"] == "unknown" and after["peak_rss_mb"] < 300


def test_a_workers_cgroup_is_removed_with_it(empty_2x2):
    sup = Supervisor()
    sup.run(spec(empty_2x2))
    group = sup.worker.cgroup
    sup.close()
    if group is None:
        pytest.skip("no memory cgroup on this machine: the worker holds its limit with RLIMIT_DATA")
    assert not group.path.exists()


@pytest.mark.parametrize(("behave", "words"), [("abort", "SIGABRT"), ("exit", "exited with code 3")])
def test_a_dying_worker_is_a_crash_with_its_stderr_tail(supervisor, empty_2x2, behave, words):
    row = supervisor.run(spec(empty_2x2, behave=behave))
    assert row["status"] == "crash" and words in row["detail"]
    if behave == "abort":
        assert "dummy.py" in row["detail"]  # faulthandler's stack of the dying run
    assert supervisor.run(spec(empty_2x2))["status"] == "unknown"


def test_peak_rss_is_per_run(supervisor, empty_2x2):
    big = supervisor.run(spec(empty_2x2, behave="alloc", megabytes=160))
    small = supervisor.run(spec(empty_2x2))
    assert big["status"] == small["status"] == "unknown"
    assert big["peak_rss_mb"] - small["peak_rss_mb"] > 100


def test_an_unknown_that_used_its_cpu_budget_is_a_timeout_whichever_encoding(supervisor, empty_2x2):
    supervisor.run(spec(empty_2x2))  # a warm worker: the run below pays only for its own work
    # The dummy burns 98.3 % of its CPU budget and says unknown, as an encoding stopped by its clock does.
    row = supervisor.run(spec(empty_2x2, time_s=2.0, behave="burn", seconds=1.966))
    assert row["status"] == "timeout" and "CPU budget" in row["detail"], row
    assert row["late_status"] == "unknown"
    # Waiting on the wall clock uses no CPU budget: an unknown that gives up then stays unknown.
    row = supervisor.run(spec(empty_2x2, time_s=1.0, behave="sleep", seconds=1.0))
    assert row["status"] == "unknown", row


def test_the_encodings_clock_is_the_runners_cpu_clock():
    import time

    from harness.encoding import Limits

    origin = time.process_time()
    limits = Limits(time_s=0.3, cpu_origin=origin)
    assert limits.deadline() == origin + 0.3
    clock = limits.clock()
    wall = time.perf_counter()
    time.sleep(0.35)  # wall time passes, CPU time does not
    assert not clock.expired() and clock.left() > 0.25
    stopped = []
    with clock.watch(lambda: stopped.append(time.process_time())):
        while not stopped and time.perf_counter() - wall < 20:
            pass  # burn CPU until the watchdog calls stop()
    assert stopped and stopped[0] >= origin + 0.3 and clock.expired()  # never before the limit
    with Limits(time_s=5).clock().watch(lambda: stopped.append("late")):
        pass
    assert stopped[-1] != "late"  # leaving the block in time: stop() is never called


def test_a_busy_run_starved_of_cpu_is_not_killed_at_the_wall_cap(supervisor, empty_2x2):
    """The wall cap is a hang guard: time spent waiting for a CPU (here: spinners on the
    worker's one CPU) does not count, so a busy run is judged by its CPU and memory limits."""
    import subprocess
    import sys

    supervisor.run(spec(empty_2x2))  # start the worker
    pid = supervisor.worker.pid
    cpu = min(os.sched_getaffinity(0))
    for task in os.listdir(f"/proc/{pid}/task"):  # every thread: affinity is set per thread
        os.sched_setaffinity(int(task), {cpu})
    spin = [sys.executable, "-c", f"import os; os.sched_setaffinity(0, {{{cpu}}})\nwhile True: pass"]
    # six: with autogroup scheduling the hogs' session shares one weight over every CPU its tasks
    # use, so other busy jobs of that session (a generator on the other core) once left two hogs
    # on this CPU only a third of it against the worker's session, and the run never waited
    hogs = [subprocess.Popen(spin) for _ in range(6)]
    try:
        # the run starts once every hog spins: one still starting (slow on a busy machine) leaves
        # the worker the CPU to itself
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any((supervise.proc_cpu_s(h.pid) or 0.0) < 0.1 for h in hogs):
            time.sleep(0.01)
        row = supervisor.run({**spec(empty_2x2, time_s=5.0, behave="burn", seconds=0.4), "wall_cap_s": 0.6})
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert row["status"] == "unknown", row  # the dummy's own verdict: nobody killed it
    assert row["wall_s"] > 0.6 and row["cpu_s"] >= 0.4  # it did wait past the cap


def test_cpu_time_is_per_run(supervisor, empty_2x2):
    supervisor.run(spec(empty_2x2, time_s=30.0, behave="burn", seconds=1.5))
    row = supervisor.run(spec(empty_2x2, time_s=30.0, behave="burn", seconds=0.3))
    assert 0.3 <= row["cpu_s"] < 1.5  # the first run's 1.5 s are not counted again


def test_a_worker_that_cannot_start_is_a_harness_failure_not_a_result(monkeypatch, supervisor, empty_2x2):
    monkeypatch.setattr(supervise.sys, "executable", "/bin/false")
    with pytest.raises(supervise.WorkerStartError, match="while starting"):
        supervisor.run(spec(empty_2x2))
    monkeypatch.undo()
    assert supervisor.run(spec(empty_2x2))["status"] == "unknown"  # the next run gets a new worker


def run_row(status, cpu_s, solve_s=0.0, peak=50.0):
    return {"status": status, "cpu_s": cpu_s, "solve_s": solve_s, "peak_rss_mb": peak,
            "solution": "9c/36" if status == "solved" else "", "verified": 1 if status == "solved" else None}


LIMITS = {"time_s": 2.0, "memory_mb": 100}


@pytest.mark.parametrize(
    ("row", "status"),
    [
        (run_row("solved", 1.0), "solved"),
        (run_row("solved", 2.5), "timeout"),  # a success after the limit is no success
        (run_row("unknown", 1.99, solve_s=1.99), "timeout"),  # the encoding's own CPU budget ran out
        (run_row("unknown", 1.97, solve_s=0.5), "timeout"),  # one clock: CPU, whatever the wall said
        # Gave up on the wall clock with CPU budget left (a loaded machine): not a timeout.
        (run_row("unknown", 0.1, solve_s=1.99), "unknown"),
        (run_row("unknown", 0.1, solve_s=0.5), "unknown"),
        (run_row("wrong", 2.5), "wrong"),  # a wrong answer stays wrong
        (run_row("solved", 1.0, peak=150.0), "memout"),
    ],
)
def test_overlay(row, status):
    result = overlay(row, LIMITS)
    assert result["status"] == status
    if status != row["status"]:
        assert (result["solution"], result["verified"]) == ("", None)
        assert result["late_status"] == row["status"]


def test_a_worker_whose_supervisor_is_gone_leaves_quietly_and_removes_its_folder(tmp_path, empty_2x2):
    """The coordinator SIGKILLed mid-run: the worker's answer finds no reader (EPIPE on the notify
    pipe). It must not die with a traceback, leaving its temporary folder behind."""
    import json
    import subprocess
    import sys

    folder = tmp_path / "worker"
    folder.mkdir()
    read_end, write_end = os.pipe()
    with open(tmp_path / "stderr", "wb") as err:
        worker = subprocess.Popen(
            [sys.executable, "-m", "harness.run.worker", "--dir", str(folder), "--notify", str(write_end)],
            stdin=subprocess.PIPE, stderr=err, pass_fds=(write_end,))
    os.close(write_end)
    assert os.read(read_end, 1) == b"R"
    request = spec(empty_2x2, behave="sleep", seconds=0.3)
    worker.stdin.write(json.dumps({key: request[key] for key in supervise.REQUEST_KEYS} | {"seq": 1}).encode()
                       + b"\n")
    worker.stdin.flush()
    os.close(read_end)  # the supervisor dies while the run is going on
    assert worker.wait(timeout=30) == 0
    assert not folder.exists()
    assert "Traceback" not in (tmp_path / "stderr").read_text()


def test_a_worker_left_holding_memory_is_replaced_so_the_next_peak_is_its_own(supervisor, empty_2x2):
    supervisor.run(spec(empty_2x2))
    ready_mb = supervisor.worker.ready_rss_kb / 1024
    row = supervisor.run(spec(empty_2x2, behave="leak", megabytes=supervise.LEFT_BEHIND_MB + 100))
    assert row["peak_rss_mb"] > ready_mb + supervise.LEFT_BEHIND_MB + 100
    assert supervisor.worker is None  # retired: it keeps what it leaked
    after = supervisor.run(spec(empty_2x2))
    assert after["peak_rss_mb"] < ready_mb + supervise.LEFT_BEHIND_MB


def test_a_worker_that_keeps_a_little_serves_on(supervisor, empty_2x2):
    supervisor.run(spec(empty_2x2))
    pid = supervisor.worker.pid
    supervisor.run(spec(empty_2x2, behave="leak", megabytes=supervise.LEFT_BEHIND_MB // 4))
    assert supervisor.worker is not None and supervisor.worker.pid == pid
