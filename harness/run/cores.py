"""Which cores each job of a local sweep runs on, and the machine's CPU model: pinned, then recorded per run.

Two runs on the cores of one machine share caches and the turbo budget, and a run that migrates
between cores loses its cache; BenchExec therefore pins each run to cores of its own. A local sweep
of N jobs gives each job one core of its own (solvers run single-threaded: CP-SAT num_workers=1),
the highest-numbered ones, and keeps its own threads (coordinator, supervisors) on the cores left,
where there are any; with more jobs than cores nothing is pinned. Each run records the cores its
worker could run on (`cores`) and the CPU model (`cpu_model`), pinned or not, so that a comparison
can tell runs of different machines apart (`harness.analysis.machines`).
"""

from __future__ import annotations

import os
import platform
from functools import cache


def core_sets(jobs: int, available: list[int] | None = None) -> tuple[list[list[int]], list[int]]:
    """(one set of cores per job, the cores left for the harness); no sets with more jobs than cores."""
    cores = sorted(os.sched_getaffinity(0) if available is None else available)
    if jobs < 1 or jobs > len(cores):
        return [], cores
    return [[core] for core in cores[len(cores) - jobs:]], cores[:len(cores) - jobs]


def pin(cores: list[int] | None, pid: int = 0) -> None:
    """Keep process (or, pid 0, the calling thread and the threads it starts later) on `cores`."""
    if cores:
        os.sched_setaffinity(pid, cores)


def affinity(pid: int = 0) -> str:
    """The cores a process may run on, as `0,1`; "" where the system does not say."""
    try:
        return ",".join(str(core) for core in sorted(os.sched_getaffinity(pid)))
    except (OSError, AttributeError):
        return ""


@cache
def cpu_model() -> str:
    """The CPU's model name (/proc/cpuinfo), else what the platform says."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith(("model name", "Model", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
