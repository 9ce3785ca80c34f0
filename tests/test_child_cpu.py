"""Every CPU second counted: a plug-in encoding whose work is a child process is timed and limited with it."""

from __future__ import annotations

import sys
import textwrap

import pytest
from test_plugins import forget  # the registries' caches, dropped so a change to sys.path is seen

from harness import registry
from harness.run.supervise import Supervisor
from harness.run.sweep import Sweep, make_spec

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
    row = shellout.run(spec(empty_2x2, 2.0))
    assert row["status"] == "timeout", row
    assert "child processes included" in row["detail"]
    # Killed within 2.5 s of CPU (the worker's setup included), its child's time counted.
    assert 2.0 <= row["cpu_s"] <= 2.5, row["cpu_s"]


def test_a_waited_for_childs_cpu_is_the_encodings(shellout, empty_2x2):
    row = shellout.run(spec(empty_2x2, 5.0, behave="burn", seconds=0.6))
    assert row["status"] == "unknown", row
    assert row["solve_cpu_s"] >= 0.6 and row["cpu_s"] >= row["solve_cpu_s"]
