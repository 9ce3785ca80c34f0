"""The plain CNF path (`_plain_sat.solve_plain`, `sat` for Walls and Marupeke) on every bundled puzzle.

Run with the packages importable (`PYTHONPATH=.pp python tests/benchmarks/bench_plain_sat.py
[--solver cadical195] [--time-limit 60]`). Not collected by pytest. Per set: puzzles, answers the
independent checker accepts, answers equal to the known solution, puzzles proved unique (a second
solve with the answer excluded says unsat), then median and max seconds of the first solve
(building the CNF included) and of the second.
"""

from __future__ import annotations

import argparse
import statistics
import time

from harness import kinds, sets
from harness.encoding import Limits
from loopbench_encodings import rules
from loopbench_encodings._plain_sat import solve_plain

SETS = ("walls-janko", "marupeke-real", "marupeke-generated")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solver", default="cadical195")
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    limits = Limits(time_s=args.time_limit)
    print(f"{'set':<20} {'n':>4} {'checked':>7} {'known':>5} {'unique':>6}  "
          "first med/max s   second med/max s")
    for name in SETS:
        first, second, checked, known, unique = [], [], 0, 0, 0
        for inst in sets.instances(name):
            module = rules.of(inst.kind)
            t0 = time.perf_counter()
            outcome = solve_plain(module, inst.puzzle, limits, 0, solver_name=args.solver)
            t1 = time.perf_counter()
            again = solve_plain(module, inst.puzzle, limits, 0, (outcome.solution,), args.solver)
            first.append(t1 - t0)
            second.append(time.perf_counter() - t1)
            ok = outcome.status == "sat" and not kinds.check(inst.puzzle, outcome.solution)
            checked += ok
            known += ok and outcome.solution == inst.known_solution
            unique += ok and again.status == "unsat"
        print(f"{name:<20} {len(first):>4} {checked:>7} {known:>5} {unique:>6}  "
              f"{statistics.median(first):.4f} / {max(first):.4f}   "
              f"{statistics.median(second):.4f} / {max(second):.4f}")


if __name__ == "__main__":
    main()
