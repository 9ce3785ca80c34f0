"""A long-lived worker process that serves run requests one at a time (`python -m harness.run.worker`).

Channel: requests arrive as JSON lines on stdin (tiny, and the worker reads each only when idle);
each answer is written to `DIR/result.json` through a temporary file renamed into place, and
then one byte on the notify pipe wakes the supervisor. The supervisor waits on that pipe with
`select` and a timeout, so it never blocks on a worker that died, hangs or floods its output;
the answer itself is a file written atomically, so a worker killed mid-write leaves no torn
message. stdout and stderr are files the supervisor owns (solver logs, faulthandler dumps).

Once its imports are done the worker puts its memory under the kernel's hold (`harness.run.memory`:
a cgroup of its own, else RLIMIT_DATA) and says which in `DIR/guard.json`. Per run it resets its
peak RSS (`clear_refs`), sets that run's memory limit in the kernel, raises its own soft
RLIMIT_CPU to used + `cpu_budget` + 1 s (a backstop: the supervisor kills at the limit first), and
reports getrusage deltas and VmHWM. A run that asks uniqueness writes its verified answer to
`DIR/interim.json` before the second solve, so that a second solve killed by a limit leaves the
first answer to the supervisor.
"""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import json
import math
import os
import resource
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
from harness.instances import Instance
from harness.run.execute import execute
from harness.run.memory import Guard, proc_status_kb, set_soft_limit

TAIL_CHARS = 2000  # how much of a crash's traceback goes into `detail`


def cpu_budget(time_s: float, unique: bool = False) -> float:
    """The CPU a whole run may use before it is killed: the limit once per solve (the uniqueness
    solve has a budget of its own), plus slack for the harness's own work in the run (reading the
    puzzle, the checker), which the limit does not count: an encoding is judged on `solve_cpu_s`."""
    return (2 if unique else 1) * time_s + 0.5 + 0.02 * time_s


def reset_peak_rss() -> None:
    """Make VmHWM restart from the current RSS, so each run's peak is its own."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        pass  # not Linux, or a kernel without it: the peak then spans the worker's life


def serve(request: dict[str, Any], guard: Guard, interim: Path | None = None) -> dict[str, Any]:
    """Run one request under the kernel's memory limit and a CPU backstop; always answers, never raises.

    `interim`: where a verified answer is written before a uniqueness solve (None: nowhere).
    """
    time_s, memory_mb = request["time_s"], request["memory_mb"]
    unique = request.get("unique", False)
    reset_peak_rss()
    cpu0 = cpu_time(children=True)
    set_soft_limit(resource.RLIMIT_CPU, math.ceil(cpu0 + cpu_budget(time_s, unique)) + 1)
    guard.hold(memory_mb)

    def answered(row: dict[str, Any]) -> None:
        if interim is not None:
            answer = {"seq": request["seq"], "row": row, "cpu_s": cpu_time(children=True) - cpu0,
                      "peak_rss_mb": proc_status_kb("VmHWM") / 1024}
            with WRITING:
                write_atomically(interim, json.dumps(answer, default=str))

    try:
        puzzle = kinds.read_text(request["text"], request["source"])
        instance = Instance(request["name"], request["source"], puzzle,
                            known_solution=request.get("known_solution", ""),
                            known_answer=request.get("known_answer", ""))
        limits = Limits(time_s=time_s, memory_mb=memory_mb)  # execute starts the CPU clock at solve()
        row = execute(instance, request["encoding"], request["options"], request["seed"], limits,
                      code=request.get("code"), unique=unique, answered=answered,
                      harness_code=request.get("harness_code"))
    except MemoryError:
        # Keep this branch allocation-free until the except ends and the hoard is released.
        row = {"status": "memout", "detail": "MemoryError (an allocation the kernel refused)"}
    except BaseException:  # noqa: B036 - a solver calling sys.exit is a crash of its run, not of us
        row = {"status": "crash", "detail": traceback.format_exc()[-TAIL_CHARS:]}
    finally:
        set_soft_limit(resource.RLIMIT_CPU, resource.RLIM_INFINITY)
        guard.release()
    if row["status"] == "memout":
        row["memout_by"] = guard.how
    return {
        "seq": request["seq"],
        "row": row,
        "cpu_s": cpu_time(children=True) - cpu0,
        "peak_rss_mb": max(proc_status_kb("VmHWM") << 10, guard.peak_bytes()) / (1 << 20),
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
    args = parser.parse_args(argv)
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
            answer = serve(json.loads(line), guard, folder / "interim.json")
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
