"""The executor a sweep names (`--executor local|dask|slurm`): above the executors, so none names another."""

from __future__ import annotations

from typing import Any

from harness.run.executors import DaskExecutor, Executor, LocalExecutor
from harness.run.slurm import SlurmExecutor  # imports dask and dask-jobqueue (optional extras) only when made


def make(kind: str, jobs: int = 1, scheduler: str | None = None,
         runs_per_worker: int | None = None, slurm: dict[str, Any] | None = None,
         pin: bool = True, cores_per_run: int = 1) -> Executor:
    if kind == "local":
        return LocalExecutor(jobs, runs_per_worker, pin, cores_per_run)
    if kind == "dask":
        return DaskExecutor(jobs, scheduler)
    if kind == "slurm":
        return SlurmExecutor(jobs, slurm)
    raise ValueError(f"unknown executor {kind!r} (local, dask, slurm)")
