"""Which cores each job of a local sweep runs on, and the machine's CPU model: pinned, then recorded per run.

Two runs on the cores of one machine share caches and the turbo budget, and a run that migrates
between cores loses its cache; BenchExec therefore pins each run to cores of its own. A local sweep
of N jobs gives each job one core of its own (solvers run single-threaded: CP-SAT num_workers=1;
`--cores-per-run K` gives each K, for a run that uses more, as `portfolio` does),
the highest-numbered ones, and keeps its own threads (coordinator, supervisors) on the cores left,
where there are any; with more jobs than cores nothing is pinned. Sweeps started side by side on one
machine claim their cores (`claim_cores`: a lock file per core, held while the sweep runs), so a
second sweep takes the highest cores the first left free rather than sharing its. Each run records
the cores its worker could run on (`cores`) and the CPU model (`cpu_model`), pinned or not, so that
a comparison can tell runs of different machines apart (`harness.analysis.machines`).
"""

from __future__ import annotations

import fcntl
import os
import platform
from functools import cache
from pathlib import Path
from typing import IO

# one lock file per core, shared by every sweep of this user on this machine: a fixed place, not the
# TMPDIR a sweep may be given (its runs' scratch, which they leave empty)
CLAIMS = Path(os.environ.get("XDG_RUNTIME_DIR") or "/tmp") / f"loopbench-cores-{os.getuid()}"


def _grouped(cores: list[int], per_run: int) -> list[list[int]]:
    return [cores[i:i + per_run] for i in range(0, len(cores), per_run)]


def core_sets(jobs: int, available: list[int] | None = None, per_run: int = 1
              ) -> tuple[list[list[int]], list[int]]:
    """(one set of `per_run` cores per job, the cores left for the harness); no sets with more jobs than
    the cores hold."""
    cores = sorted(os.sched_getaffinity(0) if available is None else available)
    wanted = jobs * per_run
    if jobs < 1 or wanted > len(cores):
        return [], cores
    return _grouped(cores[len(cores) - wanted:], per_run), cores[:len(cores) - wanted]


def claim_cores(jobs: int, available: list[int] | None = None, directory: Path = CLAIMS, per_run: int = 1
                ) -> tuple[list[list[int]], list[int], list[IO]]:
    """`core_sets` among the cores no other running sweep has claimed, highest first, and the open
    lock files that hold the claims (closing them lets the cores go; so does the process ending).
    Where fewer than `jobs` x `per_run` cores are free, `core_sets` of all of them, unclaimed: shared,
    as before."""
    cores = sorted(os.sched_getaffinity(0) if available is None else available)
    wanted = jobs * per_run
    if jobs < 1 or wanted > len(cores):
        return [], cores, []
    held: list[tuple[int, IO]] = []
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for core in reversed(cores):
            if len(held) == wanted:
                break
            handle = open(directory / f"core-{core}.lock", "a")  # noqa: SIM115 - held open: the claim
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # another sweep's
                handle.close()
                continue
            held.append((core, handle))
    except OSError:  # no place for claims (a read-only /tmp): pinned as before, unclaimed
        pass
    if len(held) < wanted:
        release([handle for _, handle in held])
        sets, rest = core_sets(jobs, cores, per_run)
        return sets, rest, []
    mine = sorted(core for core, _ in held)
    return _grouped(mine, per_run), [core for core in cores if core not in mine], [h for _, h in held]


def release(claims: list[IO]) -> None:
    """Let claimed cores go."""
    for handle in claims:
        handle.close()  # closing the file drops its lock


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
