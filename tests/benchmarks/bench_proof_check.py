"""Proof-check time against solve time on non-Hamiltonian graphs: our DRAT checker beside dratify's.

Run with the packages importable (`python tests/benchmarks/bench_proof_check.py [--instances NAME_OR_SET ...]
[--time-limit S] [--python] [--no-reference] [--csv FILE]`). Not collected by pytest. `--csv` also
writes the rows to FILE (after each instance), the table results/proof-check/README.md shows.
Default instances: GP(53,2) and GP(101,2) (graph-hard's `graph-gp-nonham-106` and `-202`), then the
rest of `graph-hard-nonhamiltonian`. Per instance: the `sat` encoding's solve with `proof=true`
(CPU seconds, cuts), the proof's size (binary bytes, steps, lemmas), and CPU seconds to read it
(`read_drat`) and to check it: ours with the default engine (minisat: every lemma, forward), with
`--python` also the pure-Python engine (backward, core-first, `core_only`), and the reference,
dratify 0.1.10 with cdclkit-native's engine (every lemma, forward, deletions not applied, fed the
text DRAT; its time includes parsing that text). An instance not solved within the limit is a row
that says so.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from harness import registry, sets
from harness.encoding import Limits
from harness.proof.certify import cnf_of
from harness.proof.drat import binary_to_text, check, read_drat

FIRST = ("graph-gp-nonham-106-s2026-000", "graph-gp-nonham-202-s2026-000")
HEAD = (f"{'instance':<32} {'solve s':>8} {'cuts':>6} {'MB':>6} {'steps':>8} {'lemmas':>7} {'read s':>7} "
        f"{'ours s':>7} {'python s':>8} {'core':>7} {'dratify s':>9}  verdicts")


def cpu(fn):
    t0 = time.process_time()
    out = fn()
    return out, time.process_time() - t0


def reference():
    import cdclkit_native
    import dratify

    dratify.register_native(cdclkit_native)
    return dratify


COLUMNS = ("instance", "status", "solve_s", "cuts", "drat_mb", "steps", "lemmas", "read_s", "ours_s",
           "python_s", "core", "dratify_s", "verdicts")


def one(instance, limits: Limits, python: bool, dratify) -> dict[str, str]:
    """Solve, read and check one instance; print its line and return it as a CSV row."""
    solver = registry.create("sat", proof="true")
    outcome, solve_s = cpu(lambda: solver.solve(instance.puzzle, limits, 0))
    name = instance.name[:32]
    if outcome.status != "unsat":
        print(f"{name:<32} {solve_s:>8.2f} solve: {outcome.status}", flush=True)
        return dict.fromkeys(COLUMNS, "") | {"instance": instance.name, "status": str(outcome.status),
                                             "solve_s": f"{solve_s:.2f}"}
    proof = outcome.stats["proof"]
    cuts = sum(mark == "cut" for mark in proof.marks.values())
    steps, read_s = cpu(lambda: read_drat("<drat>", proof.drat))
    cnf = cnf_of(proof)
    ours, ours_s = cpu(lambda: check(cnf, steps))
    verdicts = ["ours " + ("ok" if ours.ok else ours.reason)]
    python_s, core = "", ""
    if python:
        back, seconds = cpu(lambda: check(cnf, steps, core_only=True))
        python_s, core = f"{seconds:.2f}", str(back.core)
        verdicts.append("python " + ("ok" if back.ok else back.reason))
    theirs_s = ""
    if dratify is not None:
        text = binary_to_text(proof.drat)
        formula = dratify.parse_dimacs(proof.dimacs())
        theirs, seconds = cpu(lambda: dratify.check_proof(formula, text, apply_deletions=False,
                                                          engine="native"))
        theirs_s = f"{seconds:.2f}"
        verdicts.append("dratify " + ("ok" if theirs.ok else theirs.reason))
    print(f"{name:<32} {solve_s:>8.2f} {cuts:>6} {len(proof.drat) / 2**20:>6.1f} {len(steps):>8} "
          f"{ours.lemmas:>7} {read_s:>7.2f} {ours_s:>7.2f} {python_s:>8} {core:>7} {theirs_s:>9}  "
          f"{'; '.join(verdicts)}", flush=True)
    cells = (instance.name, "unsat", f"{solve_s:.2f}", str(cuts), f"{len(proof.drat) / 2**20:.1f}",
             str(len(steps)), str(ours.lemmas), f"{read_s:.2f}", f"{ours_s:.2f}", python_s, core, theirs_s,
             "; ".join(verdicts))
    return dict(zip(COLUMNS, cells, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", nargs="+", metavar="NAME_OR_SET",
                        default=[*FIRST, "graph-hard-nonhamiltonian"])
    parser.add_argument("--time-limit", type=float, default=300.0, help="per solve (default %(default)s s)")
    parser.add_argument("--python", action="store_true", help="also the pure-Python engine, core only")
    parser.add_argument("--no-reference", action="store_true", help="leave dratify out")
    parser.add_argument("--csv", type=Path, metavar="FILE", help="also write the rows here")
    args = parser.parse_args()
    graphs = {i.name: i for i in sets.resolve("graph-hard-nonhamiltonian", None)}
    chosen, seen = [], set()
    for spec in args.instances:
        for instance in [graphs[spec]] if spec in graphs else sets.resolve(spec, None):
            if instance.name not in seen:
                seen.add(instance.name)
                chosen.append(instance)
    dratify = None if args.no_reference else reference()
    print(HEAD)
    rows = []
    for instance in chosen:
        rows.append(one(instance, Limits(time_s=args.time_limit), args.python, dratify))
        if args.csv:  # after each instance, so a run cut short keeps its rows
            with args.csv.open("w", newline="", encoding="utf-8") as f:
                writer = csv.DictWriter(f, COLUMNS, lineterminator="\n")
                writer.writeheader()
                writer.writerows(rows)


if __name__ == "__main__":
    main()
