"""What the per-shape cache (`loop.grid.grid_shape`; degree clauses with `cache=degree`) is worth to a run.

Run from the repository root: `python tests/benchmarks/bench_shape_cache.py [--instances
masyu-pm-hard-large] [--encodings sat,propagator] [--repeats 1]`. Not collected by pytest. Only
the PySAT strategies use the cache (CP-SAT and clingo rebuild everything per puzzle), so a strategy
comparison in one worker gives them a head start on every puzzle of a size already seen. In this
process, per instance and encoding, one solve with the shapes kept (warm: the shape made by an
earlier solve, as in a sweep's worker) and one with them dropped first (cold: as if there were no
cache), alternating which goes first; the CPU time (`time.process_time`) of each solve call. Printed
per encoding: median warm and cold CPU time, the median per-instance difference (ms) and the
geometric mean of cold / warm.
"""

from __future__ import annotations

import argparse
import statistics
import time

from harness import registry, sets
from harness.analysis.ranking import paired_speedup
from harness.encoding import Limits


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--instances", default="masyu-pm-hard-large")
    p.add_argument("--encodings", default="sat,propagator")
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--time-limit", type=float, default=60.0)
    args = p.parse_args()

    from loopbench_encodings.loop import grid as arrays  # the shapes are kept there

    instances = [i for i in sets.instances(args.instances) if i.puzzle is not None]
    for name in args.encodings.split(","):
        solver = registry.create(name, cache="degree")  # warm: the degree clauses kept too
        solver.prepare()
        solver.solve(instances[0].puzzle, Limits(args.time_limit), 0)  # first-call costs paid here
        times: dict[str, list[float]] = {"warm": [], "cold": []}
        for k, instance in enumerate(instances * args.repeats):
            order = ("warm", "cold") if k % 2 == 0 else ("cold", "warm")
            for mode in order:
                if mode == "cold":
                    arrays._SHAPES.clear()
                else:
                    shape = arrays._SHAPES.get((instance.puzzle.rows, instance.puzzle.cols))
                    if shape is None or "degree" not in shape.cache:  # as an earlier run would have left it
                        solver.solve(instance.puzzle, Limits(args.time_limit), 0)
                start = time.process_time()
                outcome = solver.solve(instance.puzzle, Limits(args.time_limit), 0)
                times[mode].append(time.process_time() - start)
                assert outcome.status == "sat", (instance.name, outcome.status)
        warm, cold = times["warm"], times["cold"]
        diff = statistics.median(c - w for c, w in zip(cold, warm, strict=True))
        ratio = paired_speedup(cold, warm)
        print(f"{name}: {len(warm)} solves each; median CPU warm {statistics.median(warm) * 1e3:.2f} ms, "
              f"cold {statistics.median(cold) * 1e3:.2f} ms; median cold - warm {diff * 1e3:.2f} ms; "
              f"geometric mean cold / warm {ratio:.3f}")


if __name__ == "__main__":
    main()
