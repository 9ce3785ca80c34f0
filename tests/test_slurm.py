"""Sweeps through a real Slurm on this machine: Debian's munged, slurmctld and slurmd, started here.

A job killed mid-sweep (scancel) loses nothing: its runs are redone, a new job takes its place, and
the sweep's rows (run keys, fingerprints, verified answers, statuses) are a local sweep's.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest
from helpers import alive, cmdline

from harness.analysis import results
from harness.analysis.plots.data import with_config
from harness.analysis.summary import STATUS_COLUMNS, summarize
from harness.run import slurm
from harness.run.cli import main

TOOLS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo")
START_S = 60  # the daemons come up in about a second here; a loaded CI machine gets slack


def _tool(name: str) -> str | None:
    """Where a Slurm or MUNGE program is: the daemons live in /usr/sbin, which a PATH may lack."""
    return shutil.which(name, path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin")


def _why_not() -> str | None:
    """Why this machine cannot run a Slurm of its own, or None."""
    missing = [tool for tool in TOOLS if _tool(tool) is None]
    if missing:
        return (f"needs Debian's Slurm and MUNGE ({', '.join(missing)} not found): apt-get install slurmctld "
                "slurmd slurm-client munge (.ci/run does where apt is available)")
    if os.geteuid() != 0:
        return "starts slurmctld, slurmd and munged as root, and this is not root"
    try:
        import dask_jobqueue  # noqa: F401
    except ImportError:
        return "needs dask-jobqueue (pip install -e '.[dev]' or '.[slurm]')"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _environ(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return b""


def _pids_with(marker: bytes) -> list[int]:
    """Live processes whose environment holds `marker` (a job's processes carry its SLURM_JOB_ID)."""
    return [int(p.name) for p in Path("/proc").iterdir()
            if p.name.isdigit() and marker in _environ(int(p.name)).split(b"\0") and alive(int(p.name))]


class OneNodeSlurm:
    """munged, slurmctld and slurmd in the foreground, in a folder of their own, on loopback ports."""

    def __init__(self, root: Path) -> None:
        self.root, self.conf = root, root / "slurm.conf"
        self.daemons: list[subprocess.Popen] = []

    def start(self) -> None:
        root = self.root
        for sub in ("munge", "state", "spool", "log"):
            (root / sub).mkdir()
        (root / "munge").chmod(0o755)  # munged wants the socket's folder open to all, and the key private
        key = root / "munge" / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o600)
        socket_path = root / "munge" / "munge.socket"
        cpus = os.cpu_count() or 1
        memory_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2 ** 20 // 2
        host = socket.gethostname().split(".")[0]
        self.conf.write_text("\n".join([
            "ClusterName=loopbench", f"SlurmctldHost={host}(127.0.0.1)", "SlurmUser=root", "SlurmdUser=root",
            f"SlurmctldPort={_free_port()}", f"SlurmdPort={_free_port()}",
            "AuthType=auth/munge", "CredType=cred/munge", f"AuthInfo=socket={socket_path}",
            f"StateSaveLocation={root}/state", f"SlurmdSpoolDir={root}/spool",
            f"SlurmctldPidFile={root}/slurmctld.pid", f"SlurmdPidFile={root}/slurmd.pid",
            f"SlurmctldLogFile={root}/log/slurmctld.log", f"SlurmdLogFile={root}/log/slurmd.log",
            # No cgroups: a container's cgroups may not be Slurm's to take.
            "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
            "SelectType=select/cons_tres", "SelectTypeParameters=CR_Core_Memory",
            "JobAcctGatherType=jobacct_gather/none", "AccountingStorageType=accounting_storage/none",
            "MpiDefault=none", "ReturnToService=2", "KillWait=5",
            f"NodeName=loopbench-node NodeHostname={host} NodeAddr=127.0.0.1 CPUs={cpus} "
            f"RealMemory={memory_mb} State=UNKNOWN",
            "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP", "",
        ]))
        env = {**os.environ, "SLURM_CONF": str(self.conf)}  # every job's process carries it: found by it
        self._start(["munged", "--foreground", "--force", f"--key-file={key}", f"--socket={socket_path}",
                     f"--pid-file={root}/munge/munged.pid", f"--log-file={root}/log/munged.log",
                     f"--seed-file={root}/munge/munged.seed"], env)
        deadline = time.monotonic() + START_S
        while not socket_path.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        self._start(["slurmctld", "-D", "-f", str(self.conf)], env)
        self._start(["slurmd", "-D", "-f", str(self.conf), "-N", "loopbench-node"], env)
        os.environ["SLURM_CONF"] = str(self.conf)  # sbatch, squeue and scancel in this process's children
        while time.monotonic() < deadline:
            state = subprocess.run(["sinfo", "--noheader", "--format=%t"], capture_output=True, text=True)
            if state.stdout.strip() == "idle":
                return
            time.sleep(0.2)
        raise RuntimeError(f"the Slurm node did not come up within {START_S} s: {self.logs()}")

    def _start(self, argv: list[str], env: dict[str, str]) -> None:
        name = argv[0]
        with open(self.root / "log" / f"{name}.out", "wb") as out:
            daemon = subprocess.Popen([_tool(name), *argv[1:]], stdout=out, stderr=subprocess.STDOUT, env=env,
                                      start_new_session=True)
        self.daemons.append(daemon)

    def jobs(self) -> dict[str, str]:
        return slurm.queue_states() or {}

    def logs(self) -> str:
        return " | ".join(line for f in sorted((self.root / "log").iterdir())
                          for line in f.read_text(errors="replace").splitlines()[-3:])

    def stop(self) -> list[int]:
        """Cancel every job and stop the daemons; then end, and return, any process they left behind
        (found by the SLURM_CONF every daemon and job process carries) after 30 s of grace."""
        if self.jobs():
            subprocess.run(["scancel", "--user=root"], capture_output=True)
        deadline = time.monotonic() + 30
        while self.jobs() and time.monotonic() < deadline:
            time.sleep(0.2)
        for daemon in reversed(self.daemons):  # slurmd, slurmctld, then munged
            daemon.terminate()
            try:
                daemon.wait(10)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()
        marker = f"SLURM_CONF={self.conf}".encode()
        deadline = time.monotonic() + 30  # an orphaned harness worker looks for its parent every 0.5 s
        while _pids_with(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = _pids_with(marker)
        named = [f"{pid} {cmdline(pid)[:120]!r}" for pid in left]
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        os.environ.pop("SLURM_CONF", None)
        return named


@pytest.fixture(scope="module")  # started once, and stopped as soon as this file's tests are done
def one_node_slurm(tmp_path_factory):
    reason = _why_not()
    if reason:
        pytest.skip(reason)
    cluster = OneNodeSlurm(tmp_path_factory.mktemp("slurm"))
    left = []
    try:
        cluster.start()
        yield cluster
    finally:
        left = cluster.stop()
    assert not left, f"processes outlived the Slurm daemons and their jobs (killed now): {left}"


# Each run's status must not hang on the machine's speed: `sat` answers i324 by its frontier pre-pass,
# whose CPU budget is a sixtieth of the limit (33 ms at 2 s, about what i324 takes, so a loaded CI
# machine timed it out in one sweep and not the other); at 30 s the budget is 14 times what it needs,
# and every run still ends in well under a second.
SWEEP = ["--encoding", "sat,asp", "--instances", "graph-tsplib", "--time-limit", "30",
         "--memory-limit", "1024"]


def _slurm_argv(db: Path, logs: Path, *more: str) -> list[str]:
    return [*SWEEP, "--db", str(db), "--executor", "slurm", "--jobs", "2", "--slurm-interface", "lo",
            "--slurm-walltime", "10", "--slurm-log-dir", str(logs), *more]


def _recorded(db: Path) -> int:
    try:
        with contextlib.closing(sqlite3.connect(db, timeout=1)) as con:
            return con.execute("select count(*) from runs").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_slurm_sweep_survives_its_jobs_cancelled_and_matches_a_local_one(one_node_slurm, tmp_path, capsys):
    db, local_db = tmp_path / "slurm.sqlite", tmp_path / "local.sqlite"
    seen: dict = {"jobs": set()}

    def cancel_the_jobs_mid_sweep():
        # Once a run is stored (a job's worker is up and busy), cancel every job the sweep has, as an
        # administrator or a failing node would: the sweep can then end only on jobs asked for in their
        # place (cancelling one of two let the other finish the sweep before a replacement was submitted).
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            jobs = one_node_slurm.jobs()
            seen["jobs"] |= set(jobs)
            running = sorted((j for j, state in jobs.items() if state == "RUNNING"), key=int)
            busy = {job: [p for p in _pids_with(f"SLURM_JOB_ID={job}".encode())
                          if b"harness.run.worker" in cmdline(p)] for job in running}
            busy = {job: workers for job, workers in busy.items() if workers}  # its worker took a run
            if busy and _recorded(db) >= 1:
                seen["victims"] = sorted(jobs, key=int)
                seen["workers"] = [p for workers in busy.values() for p in workers]
                seen["stored_then"] = _recorded(db)
                subprocess.run(["scancel", *seen["victims"]], check=True)
                break
            time.sleep(0.05)
        while time.monotonic() < deadline:
            jobs = one_node_slurm.jobs()
            fresh = {j for j in jobs if j not in seen["jobs"]}
            if fresh:
                seen["replacement"] = min(fresh, key=int)
                return
            time.sleep(0.1)

    killer = threading.Thread(target=cancel_the_jobs_mid_sweep)
    started = time.monotonic()
    killer.start()
    code = main(_slurm_argv(db, tmp_path / "logs"))
    killer.join()
    slurm_s = time.monotonic() - started
    err = capsys.readouterr().err
    assert code == 0, err
    assert "victims" in seen and seen["stored_then"] < 6, "no job was cancelled mid-sweep"
    assert all(f"Slurm job {victim} ended" in err for victim in seen["victims"]), err
    assert "replacement" in seen, "no new job was asked for in the cancelled one's place"
    redone = int(re.search(r"(\d+) run\(s\) in hand on a lost worker were redone", err)[1])
    assert redone >= 1, err
    # The cancelled job's harness workers end with it (Slurm's signal, or they see their parent gone).
    deadline = time.monotonic() + 30
    while any(alive(p) for p in seen["workers"]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in seen["workers"])

    runs = results.load(db)
    assert len(runs) == runs["run_key"].nunique() == 6  # every run once: a redone one is not stored twice
    assert runs["fingerprint"].notna().all() and runs["harness_fingerprint"].notna().all()
    solved = runs[runs["status"] == "solved"]
    assert len(solved) >= 4 and (solved["verified"] == 1).all()

    assert main([*SWEEP, "--db", str(local_db), "--jobs", "2"]) == 0
    local = results.load(local_db)
    # The same run keys (same puzzles, options, limits and code fingerprints) and the same answers.
    assert set(local["run_key"]) == set(runs["run_key"])
    status = {r.run_key: r.status for r in runs.itertuples()}
    assert {r.run_key: r.status for r in local.itertuples()} == status
    columns = ["runs", *STATUS_COLUMNS]
    assert summarize(with_config(runs), by="config")[columns].equals(
        summarize(with_config(local), by="config")[columns])

    # Resume: the same command finds every run stored and asks Slurm for nothing.
    # Every job asked for so far (a second replacement may still be in the queue): none newer may follow.
    jobs_before = max(int(j) for j in seen["jobs"] | {seen["replacement"]} | set(one_node_slurm.jobs()))
    assert main(_slurm_argv(db, tmp_path / "logs")) == 0
    assert "6 already stored, 0 recorded" in capsys.readouterr().out
    assert all(int(j) <= jobs_before for j in one_node_slurm.jobs())
    print(f"slurm sweep with its jobs cancelled: {slurm_s:.1f} s wall, {redone} run(s) redone, "
          f"job(s) {seen['victims']} cancelled after {seen['stored_then']} stored, "
          f"job {seen['replacement']} in its place")


def test_jobs_that_never_start_stop_the_sweep_with_their_log(one_node_slurm, tmp_path, capsys):
    db = tmp_path / "runs.sqlite"
    code = main(_slurm_argv(db, tmp_path / "logs", "--slurm-prologue", "echo no python here >&2; exit 3"))
    err = capsys.readouterr().err
    assert code == 2
    in_a_row = re.search(r"(\d+) Slurm jobs in a row ended before their Dask worker connected", err)
    assert in_a_row and int(in_a_row[1]) >= slurm.FAILED_STARTS, err
    assert "no python here" in err  # the last job's log, quoted
    assert _recorded(db) == 0
    deadline = time.monotonic() + 30
    while one_node_slurm.jobs() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not one_node_slurm.jobs()


def test_what_sbatch_or_the_sweep_cannot_take_is_one_line_and_exit_2(one_node_slurm, tmp_path, capsys):
    db = tmp_path / "runs.sqlite"
    assert main(_slurm_argv(db, tmp_path / "logs", "--slurm-partition", "nosuch")) == 2
    assert "sbatch refuses the sweep's job" in capsys.readouterr().err
    assert main([*SWEEP, "--db", str(db), "--executor", "slurm", "--slurm-walltime", "0:05"]) == 2
    assert "shorter than one run's wall-time cap" in capsys.readouterr().err
    assert main([*SWEEP, "--db", str(db), "--executor", "slurm", "--slurm-cores", "4",
                 "--slurm-memory", "2G"]) == 2
    assert "less than 4 core(s) x --memory-limit 1024 MB" in capsys.readouterr().err
    assert main([*SWEEP, "--db", str(db), "--executor", "slurm", "--slurm-cores", "0"]) == 2
    assert "--slurm-cores must be positive, not 0" in capsys.readouterr().err
    assert main([*SWEEP, "--db", str(db), "--executor", "slurm", "--slurm-interface", "nosuch0"]) == 2
    assert "'nosuch0' is not a valid network interface" in capsys.readouterr().err
    assert not db.exists() or _recorded(db) == 0


def test_slurm_options_need_the_slurm_executor(tmp_path, capsys):
    assert main([*SWEEP, "--db", str(tmp_path / "r.sqlite"), "--slurm-partition", "short"]) == 2
    assert "--slurm-partition needs --executor slurm" in capsys.readouterr().err


def test_sizes_and_times_read_as_sbatch_reads_them():
    assert [slurm.megabytes(s) for s in ("4000", "4000M", "16G", "16GB", "1T", "2048K")] == [
        4000, 4000, 16384, 16384, 1048576, 2]
    assert [slurm.seconds(t) for t in ("30", "30:15", "02:00:00", "1-0", "1-02:30", "1-00:00:01")] == [
        1800, 1815, 7200, 86400, 95400, 86401]
    for bad in ("16 gigs", "-1"):
        with pytest.raises(ValueError):
            slurm.megabytes(bad)
    with pytest.raises(ValueError):
        slurm.seconds("an hour")
