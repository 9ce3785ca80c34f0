"""Sweeps on Slurm: the Dask executor, its workers in Slurm batch jobs (dask-jobqueue), ended jobs replaced.

Each job runs one Dask worker with `cores` threads, each thread one run at a time through the
harness's supervised workers, exactly as `--executor dask` runs them; the coordinator (where the
command runs) holds the Dask scheduler and is the only writer of the database, so resume,
fingerprints and verified answers are the local sweep's. A job that ends before the sweep does
(scancel, a node failure, preemption, its wall time) is noticed by asking `squeue`; the runs its
worker had in hand are redone by the other workers (the Dask scheduler reschedules them) and a new
job is asked for in its place. Jobs that end one after another before their worker ever connects
stop the sweep with their log's last lines, rather than resubmitting forever.
"""

from __future__ import annotations

import argparse
import getpass
import logging
import math
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from harness.run.executors import ClusterError, DaskExecutor, Result
from harness.run.supervise import wall_cap

WATCH_S = 2.0  # how often squeue is asked which jobs still live
FAILED_STARTS = 3  # jobs in a row that end before their Dask worker connects stop the sweep
OVERHEAD_MB = 512  # a job's Dask worker and nanny, beside its runs' memory limits
JOB_NAME = "loopbench"
# squeue's states (%T) of a job that will run no more; a job missing from squeue has ended too.
# COMPLETING is not one: a job being requeued passes through it and comes back PENDING.
ENDED = {"BOOT_FAIL", "CANCELLED", "COMPLETED", "DEADLINE", "FAILED", "NODE_FAIL", "OUT_OF_MEMORY",
         "PREEMPTED", "REVOKED", "SPECIAL_EXIT", "TIMEOUT"}
FLAGS = ("partition", "account", "qos", "cores", "memory", "walltime", "directive", "prologue",
         "interface", "log_dir")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The `--slurm-*` options of `python -m harness.run`."""
    g = parser.add_argument_group(
        "Slurm (--executor slurm: Dask workers in Slurm batch jobs through dask-jobqueue; --jobs is runs "
        "at once in all, so ceil(jobs / cores) jobs; settings not given come from dask's jobqueue.slurm "
        "config, then these defaults)")
    g.add_argument("--slurm-partition", metavar="NAME", help="partition (#SBATCH -p)")
    g.add_argument("--slurm-account", metavar="NAME", help="account charged (#SBATCH -A)")
    g.add_argument("--slurm-qos", metavar="NAME", help="quality of service (#SBATCH --qos)")
    g.add_argument("--slurm-cores", type=int, metavar="N",
                   help="cores per job, each running one run at a time (#SBATCH --cpus-per-task; default 1)")
    g.add_argument("--slurm-memory", metavar="SIZE",
                   help="memory per job, as sbatch takes it: 16G, 4000M, 4000 (#SBATCH --mem; default "
                        f"cores x --memory-limit + {OVERHEAD_MB} MB for the Dask worker)")
    g.add_argument("--slurm-walltime", metavar="TIME",
                   help="wall time per job, as sbatch takes it: [D-]HH:MM:SS or minutes (#SBATCH -t; default "
                        "dask's jobqueue.slurm.walltime, 00:30:00); at least one run's wall-time cap")
    g.add_argument("--slurm-directive", action="append", metavar="OPTION",
                   help="any other sbatch option, written as an #SBATCH line (repeatable): "
                        "--slurm-directive=--constraint=skylake")
    g.add_argument("--slurm-prologue", action="append", metavar="COMMAND",
                   help="a shell line each job runs before its Dask worker starts (repeatable): "
                        "'module load python/3.11'")
    g.add_argument("--slurm-interface", metavar="NIC",
                   help="network interface the Dask scheduler and workers talk over "
                        "(ib0, eth0; lo on one machine)")
    g.add_argument("--slurm-log-dir", type=Path, metavar="DIR",
                   help="where each job's stdout and stderr go (default: slurm-logs beside the database)")


def given(args: argparse.Namespace) -> list[str]:
    """The `--slurm-*` flags on the command line."""
    return [f"--slurm-{name.replace('_', '-')}" for name in FLAGS
            if getattr(args, f"slurm_{name}") is not None]


def settings(args: argparse.Namespace) -> dict[str, Any]:
    """The Slurm settings of a sweep as plain data (stored with the sweep); raises ValueError for what
    the user must fix: dask-jobqueue or sbatch missing, a size or time sbatch would not read, a job
    too small for one run, or a job sbatch refuses (`sbatch --test-only`)."""
    try:
        import dask
        import dask_jobqueue  # noqa: F401 - an optional extra: say so here rather than in a traceback
    except ImportError:
        raise ValueError("--executor slurm needs dask-jobqueue: pip install 'loopbench[slurm]'") from None
    if shutil.which("sbatch") is None:
        raise ValueError("--executor slurm needs Slurm's sbatch, squeue and scancel on PATH "
                         "(run the sweep on a login node of the cluster)")
    config = dask.config.get("jobqueue.slurm")
    cores = args.slurm_cores if args.slurm_cores is not None else config.get("cores") or 1
    if cores <= 0:
        raise ValueError(f"--slurm-cores must be positive, not {cores}")
    memory = args.slurm_memory or config.get("job-mem") or config.get("memory")
    memory_mb = megabytes(str(memory)) if memory else cores * args.memory_limit + OVERHEAD_MB
    if memory_mb < cores * args.memory_limit:
        raise ValueError(f"--slurm-memory {memory}: less than {cores} core(s) x --memory-limit "
                         f"{args.memory_limit} MB; give at least {cores * args.memory_limit + OVERHEAD_MB}M")
    walltime = args.slurm_walltime or config.get("walltime")
    interface = args.slurm_interface or config.get("interface")
    if interface:
        from distributed.utils import get_ip_interface

        get_ip_interface(interface)  # the scheduler listens here: a name this machine lacks is a ValueError
    # One run's wall-time cap, as the supervisor sets it (a uniqueness solve has a cap of its own).
    run_wall_s = (2 if args.unique else 1) * (args.wall_limit or wall_cap(args.time_limit))
    if walltime and seconds(walltime) < run_wall_s:
        raise ValueError(f"--slurm-walltime {walltime}: shorter than one run's wall-time cap "
                         f"({run_wall_s:g} s), so no run could finish in a job")
    out = {
        "partition": args.slurm_partition, "account": args.slurm_account, "qos": args.slurm_qos,
        "cores": cores, "memory_mb": memory_mb, "walltime": walltime,
        "directives": args.slurm_directive or [], "prologue": args.slurm_prologue or [],
        "interface": interface,
        "log_dir": str((args.slurm_log_dir or args.db.parent / "slurm-logs").resolve()),
    }
    check(out)
    return out


def megabytes(size: str) -> int:
    """A memory size as sbatch reads --mem (K, M, G, T of 1024; no unit: megabytes), in megabytes."""
    match = re.fullmatch(r"\s*(\d+)\s*([KMGT]?)(i?B)?\s*", size, re.IGNORECASE)
    if not match:
        raise ValueError(f"--slurm-memory {size!r}: not a size sbatch reads (16G, 4000M, 4000)")
    scale = {"K": 1 / 1024, "": 1, "M": 1, "G": 1024, "T": 1024 ** 2}[match[2].upper()]
    return math.ceil(int(match[1]) * scale)


def seconds(walltime: str) -> int:
    """A time as sbatch reads -t (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS), in seconds."""
    match = re.fullmatch(r"\s*(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?\s*", str(walltime))
    if not match:
        raise ValueError(f"--slurm-walltime {walltime!r}: not a time sbatch reads ([D-]HH:MM:SS or minutes)")
    days, a, b, c = (int(x) if x else None for x in match.groups())
    if days is not None:  # D-HH[:MM[:SS]]
        return days * 86400 + a * 3600 + (b or 0) * 60 + (c or 0)
    if c is not None:
        return a * 3600 + b * 60 + c
    return a * 60 + (b or 0)  # minutes, or minutes:seconds


def job_options(slurm: dict[str, Any]) -> dict[str, Any]:
    """dask-jobqueue's SLURMJob/SLURMCluster keywords for these settings: one Dask worker a job."""
    import dask

    directives = [f"--qos={slurm['qos']}"] if slurm["qos"] else []
    options = {
        # No nanny: a worker that dies ends its job, which the watch replaces (a nanny would only add a
        # process to start and a second way of coming back).
        "cores": slurm["cores"], "processes": 1, "nanny": False, "memory": f"{slurm['memory_mb']}MiB",
        "job_mem": f"{slurm['memory_mb']}M",  # as the user wrote it, not dask's decimal round trip
        "job_name": JOB_NAME, "job_extra_directives": directives + list(slurm["directives"]),
        "log_directory": slurm["log_dir"],
    }
    for key, name in (("partition", "queue"), ("account", "account"), ("walltime", "walltime"),
                      ("interface", "interface")):
        if slurm[key]:
            options[name] = slurm[key]
    if slurm["prologue"]:
        options["job_script_prologue"] = list(slurm["prologue"])
    # `exec`: the worker becomes the job's own process, not a child of its shell. Slurm's signals
    # reach it, and a job ends only when its worker has; otherwise a killed shell leaves the worker
    # running outside the job where Slurm tracks processes by their parents (proctrack/linuxproc).
    python = dask.config.get("jobqueue.slurm.python", None) or sys.executable
    options["python"] = f"exec {python}"
    return options


def check(slurm: dict[str, Any]) -> None:
    """Ask sbatch whether it would take this job (`--test-only`: nothing is submitted)."""
    from dask_jobqueue.slurm import SLURMJob

    options = {k: v for k, v in job_options(slurm).items() if k != "interface"}  # no address needed here
    script = SLURMJob("tcp://127.0.0.1:8786", name="check", **options).job_script()
    with tempfile.NamedTemporaryFile("w", suffix=".sh", prefix="loopbench-slurm-") as file:
        file.write(script)
        file.flush()
        done = subprocess.run(["sbatch", "--test-only", file.name], capture_output=True, text=True,
                              timeout=60)
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()
        raise ValueError(f"sbatch refuses the sweep's job: {said[-1] if said else f'exit {done.returncode}'}")


def queue_states() -> dict[str, str] | None:
    """The state of each of this user's jobs, by id (squeue); None when squeue does not answer."""
    try:
        done = subprocess.run(["squeue", "--noheader", "--format=%i %T", f"--user={getpass.getuser()}"],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None  # a busy or restarting controller: ask again next time, end nothing
    return dict(line.split(None, 1) for line in done.stdout.splitlines() if " " in line)


def log_tail(log_dir: str, job_id: str, lines: int = 5) -> str:
    path = Path(log_dir) / f"{JOB_NAME}-{job_id}.err"
    try:
        tail = path.read_text(errors="replace").strip().splitlines()[-lines:]
    except OSError:
        return f"(no log at {path})"
    return f"{path}: " + " | ".join(tail) if tail else f"{path} is empty"


def _say(message: str) -> None:
    print(f"harness.run: {message}", file=sys.stderr, flush=True)


def _jobs_watch() -> Any:
    """A scheduler plugin (the class is made here: distributed is imported only for a Dask sweep)."""
    from distributed.diagnostics.plugin import SchedulerPlugin

    class JobsWatch(SchedulerPlugin):
        """Which jobs' workers connected, and the runs each lost worker had in hand (then redone)."""

        def __init__(self, cluster: Any) -> None:
            self.cluster = cluster
            self.names: dict[str, str] = {}  # worker address: its name, the name of its job in the cluster
            self.job_ids: dict[str, str] = {}  # job name: Slurm job id
            self.started: set[str] = set()  # names of the jobs whose worker connected
            self.redone = 0

        def add_worker(self, scheduler: Any, worker: str) -> None:
            self.names[worker] = name = str(scheduler.workers[worker].name)
            self.started.add(name)
            job_id = getattr(self.cluster.workers.get(name), "job_id", None)
            if job_id:
                self.job_ids[name] = job_id

        def log_event(self, topic: str, msg: Any) -> None:
            if topic != "all" or not isinstance(msg, dict) or msg.get("action") != "remove-worker":
                return
            lost = [k for k in msg.get("processing-tasks", ()) if str(k).startswith("loopbench-")]
            if lost:
                self.redone += len(lost)
                job = self.job_ids.get(self.names.get(msg.get("worker"), ""), "?")
                _say(f"the Dask worker of Slurm job {job} is gone with {len(lost)} run(s) in hand: "
                     "they are redone on the other workers")

    return JobsWatch


class SlurmExecutor(DaskExecutor):
    """The Dask executor on a SLURMCluster: `jobs` runs at once in ceil(jobs / cores) Slurm jobs."""

    def __init__(self, jobs: int = 1, slurm: dict[str, Any] | None = None) -> None:
        import dask
        from dask.distributed import Client
        from dask_jobqueue import SLURMCluster

        if slurm is None:
            raise ValueError("the Slurm executor needs its settings (harness.run.slurm.settings)")
        self.slurm = slurm
        self.jobs = max(1, math.ceil(jobs / slurm["cores"]))
        # One task a thread, none queued on a worker: a run waits at the scheduler, not behind a
        # 30-minute run on a busy worker, and a lost worker had in hand only the runs it was running.
        with dask.config.set({"distributed.scheduler.worker-saturation": 1.0}):
            self.cluster = SLURMCluster(silence_logs=logging.ERROR,
                                        scheduler_options={"dashboard_address": None}, **job_options(slurm))
        self.watch = _jobs_watch()(self.cluster)
        self.cluster.scheduler.add_plugin(self.watch, name="loopbench-jobs")
        self.client = Client(self.cluster)
        self.futures: dict = {}
        self.fatal: str | None = None
        self.ended: list[str] = []  # jobs that ended before the sweep did
        self._failed_starts = 0
        self._stop = threading.Event()
        self._watcher = threading.Thread(target=self._keep_jobs, name="slurm-jobs", daemon=True)

    def run(self, specs: Iterable[dict[str, Any]]) -> Iterator[Result]:
        specs = list(specs)
        # No more jobs than the runs can keep busy.
        self.jobs = max(1, min(self.jobs, math.ceil(len(specs) / self.slurm["cores"])))
        self.cluster.scale(jobs=self.jobs)
        self._watcher.start()
        for result in super().run(specs):
            if self.fatal:
                raise ClusterError(self.fatal)
            yield result

    def _keep_jobs(self) -> None:
        """Every WATCH_S: jobs that squeue no longer runs are replaced by new ones."""
        while not self._stop.wait(WATCH_S):
            states = queue_states()
            if states is None:
                continue
            ended = self.cluster.sync(self._replace_ended, states)
            for name, job_id, state in ended:
                self.ended.append(job_id)
                self._failed_starts = 0 if name in self.watch.started else self._failed_starts + 1
                _say(f"Slurm job {job_id} ended ({state}) before the sweep did; a new job is asked for")
            if ended and self._failed_starts >= FAILED_STARTS and not self.fatal:
                last = log_tail(self.slurm["log_dir"], ended[-1][1])
                self.fatal = (f"{self._failed_starts} Slurm jobs in a row ended before their Dask worker "
                              f"connected; the last one's log {last}")
                self._cancel_all()

    def _cancel_all(self) -> None:
        """Cancel every run of the sweep: wakes the coordinator, which then raises `fatal`."""
        while True:
            try:
                futures = list(self.futures)
                break
            except RuntimeError:  # the coordinator is still submitting: the dict changed size
                time.sleep(0.1)
        self.client.cancel(futures)

    async def _replace_ended(self, states: dict[str, str]) -> list[tuple[str, str, str]]:
        """On the cluster's event loop: drop the jobs squeue says ended, then scale back up under fresh
        names (a new job under an old name could be cancelled by the cluster's cleanup of the old one)."""
        cluster, ended = self.cluster, []
        for name, job in list(cluster.workers.items()):
            job_id = getattr(job, "job_id", None)
            if job_id:
                self.watch.job_ids[str(name)] = job_id
            if job_id and states.get(job_id, "GONE") in ENDED | {"GONE"}:
                del cluster.workers[name]
                cluster.worker_spec.pop(name, None)
                ended.append((str(name), job, states.get(job_id, "no longer in squeue")))
        # A job the cluster itself dropped (its worker lost while Slurm still ran it) is asked for again too.
        missing = set(cluster.worker_spec) - set(cluster.workers)
        if (ended or missing) and not self._stop.is_set():
            cluster.scale(jobs=self.jobs)
        for _, job, _ in ended:
            await job.close()  # scancel: nothing for a job already gone, an end for one stuck ending
        return [(name, job.job_id, state) for name, job, state in ended]

    def close(self, abort: bool = False) -> None:
        self._stop.set()
        if self._watcher.is_alive():
            self._watcher.join()
        super().close(abort)  # closing the cluster cancels its jobs
        _say(f"Slurm: {len(self.watch.started)} job(s) ran a Dask worker, {len(self.ended)} ended before the "
             f"sweep did; {self.watch.redone} run(s) in hand on a lost worker were redone")
