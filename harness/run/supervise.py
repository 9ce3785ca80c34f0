"""Supervisors: each drives one long-lived worker process, enforces limits, turns each run's fate into a row.

The supervisor watches the CPU time since the run began of the worker and of the child processes it
started (`TreeCpu`), the worker's RSS (/proc/PID/status) and the wall clock; past a limit it kills
the worker's whole process group and records `timeout` or `memout`, and the next run starts a fresh
worker. The limits are per part of the run (`worker.Phases`, each announced by a byte on the notify
pipe): a solve's CPU limit (plus `worker.grace_s`) from its own start, a proof check's from its own;
an answer is judged on the encoding's own CPU time (`solve_cpu_s`, `overlay`). A run killed after
its solve (in a proof check or its uniqueness solve) keeps the judged answer the worker wrote when
the solve was over (`interim.json`), the failure in a field of its own. The memory limit is also
held by the kernel (`harness.run.memory`), which does not lose a race with a fast allocator: its OOM
kill (the cgroup's counter says so), a refused allocation or a solver's bad_alloc is a `memout` too;
the row's `memory_guard` says what held the limit and a memout's `memout_by` what stopped it. A
worker that dies on its own is a `crash` with the tail of its stderr (SIGPROF from its own CPU
backstop, `worker.arm_backstop`, is a `timeout`). A worker serves run after run otherwise, so imports are paid
once per worker; it is also replaced when a run leaves it holding LEFT_BEHIND_MB more than when it
was ready (or more than half the memory limit), so that no run's peak RSS includes an earlier run's
leftovers.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from harness import provenance
from harness.outcomes import LATE, Status
from harness.run.cores import affinity, cpu_model
from harness.run.execute import stat_columns
from harness.run.memory import Cgroup, proc_status_kb
from harness.run.worker import PHASE_BYTES, SOLVES, TAIL_CHARS, harness_failed, phase_limits

POLL_S = 0.01  # how often limits are checked; the memory overshoot is what a run allocates in this time
SCAN_S = 0.1  # how often /proc is scanned for a worker's child processes, where no cgroup lists them
START_TIMEOUT_S = 120.0  # a worker's imports take ~0.5 s; a slow shared machine gets plenty of slack
LEFT_BEHIND_MB = 64  # growth past the ready worker's RSS that retires it (five strategies on 25x25: ~30 MB)
TICK = os.sysconf("SC_CLK_TCK")
# An encoding that answers `unknown` having used this share of its CPU budget ran out of time (its own
# clock stopped it a little before the supervisor would have): a `timeout`, whichever encoding it is.
UNKNOWN_AT_LIMIT = 0.98
MEMORY_WORDS = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory")


def wall_cap(time_s: float) -> float:
    """The hang guard above the CPU limit: generous, because wall time inflates under load."""
    return 1.5 * time_s + 5.0


def proc_cpu_s(pid: int) -> float | None:
    """CPU seconds of a process and its waited-for children, from /proc/PID/stat; None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return sum(int(f) for f in fields[11:15]) / TICK  # utime, stime, cutime, cstime


def session_pids(sid: int) -> list[int]:
    """Every process of session `sid` (a worker's: it leads its own), from a scan of /proc (~5 ms)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as stat:
                    if int(stat.read().rsplit(b")", 1)[1].split()[3]) == sid:
                        found.append(int(name))
            except (OSError, IndexError, ValueError):
                pass
    return found


class TreeCpu:
    """CPU seconds of a worker and every process it started, live or waited for: what a run used.

    A child's CPU reaches the worker's own count (cutime) only once it is waited for, so the live
    ones are added: those in the worker's cgroup (`cgroup.procs`, read at each look) or else in its
    session (a scan of /proc every SCAN_S). A process that left both is not seen, but the kill of
    the process group still reaches it unless it made a group of its own. Never decreases.
    """

    def __init__(self, pid: int, group: Cgroup | None) -> None:
        self.pid, self.group = pid, group
        self.pids: list[int] = []
        self.scanned = -SCAN_S
        self.seen = self.waited = 0.0

    def __call__(self) -> float | None:
        own = proc_cpu_s(self.pid)
        if own is None:
            return None
        if self.group is not None:
            with contextlib.suppress(OSError, ValueError):
                self.pids = [int(p) for p in (self.group.path / "cgroup.procs").read_text().split()]
        elif time.monotonic() - self.scanned >= SCAN_S:
            self.pids, self.scanned = session_pids(self.pid), time.monotonic()
        self.seen = max(self.seen, own + sum(proc_cpu_s(p) or 0.0 for p in self.pids if p != self.pid))
        return self.seen

    def run_delay_s(self) -> float:
        """Seconds the worker and its live children waited for a CPU (`proc_run_delay_s`), never less
        than said before: a worker waiting on its child is not hung while the child waits for a CPU."""
        delay = proc_run_delay_s(self.pid) + sum(proc_run_delay_s(p) for p in self.pids if p != self.pid)
        self.waited = max(self.waited, delay)
        return self.waited


def proc_run_delay_s(pid: int) -> float:
    """Seconds the process's main thread has spent runnable but waiting for a CPU (/proc/PID/schedstat).

    0 where the kernel does not say. The wall-time cap leaves this time out: it guards against
    runs that hang, and a run that waits for a CPU on a loaded machine is not hanging.
    """
    try:
        with open(f"/proc/{pid}/schedstat") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def describe(status: int) -> str:
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exited with code {code}"


class WorkerStartError(RuntimeError):
    pass


class CodeChanged(RuntimeError):
    """A worker's code is not the code the sweep planned for: the run is not stored."""


class WorkerProcess:
    """One `python -m harness.run.worker` in its own session, with files for its output and a notify pipe."""

    def __init__(self, preload: list[str] = (), cores: list[int] | None = None) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="loopbench-worker-"))
        self.stdout_path, self.stderr_path = self.dir / "stdout", self.dir / "stderr"
        self.result_path = self.dir / "result.json"
        self.interim_path = self.dir / "interim.json"  # the solve's statistics so far, then its judged answer
        read_end, write_end = os.pipe()
        with open(self.stdout_path, "ab") as out, open(self.stderr_path, "ab") as err:
            # Append mode: the supervisor truncates the files between runs and the worker keeps
            # writing at the (new) end.
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "harness.run.worker", "--dir", str(self.dir),
                 "--notify", str(write_end), "--preload", ",".join(preload),
                 "--cores", ",".join(map(str, cores or []))],
                stdin=subprocess.PIPE, stdout=out, stderr=err,
                start_new_session=True, pass_fds=(write_end,),
            )
        os.close(write_end)  # only the worker holds it: its death closes the pipe
        os.set_blocking(read_end, False)
        self.notify = read_end
        self.status: int | None = None  # wait status once reaped
        self.cgroup: Cgroup | None = None
        self.rusage: Any = None
        self.runs = 0
        try:
            self._wait_ready()
        except WorkerStartError:
            self.close()
            raise
        self.ready_rss_kb = proc_status_kb("VmRSS", str(self.pid))  # imports done, no run yet
        guard = json.loads((self.dir / "guard.json").read_text())
        self.guard = guard["guard"]
        self.cgroup = Cgroup(guard["version"], guard["cgroup"]) if guard["cgroup"] else None
        # Without a reset per run the cgroup's peak may be an earlier run's: then VmHWM alone is judged.
        self.cgroup_peak_own = guard.get("peak_resets", False)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if select.select([self.notify], [], [], 0.05)[0] and b"R" in self.read_notify():
                return
            if self.reap():
                how, tail = describe(self.status), self.stderr_tail()
                raise WorkerStartError(f"the worker {how} while starting: {tail}")
        self.kill()
        raise WorkerStartError(f"the worker did not start within {START_TIMEOUT_S:.0f} s")

    def read_notify(self) -> bytes:
        try:
            return os.read(self.notify, 4096)
        except BlockingIOError:
            return b"?"  # select woke us but nothing to read: not EOF

    def reap(self, block: bool = False) -> bool:
        """True once the worker has exited (status and rusage kept); never waits unless `block`."""
        if self.status is None:
            try:
                pid, status, rusage = os.wait4(self.pid, 0 if block else os.WNOHANG)
            except ChildProcessError:
                pid, status, rusage = self.pid, 0, None
            if pid:
                self.status, self.rusage = status, rusage
                self.proc.returncode = os.waitstatus_to_exitcode(status)  # keep Popen from waiting again
        return self.status is not None

    def kill(self) -> None:
        """SIGKILL the worker's whole process group (solver grandchildren included) and reap it."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while not self.reap() and time.monotonic() < deadline:  # a process in D state must not hang us
            time.sleep(0.005)

    def stderr_tail(self, chars: int = TAIL_CHARS) -> str:
        try:
            with open(self.stderr_path, "rb") as err:
                err.seek(0, os.SEEK_END)
                err.seek(max(0, err.tell() - chars))
                return err.read().decode(errors="replace").strip()
        except OSError:
            return ""

    def close(self) -> None:
        """Kill the worker and remove its folder: an idle worker holds nothing worth a clean exit,
        and an interpreter with the solvers loaded takes ~0.5 s to shut down."""
        self.kill()
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        os.close(self.notify)
        if self.cgroup is not None:
            self.cgroup.remove()
        shutil.rmtree(self.dir, ignore_errors=True)


class Supervisor:
    """Runs specs one at a time on its worker, replacing the worker after a kill or a death.

    `runs_per_worker` retires a worker after that many runs (1 = a fresh interpreter per run,
    the baseline the throughput benchmark compares with).
    """

    def __init__(self, runs_per_worker: int | None = None, cores: list[int] | None = None) -> None:
        self.runs_per_worker = runs_per_worker
        self.cores = cores  # the worker's own cores (harness.run.cores); None: not pinned
        self.worker: WorkerProcess | None = None
        self.seq = 0

    def run(self, spec: dict[str, Any]) -> dict[str, Any]:
        """One run of `spec` (harness.sweep.make_spec) -> its row, with measures and the runner's overlay."""
        try:
            if self.worker is None:
                self.worker = WorkerProcess(spec.get("preload", []), self.cores)
            machine = {"cores": affinity(self.worker.pid), "cpu_model": cpu_model()}  # pinned or not
            started_at = provenance.now()  # after the worker is ready: its start is not the run's
            outcome = {**self._attempt(self.worker, spec), "memory_guard": self.worker.guard}
        except WorkerStartError:
            self.worker = None
            raise  # the harness failed, not the run: nothing is stored, so a re-run retries it
        except BaseException:
            self.retire()  # a harness fault (or an interrupt): the worker's state is unknown
            raise
        if self.worker is not None and (
            self.worker.status is not None
            or (self.runs_per_worker and self.worker.runs >= self.runs_per_worker)
            or self._left_behind(self.worker, spec["memory_mb"])
        ):
            self.retire()
        return {
            **outcome,
            **machine,
            **spec["identity"],
            "time_limit_s": spec["time_s"],
            "memory_limit_mb": spec["memory_mb"],
            "started_at": started_at,
            "finished_at": provenance.now(),
            **provenance.host(),
            **provenance.versions(),
        }

    @staticmethod
    def _left_behind(worker: WorkerProcess, memory_mb: int) -> bool:
        """Whether a run left memory behind that the next runs would count (caches, arenas Python keeps).

        The peak RSS restarts from the current RSS before each run, so leftovers would be added to
        every later run's peak: a 10x10 puzzle measured at 870 MB after a 200x200 one.
        """
        rss_kb = proc_status_kb("VmRSS", str(worker.pid))
        return rss_kb > min(worker.ready_rss_kb + (LEFT_BEHIND_MB << 10), memory_mb << 9)

    def _attempt(self, worker: WorkerProcess, spec: dict[str, Any]) -> dict[str, Any]:
        self.seq += 1
        worker.runs += 1
        for path in (worker.stdout_path, worker.stderr_path):
            os.truncate(path, 0)  # each crash's detail shows its own run's output only
        worker.result_path.unlink(missing_ok=True)
        worker.interim_path.unlink(missing_ok=True)
        request = {key: spec[key] for key in REQUEST_KEYS if key in spec} | {"seq": self.seq}
        group = worker.cgroup
        cpu_of = TreeCpu(worker.pid, group)
        cpu0, delay0 = cpu_of() or 0.0, cpu_of.run_delay_s()
        if group is not None:  # what the kernel says after a kill: was it the cgroup, and the peak
            rss = proc_status_kb("VmRSS", str(worker.pid)) << 10
            oom0, outside = group.oom_kills(), max(0, rss - group.usage())
        # Each part of the run (worker.Phases) has its limits from its own start; the worker says
        # when one begins. `phase_cpu0`: the run's CPU then; the cap is the hang guard per part, its
        # allowance (`delay0`: time spent waiting for a CPU) counted from the part's start as well.
        phase, phase_cpu0, start = "setup", cpu0, time.monotonic()
        phase_start = start
        cap_s = spec.get("wall_cap_s", wall_cap(spec["time_s"]))
        try:
            worker.proc.stdin.write(json.dumps(request).encode() + b"\n")
            worker.proc.stdin.flush()
        except BrokenPipeError:
            pass  # it died between runs; the loop below reaps it and says how
        notify_open, peak_kb, cpu = True, 0, 0.0
        while True:
            if notify_open and select.select([worker.notify], [], [], POLL_S)[0]:
                data = worker.read_notify()
                notify_open = data != b""
                if b"D" in data:
                    return self._answered(worker, spec, time.monotonic() - start)
                for byte in data:
                    if bytes([byte]) in PHASE_NAMES:
                        phase, phase_start = PHASE_NAMES[bytes([byte])], time.monotonic()
                        phase_cpu0 = cpu_of() or phase_cpu0
                        delay0 = cpu_of.run_delay_s()  # the cap's allowance is the part's own too
                        peak_kb = 0 if phase != "solve" else peak_kb  # the peak judged is the solve's
            elif not notify_open:
                time.sleep(POLL_S)
            if worker.reap():
                died = self._died(worker)
                if group is not None and worker.cgroup_peak_own:
                    peak_kb = max(peak_kb, (group.peak() + outside) >> 10)
                if group is not None and group.oom_kills() > oom0:
                    died = {"status": Status.MEMOUT, "memout_by": worker.guard,
                            "detail": f"{describe(worker.status)} by the kernel at the memory limit "
                                      f"(the cgroup's oom_kill counter)"}
                fate = {**died, "wall_s": time.monotonic() - start,
                        "cpu_s": self._total_cpu(worker, cpu0, cpu), "peak_rss_mb": peak_kb / 1024 or None}
                return self._interim(worker, spec, fate, phase) or fate
            cpu = (cpu_of() or cpu0 + cpu) - cpu0
            used = cpu - (phase_cpu0 - cpu0)
            time_s, memory_mb = phase_limits(phase, spec)
            rss_kb = proc_status_kb("VmRSS", str(worker.pid))
            peak_kb = max(peak_kb, proc_status_kb("VmHWM", str(worker.pid)))
            part = "" if phase == "solve" else f" in the run's {phase.replace('_', ' ')}"
            if rss_kb > memory_mb << 10:  # memory first: of two limits crossed in one poll, the urgent one
                reason = (Status.MEMOUT, f"killed at {rss_kb / 1024:.0f} MB RSS{part} (limit {memory_mb} MB)",
                          "")
            elif used >= time_s:
                limit = spec["time_s"] if phase in SOLVES else time_s
                reason = (Status.TIMEOUT, f"killed at {used:.2f} s of CPU{part}, child processes included "
                                          f"(limit {limit:g} s)", "cpu")
            elif time.monotonic() > phase_start + cap_s and (
                waited := cpu_of.run_delay_s() - delay0
            ) < time.monotonic() - (phase_start + cap_s):
                # The cap counts the time the run used or spent blocked, not time it waited for a CPU:
                # on a loaded machine a busy run is judged by its CPU and memory, a hung one by the cap.
                reason = (Status.TIMEOUT, f"killed at the wall-time cap of {cap_s:.1f} s{part} (CPU "
                                          f"{used:.2f} s, {waited:.2f} s waiting for a CPU not counted)",
                          "wall")
            else:
                continue
            worker.kill()
            if group is not None and worker.cgroup_peak_own:
                peak_kb = max(peak_kb, (group.peak() + outside) >> 10)
            fate = {
                "status": reason[0],
                "detail": reason[1],
                **({"memout_by": "poll"} if reason[0] == Status.MEMOUT else {"timeout_by": reason[2]}),
                "wall_s": time.monotonic() - start,
                "cpu_s": self._total_cpu(worker, cpu0, cpu),
                "peak_rss_mb": max(peak_kb, rss_kb) / 1024,
            }
            return self._interim(worker, spec, fate, phase) or fate

    def _interim(self, worker: WorkerProcess, spec: dict[str, Any],
                 fate: dict[str, Any], phase: str) -> dict[str, Any] | None:
        """The judged answer the worker wrote once its solve was over, if the run ended after that.

        The answer stands (judged by `overlay` on the solve's own CPU time and peak); what ended the
        harness's work after it (`phase`: a proof check, a uniqueness solve) is said in a field of
        its own (`worker.harness_failed`). A run that ended before its answer keeps the statistics its
        solve reported so far (`worker.Progress`), with the solve's CPU time when it reported them
        (`progress_cpu_s`). None when the worker wrote neither.
        """
        try:
            answer = json.loads(worker.interim_path.read_text())
        except (OSError, ValueError):
            return None
        if answer.get("seq") != self.seq:
            return None
        if "row" not in answer:
            return {**fate, **stat_columns(answer["stats"]), "progress_cpu_s": answer["progress_cpu_s"]}
        row = harness_failed(answer["row"], phase, fate["status"], fate["detail"])
        measures = {"wall_s": fate["wall_s"], "cpu_s": fate["cpu_s"], "peak_rss_mb": answer["peak_rss_mb"],
                    f"{phase}_peak_rss_mb": fate["peak_rss_mb"], **answer.get("apart", {})}
        return overlay({**row, **measures}, spec)

    @staticmethod
    def _total_cpu(worker: WorkerProcess, cpu0: float, polled: float) -> float:
        if worker.rusage is None:
            return polled
        return max(polled, worker.rusage.ru_utime + worker.rusage.ru_stime - cpu0)

    def _answered(self, worker: WorkerProcess, spec: dict[str, Any], wall_s: float) -> dict[str, Any]:
        answer = json.loads(worker.result_path.read_text())
        if answer["seq"] != self.seq:
            raise RuntimeError(f"worker {worker.pid} answered request {answer['seq']}, not {self.seq}")
        for column in ("fingerprint", "harness_fingerprint"):
            theirs, ours = answer["row"].get(column), spec["identity"].get(column)
            if theirs and ours and theirs != ours:
                raise CodeChanged(f"worker {worker.pid} runs code with {column} {theirs}, the sweep planned "
                                  f"{ours}: the code changed during the sweep; run the sweep again")
        measures = {"wall_s": wall_s, "cpu_s": answer["cpu_s"], "peak_rss_mb": answer["peak_rss_mb"]}
        return overlay({**answer["row"], **measures}, spec)

    @staticmethod
    def _died(worker: WorkerProcess) -> dict[str, Any]:
        """What a worker that ended on its own says about its run: status and detail."""
        how, tail = describe(worker.status), worker.stderr_tail()
        code = os.waitstatus_to_exitcode(worker.status)
        if code == -signal.SIGPROF:
            return {"status": Status.TIMEOUT, "detail": f"{how} (the worker's CPU-time backstop)",
                    "timeout_by": "cpu"}
        elif any(word in tail for word in MEMORY_WORDS):  # an allocation refused in a native solver
            return {"status": Status.MEMOUT, "detail": f"{how}: {tail}", "memout_by": "solver"}
        else:
            status, detail = Status.CRASH, f"{how}: {tail}" if tail else how
        return {"status": status, "detail": detail}

    def retire(self) -> None:
        if self.worker is not None:
            self.worker.close()
            self.worker = None

    close = retire


# What travels to the worker; `identity` and the caps stay with the supervisor.
REQUEST_KEYS = ("name", "source", "text", "known_solution", "known_answer", "encoding", "options",
                "seed", "time_s", "memory_mb", "code", "unique", "harness_code",
                "check_time_s", "check_memory_mb")
PHASE_NAMES = {byte: name for name, byte in PHASE_BYTES.items()}


def overlay(row: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    """The runner's word over the encoding's: past the CPU or memory limit, a run is a timeout or memout.

    One clock: the limit is CPU time, so a run is judged by the CPU its encoding used
    (`solve_cpu_s`: from the call of solve() to its return; `cpu_s`, the whole run, for a row
    without it), never by the wall time it took nor by the harness's own work (reading, checking,
    a uniqueness solve). An answer that arrives after the limit is not a success (the
    runner, not the encoding, owns the limits, and a result must be obtained within them):
    the late verdict is kept in `extra`-bound keys, the solution column stays empty. An `unknown`
    that used its CPU budget is a `timeout`; one that gave up with CPU budget left stays `unknown`.
    """
    time_s, memory_mb = spec["time_s"], spec["memory_mb"]
    status = row["status"]
    cpu_s = row["solve_cpu_s"] if row.get("solve_cpu_s") is not None else row["cpu_s"]
    late = None
    if status in LATE and cpu_s > time_s:  # a wrong answer stays wrong
        late = (Status.TIMEOUT, f"used {cpu_s:.2f} s of CPU, over the {time_s:g} s limit", "cpu")
    elif status == Status.UNKNOWN and cpu_s >= UNKNOWN_AT_LIMIT * time_s:
        late = (Status.TIMEOUT, f"gave up having used {cpu_s:.2f} s of its {time_s:g} s CPU budget", "budget")
    elif status not in (Status.ERROR, Status.MEMOUT) and row["peak_rss_mb"] > memory_mb:
        late = (Status.MEMOUT, f"peak RSS {row['peak_rss_mb']:.0f} MB, over the {memory_mb} MB limit", "")
    if late is None:
        return row
    said = f"{status}: {row['detail']}" if row.get("detail") else status
    return {
        **row,
        "status": late[0],
        "detail": f"{late[1]}; the encoding said {said}",
        "solution": "",
        "verified": None,
        "matches_known": None,
        "unique": None,
        **({"timeout_by": late[2]} if late[0] == Status.TIMEOUT else {}),
        "late_status": status,
        "late_solution": row.get("solution", ""),
    }


class SupervisorPool:
    """Supervisors shared by threads: a thread borrows an idle one per run, so N threads keep N workers."""

    def __init__(self, runs_per_worker: int | None = None, core_sets: list[list[int]] | None = None) -> None:
        self.runs_per_worker = runs_per_worker
        self.core_sets = core_sets or []  # one per supervisor, each its worker's own cores
        self._idle: list[Supervisor] = []
        self._all: list[Supervisor] = []
        self._lock = threading.Lock()

    def run(self, spec: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            if self._idle:
                supervisor = self._idle.pop()
            else:
                cores = self.core_sets[len(self._all)] if len(self._all) < len(self.core_sets) else None
                supervisor = Supervisor(self.runs_per_worker, cores)
                self._all.append(supervisor)
        try:
            return supervisor.run(spec)
        finally:
            with self._lock:
                self._idle.append(supervisor)

    def kill_all(self) -> None:
        """Stop every run in flight now (an interrupted sweep): their threads see the deaths and return."""
        with self._lock:
            for supervisor in self._all:
                worker = supervisor.worker
                if worker is not None and worker.status is None:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(worker.pid, signal.SIGKILL)

    def close(self) -> None:
        with self._lock:
            for supervisor in self._all:
                supervisor.close()
            self._all.clear()
            self._idle.clear()


_shared: SupervisorPool | None = None
_shared_lock = threading.Lock()


def run_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one spec on this process's shared pool: the task a Dask worker executes."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = SupervisorPool()
            atexit.register(_shared.close)
    return _shared.run(spec)
