"""Old against new, the CEGAR round's cost side by side: rounds, rounds per CPU second and the share of a
round spent outside the solver, per graph, for `cegar-split` (what `sat` runs on a graph) on fhcp-sample.

Run from the repository root: `python tests/benchmarks/bench_rounds.py [--old-python
/work/venvs/sweep/bin/python --old-tree /work/sweep-d0abd3a] [--graphs graph41,graph101] [--time-limit 60]`.
Not collected by pytest. Each side is a worker process (the old one with its cwd in the old tree, whose
`harness` and `loopbench_encodings` its venv imports) calling the encoding's `solve` directly, seed 0; the
runs go one at a time, old first on one graph and new first on the next, so the machine's load falls on
both alike. GRAPHS are fhcp-sample graphs the CEGAR configuration solved in 0.2 to 12 s of CPU
(results/fhcp/restart-60s.sqlite) in more than one round, spread over sizes. Printed per graph and side:
status, rounds, cuts, conflicts, CPU seconds of the solve, rounds per CPU second of the search (the
solver's time and the Python's around it, `solver_cpu_s` + `outside_cpu_s`), and the outside share
(`outside_cpu_s` over that); then whether status, rounds, cuts, conflicts and the per-round cuts of the
first rounds the stats keep (a digest) are the same on both sides. Counts do not depend on the load;
CPU times do.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from sides import Side  # this folder's: the scripts run as `python tests/benchmarks/...`

GRAPHS = ("graph41", "graph101", "graph119", "graph200", "graph267", "graph288", "graph298", "graph350",
          "graph429", "graph618", "graph683", "graph789", "graph900")
PRESET = "cegar-split"
OLD_PYTHON, OLD_TREE = "/work/venvs/sweep/bin/python", "/work/sweep-d0abd3a"
SAME = ("status", "iterations", "cuts", "conflicts", "per_round")


def worker() -> None:
    """Answer one JSON request per line with the run's counts and times; what the encodings print goes to
    stderr."""
    from harness import registry, sets
    from harness.encoding import Limits
    from harness.presets import PRESETS

    out, sys.stdout = sys.stdout, sys.stderr
    found = {i.name: i for i in sets.instances("fhcp-sample")}
    preset = PRESETS[PRESET]
    for line in sys.stdin:
        req = json.loads(line)
        puzzle = found[req["name"]].puzzle
        encoding = registry.create(preset.encoding, **preset.options)
        encoding.prepare()
        t0 = time.process_time()
        outcome = encoding.solve(puzzle, Limits(time_s=req["time_s"]), 0)
        cpu = time.process_time() - t0
        stats = outcome.stats
        cuts_per_round = [r[2] for r in stats.get("rounds", [])]
        out.write(json.dumps({
            "status": outcome.status, "iterations": stats.get("iterations", 0), "cuts": stats.get("cuts", 0),
            "conflicts": stats.get("conflicts", 0), "cpu_s": cpu, "solver_s": stats.get("solver_cpu_s", 0.0),
            "outside_s": stats.get("outside_cpu_s", 0.0),
            "per_round": hashlib.sha256(json.dumps(cuts_per_round).encode()).hexdigest()[:8],
            "vertices": puzzle.num_vertices if hasattr(puzzle, "num_vertices") else 0}) + "\n")
        out.flush()


def start_side(python: str, cwd: str) -> Side:
    """This script's worker in `python`'s venv, its cwd `cwd`."""
    return Side(str(Path(__file__).resolve()), python, cwd)


def cells(run: dict) -> str:
    search = run["solver_s"] + run["outside_s"]
    rate = run["iterations"] / search if search else 0.0
    share = run["outside_s"] / search if search else 0.0
    return (f"{run['status']:<7} {run['iterations']:>6} {run['cuts']:>6} {run['conflicts']:>7} "
            f"{run['cpu_s']:>6.2f} {rate:>7.0f} {share:>5.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-python", default=OLD_PYTHON, help="the old tree's venv's python")
    parser.add_argument("--old-tree", default=OLD_TREE, help="the old checkout (the old side's cwd)")
    parser.add_argument("--new-only", action="store_true", help="run this tree only")
    parser.add_argument("--graphs", help=f"comma-separated fhcp-sample graphs (default: {', '.join(GRAPHS)})")
    parser.add_argument("--time-limit", type=float, default=60.0, help="CPU seconds per run")
    args = parser.parse_args()
    root = str(Path(__file__).resolve().parents[2])
    sides = {"new": start_side(sys.executable, root)}
    if not args.new_only:
        sides["old"] = start_side(args.old_python, args.old_tree)
    graphs = args.graphs.split(",") if args.graphs else list(GRAPHS)
    head = f"{'status':<7} {'rounds':>6} {'cuts':>6} {'confl':>7} {'cpu_s':>6} {'rnd/s':>7} {'out':>5}"
    print(f"{PRESET}, seed 0, {args.time_limit:g} s CPU; rnd/s: rounds per CPU second of the search, out: "
          "its share outside the solver")
    print(f"{'graph':<9} {'side':<4} {head}  same")
    same_all, t0 = 0, time.time()
    try:
        for k, name in enumerate(graphs):
            order = list(sides) if k % 2 else list(reversed(sides))  # old first on even rows
            got = {s: sides[s].run({"name": name, "time_s": args.time_limit}) for s in order}
            same = len(got) > 1 and all(got["old"][f] == got["new"][f] for f in SAME)
            same_all += same
            for s in sides:
                mark = ("yes" if same else "NO") if s == "new" and len(got) > 1 else ""
                print(f"{name:<9} {s:<4} {cells(got[s])}  {mark}", flush=True)
    finally:
        for side in sides.values():
            side.close()
    if len(sides) > 1:
        print(f"\n{same_all}/{len(graphs)} graphs the same on both sides (status, rounds, cuts, conflicts, "
              f"per-round cuts); {time.time() - t0:.0f} s wall")


if __name__ == "__main__":
    worker() if sys.argv[1:] == ["--worker"] else main()
