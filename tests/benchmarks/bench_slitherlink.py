"""Slitherlink side by side: `sat` without and with the implied clauses, and `circuit`, in one run.

Run from the repository root: `python tests/benchmarks/bench_slitherlink.py [--every 20]
[--time-limit 60] [--variants sat-plain,sat-implied,circuit]`. Not collected by pytest. The
instances are slither-hard and every `--every`-th puzzle of slither-janko; each is run by every
variant one after another in this process (`execute()`: building, solving and the independent
check), so they see the same load. Time is CPU seconds (time.process_time around the call: the
solvers run in this process), so that other jobs on the machine inflate it little. Printed per
variant: solved and verified, median and slowest CPU s (and which puzzle), then the geometric mean
over the puzzles every variant solved of circuit's time over the variant's (how many times faster
than circuit) and of sat-plain's over sat-implied's.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness import sets  # noqa: E402
from harness.encoding import Limits  # noqa: E402
from harness.run.execute import execute  # noqa: E402

VARIANTS = {
    "sat-plain": ("sat", {"implied": "false"}),
    "sat-implied": ("sat", {"implied": "true"}),
    "circuit": ("circuit", {}),
}


def geomean(values: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=20, help="every N-th slither-janko puzzle")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    variants = args.variants.split(",")
    hard = list(sets.instances("slither-hard"))
    names = {x.name for x in hard}
    sample = [x for x in list(sets.instances("slither-janko"))[:: args.every] if x.name not in names]
    instances = hard + sample
    cpu: dict[str, dict[str, float]] = {v: {} for v in variants}
    for x in instances:
        for variant in variants:
            encoding, options = VARIANTS[variant]
            start = time.process_time()
            row = execute(x, encoding, options, 0, Limits(time_s=args.time_limit))
            if row["status"] == "solved" and row["verified"] == 1:
                cpu[variant][x.name] = time.process_time() - start
        print(f"{x.name} {x.puzzle.rows}x{x.puzzle.cols}: "
              + ", ".join(f"{v} {cpu[v].get(x.name, float('nan')):.2f}" for v in variants), flush=True)
    print(f"\n{len(hard)} slither-hard + {len(sample)} slither-janko (every {args.every}th), "
          f"{args.time_limit:g} s limit, CPU seconds")
    both = [n for n in (x.name for x in instances) if all(n in cpu[v] for v in variants)]
    for variant in variants:
        times = cpu[variant]
        slowest = max(times, key=times.get) if times else "-"
        median = statistics.median(times.values()) if times else float("nan")
        line = (f"{variant:>12}: solved {len(times)}/{len(instances)}, median {median:.3f} s, "
                f"slowest {times.get(slowest, float('nan')):.2f} s ({slowest})")
        if "circuit" in cpu and variant != "circuit":
            faster = geomean([cpu["circuit"][n] / times[n] for n in both])
            line += f", circuit/{variant} geomean {faster:.2f}x"
        print(line)
    if {"sat-plain", "sat-implied"} <= set(variants):
        ratio = geomean([cpu["sat-plain"][n] / cpu["sat-implied"][n] for n in both])
        print(f"sat-plain/sat-implied geomean {ratio:.3f}x over {len(both)} puzzles solved by all")
        for label, group in (("slither-hard", [n for n in both if n in names]),
                             ("janko sample", [n for n in both if n not in names])):
            parts = [f"{v} {geomean([cpu['circuit'][n] / cpu[v][n] for n in group]):.2f}x"
                     for v in variants if v != "circuit" and "circuit" in cpu]
            print(f"  {label} ({len(group)}): circuit/variant geomean " + ", ".join(parts))


if __name__ == "__main__":
    main()
