"""A long-lived worker process that serves run requests one at a time (`python -m harness.run.worker`).

Channel: requests arrive as JSON lines on stdin (tiny, and the worker reads each only when idle);
each answer is written to `DIR/result.json` through a temporary file renamed into place, and
then one byte on the notify pipe wakes the supervisor. The supervisor waits on that pipe with
`select` and a timeout, so it never blocks on a worker that died, hangs or floods its output;
the answer itself is a file written atomically, so a worker killed mid-write leaves no torn
message. stdout and stderr are files the supervisor owns (solver logs, faulthandler dumps).

Once its imports are done the worker puts its memory under the kernel's hold (`harness.run.memory`:
a cgroup of its own, else RLIMIT_DATA) and says which in `DIR/guard.json`. A run has parts
(`Phases`: setup, the solve, the checks, a uniqueness solve), each with limits of its own counted
from its start: per part the worker resets its peak RSS (`clear_refs`, and the cgroup's peak where
the kernel allows), sets the part's memory limit in the kernel, arms its CPU backstop
(`arm_backstop`: the supervisor kills at the limit first), sends the part's byte on the notify pipe
and, when it ends, records its CPU time and peak. The run's
`peak_rss_mb` is its solve's: the harness's work is measured apart (`check_peak_rss_mb`, ...).
Every run writes its judged answer to `DIR/interim.json` as soon as the solve is over, so that a
run killed or failing in the harness's work after it (proof check, uniqueness solve) keeps it.
Before that, the same file holds the statistics the solve reported so far (`Limits.report`,
`Progress`), so a run killed in its solve (a chunk past its limit) keeps those.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import importlib
import json
import math
import os
import shutil
import signal
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

from harness import kinds
from harness.encoding import Limits, cpu_time
from harness.extra import row_extra, write_extra
from harness.instances import Instance
from harness.outcomes import Status
from harness.run.cores import pin
from harness.run.execute import execute
from harness.run.memory import Guard

TAIL_CHARS = 2000  # how much of a crash's traceback goes into `detail`
PROGRESS_EVERY_S = 0.05  # CPU seconds between two writes of a solve's statistics so far (`Progress`)


# The parts of a run, each measured and limited apart (`Phases`); the supervisor learns of each from
# one byte on the notify pipe, and the setup (reading the puzzle, making the encoding) needs none.
PHASE_BYTES = {"solve": b"S", "judge": b"J", "check": b"C", "unique": b"U", "unique_check": b"K"}
SOLVES = ("solve", "unique")  # the encoding's own work; the rest is the harness's


def grace_s(time_s: float) -> float:
    """CPU past a solve's limit before it is killed: room for an encoding that stops itself at the
    limit to hand its answer over (judged late by `overlay` all the same)."""
    return 0.1 + 0.02 * time_s


# The backstop counts on the kernel's own clock of this process's CPU (ITIMER_PROF's, which RLIMIT_CPU
# reads too), from the part's start, with room: that clock and getrusage (every measure of a run) drift
# apart where a core is shared (on this project's VM, beside two sweeps, it ran 17 % behind getrusage
# over 30 s). An RLIMIT_CPU set to getrusage's total + the limit + 1 s, the backstop before 2026-12-07,
# ended hundreds of the runs in results/ before their limit by getrusage, one at 39 s of 60 (results/
# README.md, `python results/backstop_kills.py`): the total it was set from spans the worker's whole
# life, so the drift could grow run after run while the room stayed one run's.
BACKSTOP_FACTOR = 2.0


def arm_backstop(cpu_s: float | None) -> None:
    """SIGPROF, which ends the worker, once it has used BACKSTOP_FACTOR * cpu_s + 1 more seconds of CPU
    on the kernel's clock (every thread's); None disarms it. Not inherited by a child process."""
    signal.setitimer(signal.ITIMER_PROF, 0.0 if cpu_s is None else BACKSTOP_FACTOR * cpu_s + 1.0)


def phase_limits(phase: str, request: dict[str, Any]) -> tuple[float, int]:
    """The CPU seconds and MB a part of a run may use, counted from its start: a solve gets the run's
    limits (and a grace), so do the setup and the judging of its answer (the checker, writing it down:
    an answer must not be lost to a tighter limit); the proof checks get `check_time_s` and
    `check_memory_mb` (default the run's)."""
    time_s, memory_mb = request["time_s"], request["memory_mb"]
    if phase in SOLVES:
        return time_s + grace_s(time_s), memory_mb
    if phase in ("check", "unique_check"):
        return request.get("check_time_s") or time_s, request.get("check_memory_mb") or memory_mb
    return time_s, memory_mb


def reset_peak_rss() -> None:
    """Make VmHWM restart from the current RSS, so each run's peak is its own."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        pass  # not Linux, or a kernel without it: the peak then spans the worker's life


class Phases:
    """The parts of one run as the worker lives them: each restarts the peak, sets its limits in the
    kernel (memory) and a CPU backstop (`arm_backstop`), tells the supervisor, and is measured on its end."""

    def __init__(self, request: dict[str, Any], guard: Guard, notify: int | None) -> None:
        self.request, self.guard, self.notify = request, guard, notify
        self.measured: dict[str, dict[str, Any]] = {}
        self.name: str | None = None
        self.enter("setup")

    def enter(self, name: str) -> None:
        self.end()
        cpu_s, memory_mb = phase_limits(name, self.request)
        reset_peak_rss()
        self.guard.hold(memory_mb)
        # A backstop only: the supervisor kills at the limit first, counting child processes too.
        arm_backstop(cpu_s)
        self.name, self.cpu0 = name, cpu_time(children=True)
        if self.notify is not None and name in PHASE_BYTES:
            os.write(self.notify, PHASE_BYTES[name])

    def end(self) -> None:
        if self.name is not None and self.name not in self.measured:
            self.measured[self.name] = {"cpu_s": cpu_time(children=True) - self.cpu0, **self.guard.peaks()}

    def run_peak(self) -> float:
        """The run's own peak: its solve's (or of the setup, for a run that never reached it)."""
        return max(self.measured.get(name, {}).get("peak_rss_mb", 0.0) for name in ("setup", "solve"))

    def apart(self) -> dict[str, Any]:
        """The harness's parts measured apart, for `extra`: their CPU time, peak and limits."""
        said = {}
        for name in ("check", "unique", "unique_check"):
            if name in self.measured:
                said[f"{name}_cpu_s"] = self.measured[name]["cpu_s"]
                said[f"{name}_peak_rss_mb"] = self.measured[name]["peak_rss_mb"]
        said["check_time_limit_s"], said["check_memory_limit_mb"] = phase_limits("check", self.request)
        cgroup = self.measured.get("solve", {}).get("cgroup_peak_mb")
        if cgroup is not None and not self.guard.peak_resets:  # apart, never judged (`Guard.peaks`)
            said["cgroup_peak_mb"] = cgroup
        return said


class Progress:
    """`Limits.progress` in the worker: a solve's statistics so far, written to `interim.json` (with
    the solve's CPU time then, `progress_cpu_s`) at most every PROGRESS_EVERY_S of CPU, so a run the
    supervisor kills in its solve keeps them; stopped once the solve is over, when the judged answer
    takes the file (a uniqueness solve's statistics never replace it)."""

    def __init__(self, path: Path, seq: int, phases: Phases) -> None:
        self.path, self.seq, self.phases = path, seq, phases
        self.last, self.on = -math.inf, True

    def __call__(self, stats: dict[str, Any]) -> None:
        now = cpu_time(children=True)
        if not self.on or now - self.last < PROGRESS_EVERY_S:
            return
        self.last = now
        text = json.dumps({"seq": self.seq, "stats": stats, "progress_cpu_s": now - self.phases.cpu0},
                          default=str)
        with WRITING, contextlib.suppress(OSError):  # statistics lost are no reason to lose the run
            write_atomically(self.path, text)


def harness_failed(row: dict[str, Any], phase: str, status: str, detail: str) -> dict[str, Any]:
    """An answered run's row after the harness's work on it (`phase`) failed: the answer stands, the
    failure is said in a field of its own (`check_error` with the proof `unchecked`, or `unique`
    empty with `unique_error`)."""
    extra = row_extra(row)
    what = f"{status}: {detail}"
    if phase == "unique":
        extra["unique_error"] = what
        said = f"uniqueness unknown: the second solve ended in {what}"
        row = {**row, "unique": None, "detail": "; ".join(filter(None, [row.get("detail"), said]))}
    elif phase in ("check", "unique_check"):  # a verdict the check reached past its limits does not stand
        prefix = "unique_" if phase == "unique_check" else ""
        extra[prefix + "check_error"] = what
        extra[prefix + "proof"] = f"unchecked: the check ended in {what}"
    else:
        extra[f"{phase}_error"] = what
    return {**row, "extra": write_extra(extra)}


def serve(request: dict[str, Any], guard: Guard, interim: Path | None = None,
          notify: int | None = None) -> dict[str, Any]:
    """Run one request, each part under its limits (`Phases`); always answers, never raises.

    `interim`: where the judged answer is written as soon as the solve is over (None: nowhere), so
    that a run killed in the harness's work after it keeps its answer; `notify`: the supervisor's pipe.
    """
    time_s, memory_mb = request["time_s"], request["memory_mb"]
    unique = request.get("unique", False)
    cpu0 = cpu_time(children=True)
    phases = Phases(request, guard, notify)
    progress = Progress(interim, request["seq"], phases) if interim is not None else None
    kept: dict[str, Any] = {}

    def answered(row: dict[str, Any]) -> None:
        kept["row"] = row  # the solve's measures are final: it ended when the judging began
        if progress is not None:
            progress.on = False
            answer = {"seq": request["seq"], "row": row, "cpu_s": cpu_time(children=True) - cpu0,
                      "peak_rss_mb": phases.run_peak(), "apart": phases.apart()}
            with WRITING:
                write_atomically(interim, json.dumps(answer, default=str))

    try:
        puzzle = kinds.read_text(request["text"], request["source"])
        instance = Instance(request["name"], request["source"], puzzle,
                            known_solution=request.get("known_solution", ""),
                            known_answer=request.get("known_answer", ""))
        # execute starts the CPU clock at solve()
        limits = Limits(time_s=time_s, memory_mb=memory_mb, progress=progress)
        row = execute(instance, request["encoding"], request["options"], request["seed"], limits,
                      code=request.get("code"), unique=unique, answered=answered,
                      harness_code=request.get("harness_code"), phase=phases.enter,
                      check_time_s=phase_limits("check", request)[0], resolved=True)
    except MemoryError:
        # Keep this branch allocation-free until the except ends and the hoard is released.
        row = {"status": Status.MEMOUT, "detail": "MemoryError (an allocation the kernel refused)"}
    except BaseException:  # noqa: B036 - a solver calling sys.exit is a crash of its run, not of us
        row = {"status": Status.CRASH, "detail": traceback.format_exc()[-TAIL_CHARS:]}
    finally:
        phases.end()
        arm_backstop(None)
        guard.release()
    if row["status"] == Status.MEMOUT:
        row["memout_by"] = guard.how
    if "row" in kept and row is not kept["row"] and "run_key" not in row:
        # The harness's work after the answer failed (a checker's MemoryError, a crash in the
        # uniqueness solve): the answer stands, the failure has a field of its own.
        said = {k: v for k, v in row.items() if k != "status"}
        row = harness_failed(kept["row"], phases.name, row["status"], said.get("detail", ""))
    return {
        "seq": request["seq"],
        "row": {**row, **phases.apart()},
        "cpu_s": cpu_time(children=True) - cpu0,
        "peak_rss_mb": phases.run_peak(),
    }


def write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


# Held while an answer is written, and by the parent watchdog from removing the folder to the kill,
# so that a run finishing just then cannot write a file into the folder being removed.
WRITING = threading.Lock()
GUARD = Guard("poll")  # replaced once the imports are done


def watch_parent(parent: int, folder: Path) -> None:
    """Kill this worker's process group once its supervisor is gone (SIGKILLed coordinator, lost node)."""
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            WRITING.acquire()  # never released: the kill below ends the process
            shutil.rmtree(folder, ignore_errors=True)  # nobody is left to remove it
            if GUARD.cgroup is not None:
                GUARD.cgroup.leave()  # nor this
            os.killpg(0, signal.SIGKILL)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="harness.run.worker", description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="folder for result.json")
    parser.add_argument("--notify", type=int, required=True, help="pipe fd: one byte per answer")
    parser.add_argument("--preload", default="", help="comma-separated modules to import at start")
    parser.add_argument("--cores", default="", help="comma-separated cores to run on (default: as started)")
    args = parser.parse_args(argv)
    pin([int(core) for core in args.cores.split(",") if core])  # first: threads started later inherit it
    folder = Path(args.dir)
    faulthandler.enable(all_threads=False)  # a segfault or abort leaves the running stack in stderr
    threading.Thread(target=watch_parent, args=(os.getppid(), folder), daemon=True).start()

    # The sweep's solver packages, imported once per worker so no run pays for them (a fresh
    # interpreter importing them costs ~0.5 s); only the sweep's, so its runs' memory is theirs.
    for module in filter(None, args.preload.split(",")):
        importlib.import_module(module)
    global GUARD
    GUARD = guard = Guard.choose()  # after the imports: the memory they hold is not a run's
    write_atomically(folder / "guard.json", json.dumps(guard.describe()))
    result = folder / "result.json"
    try:
        os.write(args.notify, b"R")
        for line in sys.stdin.buffer:
            answer = serve(json.loads(line), guard, folder / "interim.json", args.notify)
            with WRITING:
                write_atomically(result, json.dumps(answer, default=str))
            sys.stdout.flush()
            sys.stderr.flush()
            os.write(args.notify, b"D")
    except (BrokenPipeError, FileNotFoundError):
        pass  # nobody reads the notify pipe, or the parent watchdog removed the folder: no supervisor
    # End of input without being killed: the supervisor is gone (a supervisor that closes us kills us).
    shutil.rmtree(folder, ignore_errors=True)
    if guard.cgroup is not None:
        guard.cgroup.leave()
    return 0


if __name__ == "__main__":
    sys.exit(main())
