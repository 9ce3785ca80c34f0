"""Old against new, every preset and loop strategy's solve time side by side on puzzles and graph-hard:
per configuration and set, the geometric mean of new/old CPU time with its 95 % bootstrap interval.

Run from the repository root: `python tests/benchmarks/bench_presets.py [--old-python
/work/venvs/sweep/bin/python --old-tree /work/sweep-d0abd3a] [--configs sat,lazy] [--sets masyu-default]
[--repeat 3] [--time-limit 5] [--csv results/performance/presets-old-new.csv] [--each]`.
Not collected by pytest. Each side is a worker process (the old one with its cwd in the old tree, whose
`harness` and `loopbench_encodings` its venv imports) that resolves the configuration for the
instance's kind as `harness.run` does (`registry.create_for`) and calls its `solve` directly, seed 0.
Each side first solves the set's first instance untimed (a worker's first solve imports the solver,
which a sweep's worker does once); then each instance runs `--repeat` times on each side, the sides
alternating (old first on even repeats), so the machine's load falls on both alike, and a side's time
is its median over the repeats (CPU seconds of `solve`, the worker's and those of the children it waited
for, as a run's `solve_cpu_s` counts a `portfolio`'s members; `harness.encoding.cpu_time`; the puzzle read
before).
Instances where a run does not answer `sat`/`unsat` within the limit, or where the runs' statuses
differ, are counted apart and left out of the ratio (the loops found may differ: a graph has many
Hamiltonian cycles; the sweeps' checker judges answers, not this benchmark). A ratio above 1 is new
slower; `slower` is said only where the whole interval is above 1, `faster` where it is below, `tie`
otherwise. Each set begins with a control row, its first configuration run by the new tree against
itself (a second worker): the spread a ratio shows when nothing changed. Counts (status) do not
depend on the load; CPU times do, on both sides alike.
"""

from __future__ import annotations

import argparse
import csv
import gc
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from sides import Side  # this folder's: the scripts run as `python tests/benchmarks/...`

OLD_PYTHON, OLD_TREE = "/work/venvs/sweep/bin/python", "/work/sweep-d0abd3a"
# every preset and the loop strategies' defaults on puzzles; on graph-hard the configurations whose code
# the loop's shared parts serve there (the `sat` family and `propagator`) and two that stand apart
# (`circuit`, `asp`), and `portfolio` of two of them: `lazy` and `eager` reach few of its graphs in time
PUZZLE_CONFIGS = ("sat", "sat-plain", "lazy", "circuit", "circuit-lp", "propagator", "asp", "eager",
                  "connect")
GRAPH_CONFIGS = ("sat", "cegar", "cegar-free", "arc-model", "asymmetry-split", "propagator", "circuit", "asp",
                 "portfolio")
SETS = {"masyu-default": PUZZLE_CONFIGS, "slither-smoke": PUZZLE_CONFIGS,
        "graph-hard-hamiltonian": GRAPH_CONFIGS}
ANSWERS = ("sat", "unsat")


def worker() -> None:
    """Answer one JSON request per line with the run's status and CPU time; what the encodings print
    goes to stderr."""
    from harness import registry, sets
    from harness.encoding import Limits, cpu_time

    out, sys.stdout = sys.stdout, sys.stderr
    cache: dict[str, dict] = {}
    for line in sys.stdin:
        req = json.loads(line)
        if req["set"] not in cache:
            cache[req["set"]] = {i.name: i for i in sets.instances(req["set"])}
        instance = cache[req["set"]][req["name"]]
        try:
            encoding = registry.create_for(req["config"], instance.kind)
        except (ValueError, KeyError) as err:  # a preset the old tree does not have
            out.write(json.dumps({"status": "absent", "detail": str(err), "cpu_s": 0.0}) + "\n")
            out.flush()
            continue
        encoding.prepare()
        puzzle = instance.puzzle  # read (and kept) before the clock starts: the runner reads it apart too
        # each solve starts with the collector's counts at zero: else a full collection that the solves
        # before it made due falls in this one, costing it as much as a graph-hard solve of milliseconds
        gc.collect()
        # with the children the solve waited for: `portfolio`'s members run in forked processes
        t0 = cpu_time(children=True)
        outcome = encoding.solve(puzzle, Limits(time_s=req["time_s"]), 0)
        cpu = cpu_time(children=True) - t0
        out.write(json.dumps({"status": outcome.status, "cpu_s": cpu}) + "\n")
        out.flush()


def start_side(python: str, cwd: str) -> Side:
    """This script's worker in `python`'s venv, its cwd `cwd`."""
    return Side(str(Path(__file__).resolve()), python, cwd)


def interval(ratios: list[float], rounds: int = 2000, seed: int = 0) -> tuple[float, float, float]:
    """The geometric mean of `ratios` and its 95 % percentile-bootstrap interval (over instances)."""
    logs = [math.log(r) for r in ratios]
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(logs, k=len(logs))) for _ in range(rounds))
    return (math.exp(statistics.fmean(logs)), math.exp(means[int(0.025 * rounds)]),
            math.exp(means[int(0.975 * rounds) - 1]))


def verdict(low: float, high: float) -> str:
    return "slower" if low > 1 else "faster" if high < 1 else "tie"


def instance_names(set_name: str, python: str, cwd: str) -> list[str]:
    """The set's instance names as this side's tree bundles them."""
    code = f"from harness import sets; print(' '.join(i.name for i in sets.instances({set_name!r})))"
    got = subprocess.run([python, "-c", code], cwd=cwd, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": ""})
    return got.stdout.split()


def runs(new: Side, old: Side, repeat: int, request: dict) -> tuple[list[dict], list[dict]]:
    """`repeat` runs of `request` on each side, alternating which goes first; fewer once a run does not
    answer (the instance is apart then, and its repeats would only spend the limit again)."""
    got: tuple[list[dict], list[dict]] = ([], [])
    for k in range(repeat):
        for side in ((1, 0) if k % 2 == 0 else (0, 1)):  # old first on even repeats
            got[side].append((new, old)[side].run(request))
        if any(r["status"] not in ANSWERS for side in got for r in side):
            break
    return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-python", default=OLD_PYTHON, help="the old tree's venv's python")
    parser.add_argument("--old-tree", default=OLD_TREE, help="the old checkout (the old side's cwd)")
    parser.add_argument("--configs", help="comma-separated configurations (default: each set's list)")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated sets (default %(default)s)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per instance and side (default %(default)d)")
    parser.add_argument("--time-limit", type=float, default=5.0,
                        help="CPU seconds per run (default %(default)g)")
    parser.add_argument("--csv", type=Path, help="also write the table here")
    parser.add_argument("--each", action="store_true",
                        help="also print each instance's two medians and their ratio (which graphs move)")
    args = parser.parse_args()
    root = str(Path(__file__).resolve().parents[2])
    sides = {"new": start_side(sys.executable, root), "again": start_side(sys.executable, root),
             "old": start_side(args.old_python, args.old_tree)}
    rows, t0 = [], time.time()
    print(f"new/old CPU time of solve, seed 0, median of {args.repeat} runs per side, {args.time_limit:g} s "
          "limit; geometric mean over the instances every run answered alike (95 % bootstrap interval)")
    print(f"{'set':<24} {'configuration':<26} {'both':>4} {'apart':>5} {'new/old':>8} {'interval':>14}"
          "  verdict")
    try:
        for set_name in args.sets.split(","):
            names = instance_names(set_name, sys.executable, root)
            if names != instance_names(set_name, args.old_python, args.old_tree):
                sys.exit(f"bench_presets: {set_name}: the two trees bundle different instances")
            configs = args.configs.split(",") if args.configs else SETS[set_name]
            # the control: the new tree against itself, a second worker, on the set's first configuration
            plan = [(configs[0], "again", True)] + [(config, "old", False) for config in configs]
            for config, other, control in plan:
                ratios, apart = [], 0
                for side in ("new", other):  # a worker's first solve pays the solver's import: not timed
                    sides[side].run({"set": set_name, "name": names[0], "config": config, "time_s": 1.0})
                for name in names:
                    got = runs(sides["new"], sides[other], args.repeat,
                               {"set": set_name, "name": name, "config": config, "time_s": args.time_limit})
                    statuses = {r["status"] for side in got for r in side}
                    if len(statuses) != 1 or not statuses <= set(ANSWERS):
                        apart += 1
                        continue
                    new, old = (statistics.median(r["cpu_s"] for r in side) for side in got)
                    ratios.append(max(new, 1e-4) / max(old, 1e-4))  # below the clock's tick both are 0
                    if args.each:
                        print(f"  {name:<40} new {new * 1e3:9.2f} ms  {other} {old * 1e3:9.2f} ms  "
                              f"{ratios[-1]:.3f}", flush=True)
                mean, low, high = interval(ratios) if ratios else (math.nan,) * 3
                said = verdict(low, high) if ratios else "-"
                label = f"{config} (control)" if control else config
                rows.append({"set": set_name, "configuration": label, "both": len(ratios), "apart": apart,
                             "new_over_old": f"{mean:.3g}", "low": f"{low:.3g}", "high": f"{high:.3g}",
                             "verdict": said})
                print(f"{set_name:<24} {label:<26} {len(ratios):>4} {apart:>5} {mean:>8.3g} "
                      f"{f'{low:.3g}-{high:.3g}':>14}  {said}", flush=True)
    finally:
        for side in sides.values():
            side.close()
    print(f"{time.time() - t0:.0f} s wall")
    if args.csv:
        with args.csv.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    worker() if sys.argv[1:] == ["--worker"] else main()
