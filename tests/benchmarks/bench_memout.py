"""How far a fast allocator gets past the memory limit: the supervisor's poll alone vs the kernel's hold.

Run from the repository root: `python tests/benchmarks/bench_memout.py [--limit 400] [--repeats 5]
[--load 2]`. Not collected by pytest. Each run is the dummy encoding's unbounded `alloc` (16 MB
blocks, every page touched: page faults are the cost, so this is about as fast as the machine
hands out memory) in a real worker under a supervisor, with the memory guard forced through
LOOPBENCH_MEMORY_GUARD: `poll` (nothing in the kernel: the supervisor's 10 ms RSS poll kills),
`rlimit` (RLIMIT_DATA in the worker) and `auto` (the worker's own cgroup where the machine allows
one). With `--load N`, N CPU-bound processes run alongside, as on a busy machine. Printed per
guard: limit, the median and the worst peak recorded (VmHWM at the kill, or the cgroup's peak),
overshoot % over the limit, the statuses and what stopped the runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness import registry  # noqa: E402
from harness.instances import load_file  # noqa: E402
from harness.run.memory import GUARD_ENV  # noqa: E402
from harness.run.supervise import Supervisor  # noqa: E402
from harness.run.sweep import Sweep, make_spec  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=400, help="memory limit, MB")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--load", type=int, default=0, help="CPU-bound processes to run alongside")
    parser.add_argument("--guards", default="poll,rlimit,auto")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "empty2.txt"
        path.write_text("2 2\n- -\n- -\n")
        instance = load_file(str(path))
    sweep = Sweep(instances=[instance], encodings=["dummy"], time_s=60.0, memory_mb=args.limit)
    spec = make_spec(sweep, instance, "dummy", registry.create("dummy", behave="alloc").options, 0)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)]
    try:
        print(f"limit {args.limit} MB, {args.repeats} runs per guard, "
              f"{args.load} CPU-bound processes alongside")
        print(f"{'guard':>8} {'held by':>12} {'limit MB':>9} {'median peak':>12} {'worst peak':>11} "
              f"{'overshoot %':>12}  statuses / stopped by")
        for guard in args.guards.split(","):
            os.environ[GUARD_ENV] = guard
            peaks, statuses, by, held = [], [], set(), set()
            for _ in range(args.repeats):
                supervisor = Supervisor()
                try:
                    row = supervisor.run(spec)
                finally:
                    supervisor.close()
                peaks.append(row["peak_rss_mb"])
                statuses.append(row["status"])
                by.add(row.get("memout_by", "-"))
                held.add(row["memory_guard"])
            worst = max(peaks)
            median = statistics.median(peaks)
            print(f"{guard:>8} {','.join(sorted(held)):>12} {args.limit:>9} {median:>12.0f} "
                  f"{worst:>11.0f} {100 * (worst - args.limit) / args.limit:>12.1f}  "
                  f"{','.join(sorted(set(statuses)))} / {','.join(sorted(by))}")
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


if __name__ == "__main__":
    main()
