"""Every CPU second counted: a plug-in encoding whose work is a child process is timed and limited with it."""

from __future__ import annotations

import os
import re
import sys
import textwrap
import time

import pytest
from test_plugins import forget  # the registries' caches, dropped so a change to sys.path is seen

from harness import registry
from harness.run.supervise import POLL_S, TICK, Supervisor, proc_run_delay_s
from harness.run.sweep import Sweep, make_spec
from harness.run.worker import grace_s

# A test-only encoding that shells out: `spin` runs a CPU-bound child it waits for (forever),
# `burn` one that uses `seconds` of CPU and exits.
CHILD_ENCODING = """
    import subprocess
    import sys

    from harness.encoding import Encoding, Outcome

    BURN = "import time\\nend = time.process_time() + {seconds}\\nwhile time.process_time() < end: pass"

    class Shellout(Encoding):
        name = "shellout"
        puzzles = ("masyu",)
        defaults = {"behave": "spin", "seconds": 0.5}

        def solve(self, puzzle, limits, seed, exclude=()):
            if self.options["behave"] == "spin":
                subprocess.run([sys.executable, "-c", "while True: pass"])
            else:
                subprocess.run([sys.executable, "-c", BURN.format(seconds=self.options["seconds"])])
            return Outcome("unknown", stats={"reason": "the child ended"})
"""


@pytest.fixture
def shellout(tmp_path, monkeypatch):
    """The plug-in installed by hand into a folder on sys.path and on the workers' PYTHONPATH."""
    site = tmp_path / "site"
    info = site / "shellout-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: shellout\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[loopbench.encodings]\nshellout = plugin_shellout:Shellout\n")
    (site / "plugin_shellout.py").write_text(textwrap.dedent(CHILD_ENCODING))
    monkeypatch.delitem(sys.modules, "plugin_shellout", raising=False)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", str(site))
    forget()
    sup = Supervisor()
    yield sup
    sup.close()
    monkeypatch.undo()
    forget()


def spec(instance, time_s, **options):
    sweep = Sweep(instances=[instance], encodings=["shellout"], time_s=time_s, memory_mb=400)
    return make_spec(sweep, instance, "shellout", registry.create("shellout", **options).options, 0)


def test_a_cpu_bound_child_is_killed_at_the_limit_and_its_time_recorded(shellout, empty_2x2):
    # The supervisor polls in this process's main thread: what it spent on its polls and waiting for
    # a CPU bounds how far apart two of its polls can be, at any load.
    busy, waited = time.process_time(), proc_run_delay_s(os.getpid())
    row = shellout.run(spec(empty_2x2, 2.0))
    busy, waited = time.process_time() - busy, proc_run_delay_s(os.getpid()) - waited
    assert row["status"] == "timeout" and row["timeout_by"] == "cpu", row  # the CPU limit, not the wall cap
    assert "child processes included" in row["detail"]
    # the solve's CPU at the kill, as the detail gives it (to 0.01 s: `rounding`)
    killed_at, rounding = float(re.search(r"killed at ([\d.]+) s of CPU", row["detail"])[1]), 0.005
    limit = 2.0 + grace_s(2.0)
    assert limit - rounding <= killed_at <= row["cpu_s"] + rounding, row  # the run's time includes its setup
    # Past the limit by at most what the run used between two polls: the worker waits for its child,
    # so the two use one CPU at a time, no more than a poll's interval, the supervisor's work on a
    # poll and its wait for a CPU (0 on an idle machine), plus a tick of /proc's clock each.
    assert killed_at - rounding - limit <= POLL_S + busy + waited + 2 / TICK, (killed_at, busy, waited)


def test_a_waited_for_childs_cpu_is_the_encodings(shellout, empty_2x2):
    row = shellout.run(spec(empty_2x2, 5.0, behave="burn", seconds=0.6))
    assert row["status"] == "unknown", row
    assert row["solve_cpu_s"] >= 0.6 and row["cpu_s"] >= row["solve_cpu_s"]
