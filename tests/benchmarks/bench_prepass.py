"""What `prepass=rotations` finds and what its misses cost: per graph set, the graphs found and the CPU spent.

Run from the repository root: `python tests/benchmarks/bench_prepass.py [SET_OR_FOLDER ...]` (default
the bundled `fhcp-sample` and `graph-hard`; a folder of graph files or of `.hcp.gz` files, such as
../shared/corpus/fhcp/hcp, is read as graphs). Not collected by pytest. For each graph it builds the
loop problem as `sat` does (not timed), then times `loop.rotations.cycle` in CPU seconds with the budget
a 60 s run gives it; every cycle found is checked to be a Hamiltonian cycle of the graph here. Prints a
line per set: graphs, found, the CPU of the finds and of the misses (total, median, most), and the
graphs found; `--each` prints a line per graph.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from harness import sets
from loopbench_encodings import loop
from loopbench_encodings.loop import rotations

LIMIT_S = 60.0  # the run's limit the budget is taken from (`rotations.seconds`)


def graphs(spec: str):
    path = Path(spec)
    if path.is_dir() and not any(path.glob("*.txt")):
        return sets.resolve(str(path / "*.hcp.gz"), "graph")
    return sets.resolve(spec, "graph")


def measure(instance) -> tuple[bool, float]:
    problem = loop.problem(instance.puzzle)
    g = problem.graph
    adjacent = rotations.neighbours(g)
    start = time.process_time()
    order = rotations.cycle(adjacent, 0, start + rotations.seconds(LIMIT_S))
    spent = time.process_time() - start
    if order is not None:
        n = g.num_vertices
        assert sorted(order) == list(range(n)), instance.name
        assert all(g.between(order[i], order[(i + 1) % n]) >= 0 for i in range(n)), instance.name
    return order is not None, spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", default=["fhcp-sample", "graph-hard"])
    parser.add_argument("--each", action="store_true", help="a line per graph")
    ns = parser.parse_args(argv)
    for spec in ns.sets:
        found, missed, names = [], [], []
        for instance in graphs(spec):
            if instance.puzzle is None:
                print(f"{spec}: {instance.name}: {instance.error}", file=sys.stderr)
                continue
            hit, spent = measure(instance)
            (found if hit else missed).append(spent)
            if hit:
                names.append(instance.name)
            if ns.each:
                print(f"  {instance.name}: {'found' if hit else 'missed'} in {spent * 1000:.1f} ms")

        def said(xs: list[float]) -> str:
            if not xs:
                return "none"
            return (f"total {sum(xs):.3f} s, median {statistics.median(xs) * 1000:.1f} ms, "
                    f"most {max(xs) * 1000:.1f} ms")

        print(f"{spec}: {len(found) + len(missed)} graphs, found {len(found)} ({said(found)}); "
              f"missed {len(missed)} ({said(missed)}); found: {', '.join(names) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
