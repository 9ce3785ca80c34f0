"""The worker's CPU backstop (`worker.arm_backstop`): armed from each part's start on the kernel's own clock,
with room, and what ends a worker that runs past it (SIGPROF, which the supervisor calls a `timeout`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from harness.run.worker import BACKSTOP_FACTOR, arm_backstop

PAST_IT = """
import resource
from harness.run.worker import arm_backstop


def cpu():
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


start = cpu()
while cpu() - start < {before}:  # a worker that has served runs before this one
    pass
arm_backstop({limit})
start = cpu()
while True:
    print(cpu() - start, flush=True)
    for _ in range(200_000):
        pass
"""


def test_arming_counts_from_now_with_room_and_none_disarms() -> None:
    try:
        arm_backstop(5.0)
        left = signal.getitimer(signal.ITIMER_PROF)[0]
        # the kernel keeps it in its own clock's steps (here 4 ms): up to one more
        assert BACKSTOP_FACTOR * 5.0 < left <= BACKSTOP_FACTOR * 5.0 + 1.0 + 0.01
    finally:
        arm_backstop(None)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_a_worker_past_its_backstop_ends_by_sigprof_and_not_before_its_limit() -> None:
    limit = 0.3
    proc = subprocess.Popen([sys.executable, "-c", PAST_IT.format(before=1.0, limit=limit)],
                            stdout=subprocess.PIPE, text=True)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == -signal.SIGPROF, proc.returncode
    # the CPU it used after arming, by getrusage (every run's clock), as it last printed it
    used = float(out.split()[-1])
    assert used >= limit, used


def test_the_supervisor_calls_sigprof_the_backstop_and_a_timeout() -> None:
    from harness.run.supervise import Supervisor

    class Died:  # a worker as `_died` reads it: its wait status and its stderr's tail
        status = signal.SIGPROF  # killed by the signal (no core): the wait status is the signal
        def stderr_tail(self) -> str:
            return ""

    fate = Supervisor._died(Died())
    assert fate["status"] == "timeout" and fate["timeout_by"] == "cpu", fate
    assert os.waitstatus_to_exitcode(Died.status) == -signal.SIGPROF
