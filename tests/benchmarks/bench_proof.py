"""The cost of proofs: `sat` with and without `proof=true` side by side, then checking each proof.

Run with the packages importable (`python tests/benchmarks/bench_proof.py [--instances SET ...]
[--limit N] [--repeat R] [--time-limit S] [-o cuts=cutset]`). Not collected by pytest.
The unsat instances: a puzzle whose first solve says unsat is one as it is (a non-Hamiltonian
graph); a solved one becomes one with its answer excluded (the `--unique` second solve). Per
instance: the lazy loop's cuts, the median solve time without and with proof logging (runs
interleaved, `--repeat` each; logging counts recording the clauses and reading the trace),
the DRAT's size (binary as CaDiCaL wrote it) and lemmas, how many lemmas needed RAT, and the
time to check the DRAT (forward, harness.proof.drat; `--deletions honour` shows CaDiCaL's unlogged
restores failing) and the cuts (harness.proof.cuts).
Pigeonhole PHP(n+1, n) rows come first, for scale.
"""

from __future__ import annotations

import argparse
import statistics
import time

from harness import registry, sets
from harness.encoding import Limits, parse_options
from harness.proof.certify import cnf_of
from harness.proof.cuts import check_cuts
from harness.proof.drat import DELETIONS, Cnf, check, read_drat

SETS = ("walls-smoke", "marupeke-smoke", "masyu-smoke", "slither-smoke", "masyu-hard", "slither-hard")
HEAD = (f"{'instance':<28} {'kind':<11} {'cuts':>5} {'solve s':>8} {'+proof s':>8} {'x':>5} "
        f"{'drat KB':>8} {'lemmas':>7} {'RAT':>3} {'check s':>8} {'cuts s':>7}  verdict")


def pigeonhole(holes: int) -> None:
    from pysat.examples.genhard import PHP
    from pysat.solvers import Solver

    from harness.prooflog import trace

    cnf = PHP(holes)
    times = []
    for with_proof in (False, True):
        t0 = time.perf_counter()
        with Solver(name="cadical195", bootstrap_with=cnf.clauses, with_proof=with_proof) as solver:
            solver.solve()
            data = trace(solver) if with_proof else b""
        times.append(time.perf_counter() - t0)
    steps = read_drat("<php>", data)
    result = check(Cnf(cnf.nv, cnf.clauses), steps)
    print(f"{f'php-{holes + 1}-{holes}':<28} {'cnf':<11} {0:>5} {times[0]:>8.3f} {times[1]:>8.3f} "
          f"{times[1] / max(times[0], 1e-9):>5.1f} {len(data) / 1024:>8.1f} {result.lemmas:>7} "
          f"{result.rat:>3} "
          f"{result.seconds:>8.3f} {0:>7.3f}  {'verified' if result.ok else result.reason}")


def one(instance, options: dict, limits: Limits, repeat: int, deletions: str) -> None:
    plain, logged = registry.create("sat", **options), registry.create("sat", **options, proof="true")
    plain.prepare()
    first = plain.solve(instance.puzzle, limits, 0)
    exclude = (first.solution,) if first.status == "sat" else ()
    if first.status not in ("sat", "unsat"):
        print(f"{instance.name:<28} {instance.kind:<11} first solve: {first.status}")
        return
    plain_s, proof_s, outcome = [], [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        plain.solve(instance.puzzle, limits, 0, exclude)
        t1 = time.perf_counter()
        outcome = logged.solve(instance.puzzle, limits, 0, exclude)
        plain_s.append(t1 - t0)
        proof_s.append(time.perf_counter() - t1)
    proof = outcome.stats.pop("proof", None)
    if proof is None:
        print(f"{instance.name:<28} {instance.kind:<11} second solve: {outcome.status}")
        return
    cnf, steps = cnf_of(proof), read_drat("<drat>", proof.drat)
    result = check(cnf, steps, deletions=deletions)
    t0 = time.perf_counter()
    cuts = check_cuts(cnf, instance.puzzle)
    cuts_s = time.perf_counter() - t0
    a, b = statistics.median(plain_s), statistics.median(proof_s)
    verdict = ("verified" if result.ok else result.reason) + ("" if cuts.ok else "; " + cuts.summary())
    print(f"{instance.name[:28]:<28} {instance.kind:<11} {cuts.cuts:>5} {a:>8.3f} {b:>8.3f} "
          f"{b / max(a, 1e-9):>5.1f} "
          f"{len(proof.drat) / 1024:>8.1f} {result.lemmas:>7} {result.rat:>3} {result.seconds:>8.3f} "
          f"{cuts_s:>7.3f}  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", nargs="+", default=list(SETS), metavar="SET")
    parser.add_argument("--limit", type=int, default=6, help="instances per set (default %(default)d)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--php", type=int, nargs="*", default=[6, 7, 8], metavar="HOLES")
    parser.add_argument("--deletions", choices=DELETIONS, default="auto", help="as harness.proof's")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="K=V")
    args = parser.parse_args()
    options, limits = parse_options(args.option), Limits(time_s=args.time_limit)
    print(HEAD)
    for holes in args.php:
        pigeonhole(holes)
    for spec in args.instances:
        for instance in sets.resolve(spec, None)[: args.limit]:
            one(instance, options, limits, args.repeat, args.deletions)


if __name__ == "__main__":
    main()
