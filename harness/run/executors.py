"""Executors: where runs happen. One interface: local worker processes, a Dask cluster, or Dask in Slurm jobs.

`run(specs)` yields `(spec, row, error)` as runs finish, in any order: `row` is the run's result
(a timeout or crash is a result), `error` an infrastructure failure that stored nothing, so a
re-run retries it. The coordinator consumes the results and is the only writer of the store.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any
from uuid import uuid4

from harness.run import cores
from harness.run.supervise import SupervisorPool, run_spec

Result = tuple[dict[str, Any], "dict[str, Any] | None", "BaseException | None"]


class ClusterError(RuntimeError):
    """The cluster cannot run the sweep (its jobs do not start): said in one line, the stored runs kept."""


class Executor:
    """The interface: `run(specs)`, then `close(abort)`; a context manager that closes on exit."""

    def run(self, specs: Iterable[dict[str, Any]]) -> Iterator[Result]:
        raise NotImplementedError

    def close(self, abort: bool = False) -> None:
        raise NotImplementedError

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, exc_type: type | None, *rest: object) -> None:
        self.close(abort=exc_type is not None)


class LocalExecutor(Executor):
    """`jobs` threads, each supervising one long-lived worker (threads only wait: no pickling, no fork).

    Each job's worker is pinned to a core of its own, claimed for the sweep so that a sweep started
    beside it takes others, and this process's threads (the coordinator, the supervisors, started
    after the pin) to the cores left, where there are any (`harness.run.cores`).
    """

    def __init__(self, jobs: int = 1, runs_per_worker: int | None = None, pin: bool = True,
                 cores_per_run: int = 1) -> None:
        sets, rest, self.claims = cores.claim_cores(jobs, per_run=cores_per_run) if pin else ([], [], [])
        self.before = os.sched_getaffinity(0)
        if sets and rest:
            cores.pin(rest)  # this thread, and the supervisor threads it starts
        self.pool = SupervisorPool(runs_per_worker, sets)
        self.threads = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="supervisor")

    def run(self, specs: Iterable[dict[str, Any]]) -> Iterator[Result]:
        futures = {self.threads.submit(self.pool.run, spec): spec for spec in specs}
        for future in as_completed(futures):
            error = future.exception()
            yield futures[future], None if error else future.result(), error

    def close(self, abort: bool = False) -> None:
        if abort:
            self.pool.kill_all()
        self.threads.shutdown(wait=True, cancel_futures=True)
        self.pool.close()
        cores.release(self.claims)
        cores.pin(sorted(self.before))  # the caller's thread as it was


class DaskExecutor(Executor):
    """Each Dask task runs one spec through a supervisor pool living in that Dask worker's process.

    Without a scheduler address a LocalCluster of `jobs` single-threaded worker processes is
    started. A Dask worker lost mid-run has its task rescheduled by the scheduler; the coordinator
    still gets exactly one result per future, and the store ignores a run_key it already holds.
    """

    def __init__(self, jobs: int = 1, scheduler: str | None = None) -> None:
        from dask.distributed import Client, LocalCluster  # dask is an optional extra

        self.cluster = None
        if scheduler is None:
            self.cluster = LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=True,
                dashboard_address=None, silence_logs=logging.ERROR,
            )
            self.client = Client(self.cluster)
        else:
            self.client = Client(scheduler)

    def run(self, specs: Iterable[dict[str, Any]]) -> Iterator[Result]:
        from dask.distributed import as_completed as dask_completed

        nonce = uuid4().hex[:8]  # a key of its own per sweep: Dask would reuse a finished task's result
        self.futures = futures = {}  # a subclass may cancel them all
        for spec in specs:
            key = f"loopbench-{spec['identity']['run_key']}-{nonce}"
            # retries: infrastructure failures only; a timeout or crash comes back as a row.
            futures[self.client.submit(run_spec, spec, key=key, retries=1)] = spec
        for future in dask_completed(futures):
            if future.status == "finished":
                yield futures[future], future.result(), None
            else:
                try:
                    error = future.exception()
                except BaseException as exc:  # noqa: B036 - a cancelled future raises instead of returning
                    error = exc
                yield futures[future], None, error
            future.release()

    def close(self, abort: bool = False) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
