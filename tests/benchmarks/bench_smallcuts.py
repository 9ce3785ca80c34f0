"""What `loop.smallcuts` finds on a set's graphs: per graph its size, the cuts, the clauses, the CPU time.

Run from the repository root: `python tests/benchmarks/bench_smallcuts.py [--set fhcp-sample]
[--only graph132,graph228]`. Not collected by pytest. Prints one markdown row a graph: vertices,
edges, `loop.fix`'s forced and forbidden edges, the 2-vertex cuts used (two parts each, neither a
degree-2 chain), the 2-edge and 3-edge cuts used (a vertex's own three edges left out), the units and
clauses made, whether every search ended within its counted budget (`WORK_MAX`, `PAIRS_MAX`), the
reason when it finds no cycle can exist, and its CPU seconds (fix and cuts together; machine load
changes these, never the counts); then the totals.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness import sets  # noqa: E402
from loopbench_encodings import loop  # noqa: E402
from loopbench_encodings.loop.fix import fixed_edges  # noqa: E402
from loopbench_encodings.loop.smallcuts import small_cuts  # noqa: E402

COLUMNS = ("vertices", "edges", "fixed_on", "fixed_off", "vertex_cuts", "edge_cuts2", "edge_cuts3", "units",
           "clauses")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="fhcp-sample")
    parser.add_argument("--only", default="", help="graph names, comma-separated (default: the whole set)")
    parser.add_argument("--csv", help="also write the rows (and the total) to this CSV file")
    args = parser.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    header = ["graph", *COLUMNS, "complete", "no cycle", "cpu_s"]
    rows: list[list[str]] = []
    print(f"| {' | '.join(header)} |")
    print("|---" * (len(COLUMNS) + 4) + "|")
    totals = dict.fromkeys(COLUMNS, 0)
    with_any = 0
    for inst in sets.instances(args.set):
        if only and inst.name not in only:
            continue
        g = inst.puzzle
        start = time.process_time()
        problem = loop.problem(g)
        fixed = fixed_edges(problem)
        found = small_cuts(problem)
        seconds = time.process_time() - start
        row = {"vertices": g.n, "edges": len(g.edges), "fixed_on": len(fixed.on), "fixed_off": len(fixed.off),
               **found.counts}
        for k in COLUMNS:
            totals[k] += row[k]
        with_any += bool(found.clauses)
        rows.append([inst.name, *(str(row[k]) for k in COLUMNS), "yes" if found.complete else "no",
                     found.reason or "-", f"{seconds:.2f}"])
        print(f"| {' | '.join(rows[-1])} |", flush=True)
    rows.append(["total", *(str(totals[k]) for k in COLUMNS), "", "", ""])
    print(f"| {' | '.join(rows[-1])} |")
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows([header, *rows])
    print(f"\ngraphs given a clause: {with_any}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
