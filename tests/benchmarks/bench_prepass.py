"""What `sat`'s pre-passes find and what their misses cost: per graph set and pass, the graphs found, the CPU.

Run from the repository root: `python tests/benchmarks/bench_prepass.py [SET_OR_FOLDER ...] [--pass
rotations|frontier ...]` (default the bundled `fhcp-sample` and `graph-hard`, both passes; a folder of
graph files or of `.hcp.gz` files, such as ../shared/corpus/fhcp/hcp, is read as graphs). Not collected
by pytest. For each graph it builds the loop problem as `sat` does (not timed), then times each pass in
CPU seconds with the budget a 60 s run gives it (`loop.rotations.cycle`; `frontier.prepass_cycle`, on its
counted bounds); every cycle found is checked to be a Hamiltonian cycle of the graph here. Prints a line
per set and pass: graphs, found, the CPU of the finds and of the misses (total, median, most), and the
graphs found; `--each` prints a line per graph (for `frontier`, what it met).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from harness import sets
from harness.kinds.graph.model import parse_order, solution_string
from loopbench_encodings import frontier, loop
from loopbench_encodings.loop import rotations

LIMIT_S = 60.0  # the run's limit the budgets are taken from (`rotations.seconds`, `frontier.prepass_seconds`)
PASSES = ("rotations", "frontier")


def graphs(spec: str):
    path = Path(spec)
    if path.is_dir() and not any(path.glob("*.txt")):
        return sets.resolve(str(path / "*.hcp.gz"), "graph")
    return sets.resolve(spec, "graph")


def measure(instance, name: str) -> tuple[bool, float, str]:
    """Whether the pass found a cycle, its CPU seconds, and what it met (frontier)."""
    problem = loop.problem(instance.puzzle)
    g = problem.graph
    met = ""
    if name == "rotations":
        adjacent = rotations.neighbours(g)
        start = time.process_time()
        order = rotations.cycle(adjacent, 0, start + rotations.seconds(LIMIT_S))
        spent = time.process_time() - start
    else:
        start = time.process_time()
        edges, met = frontier.prepass_cycle(instance.puzzle, start + frontier.prepass_seconds(LIMIT_S))
        spent = time.process_time() - start
        # the graph kind's own writer walks the edges into a cycle (ValueError if they are not one)
        order = None if edges is None else parse_order(g.num_vertices, solution_string(g.num_vertices, edges))
    if order is not None:
        n = g.num_vertices
        assert sorted(order) == list(range(n)), instance.name
        assert all(g.between(order[i], order[(i + 1) % n]) >= 0 for i in range(n)), instance.name
    return order is not None, spent, met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", default=["fhcp-sample", "graph-hard"])
    parser.add_argument("--each", action="store_true", help="a line per graph")
    parser.add_argument("--pass", dest="passes", nargs="+", choices=PASSES, default=list(PASSES))
    ns = parser.parse_args(argv)
    for spec in ns.sets:
        instances = list(graphs(spec))
        for instance in instances:
            if instance.puzzle is None:
                print(f"{spec}: {instance.name}: {instance.error}", file=sys.stderr)
        for name in ns.passes:
            found, missed, names = [], [], []
            for instance in instances:
                if instance.puzzle is None:
                    continue
                hit, spent, met = measure(instance, name)
                (found if hit else missed).append(spent)
                if hit:
                    names.append(instance.name)
                if ns.each:
                    print(f"  {name} {instance.name}: {'found' if hit else 'missed'} in {spent * 1000:.1f} ms"
                          + (f" ({met})" if met else ""))
            print(f"{spec}, {name}: {len(found) + len(missed)} graphs, found {len(found)} ({said(found)}); "
                  f"missed {len(missed)} ({said(missed)}); found: {', '.join(names) or 'none'}")
    return 0


def said(xs: list[float]) -> str:
    if not xs:
        return "none"
    median, most = statistics.median(xs) * 1000, max(xs) * 1000
    return f"total {sum(xs):.3f} s, median {median:.1f} ms, most {most:.1f} ms"


if __name__ == "__main__":
    sys.exit(main())
