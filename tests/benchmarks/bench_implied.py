"""What Masyu's implied pearl constraints do to each backend: `implied=true` against `false`, interleaved.

Run from the repository root: `python tests/benchmarks/bench_implied.py [--instances
masyu-pm-hard-large] [--encodings circuit,asp,sat] [--limit 20]`. Not collected by pytest. In this
process, per instance (the first `--limit` of the set) and encoding, one solve with each setting,
alternating which goes first; the CPU time (`time.process_time`) of the solve call and the
solver's conflicts. Printed per encoding: median CPU time and conflicts with each setting and the
geometric mean of false / true CPU time (>1: the implied constraints make it faster).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from harness import registry, sets
from harness.analysis.ranking import paired_speedup
from harness.encoding import Limits


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--instances", default="masyu-pm-hard-large")
    p.add_argument("--encodings", default="circuit,asp,sat")
    p.add_argument("--limit", type=int, default=20, help="instances taken from the set (0: all)")
    p.add_argument("--time-limit", type=float, default=60.0)
    args = p.parse_args()

    instances = [i for i in sets.instances(args.instances) if i.puzzle is not None]
    instances = instances[: args.limit] if args.limit else instances
    for name in args.encodings.split(","):
        solvers = {v: registry.create(name, implied=v) for v in ("true", "false")}
        for solver in solvers.values():
            solver.prepare()
            solver.solve(instances[0].puzzle, Limits(args.time_limit), 0)  # first-call costs paid here
        cpu: dict[str, list[float]] = {"true": [], "false": []}
        conflicts: dict[str, list[float]] = {"true": [], "false": []}
        for k, instance in enumerate(instances):
            for setting in ("true", "false") if k % 2 == 0 else ("false", "true"):
                start = time.process_time()
                outcome = solvers[setting].solve(instance.puzzle, Limits(args.time_limit), 0)
                cpu[setting].append(time.process_time() - start)
                conflicts[setting].append(outcome.stats.get("conflicts", math.nan))
                assert outcome.status == "sat", (name, instance.name, setting, outcome.status)
        ratio = paired_speedup(cpu["false"], cpu["true"])
        said = {v: f"{statistics.median(cpu[v]) * 1e3:.1f} ms "
                   f"({statistics.median(conflicts[v]):.0f} conflicts)" for v in cpu}
        print(f"{name}: {len(instances)} puzzles; median CPU implied=true {said['true']}, "
              f"false {said['false']}; geometric mean false / true {ratio:.3f}")


if __name__ == "__main__":
    main()
