"""Check a proof of unsatisfiability: `python -m harness.proof CNF DRAT [--puzzle FILE]`."""

from __future__ import annotations

import argparse
import sys

from harness.errors import InstanceError
from harness.proof.cuts import check_cuts
from harness.proof.drat import DELETIONS, ProofFormatError, check, read_cnf, read_drat

EXIT_VERIFIED, EXIT_REJECTED, EXIT_BAD_INPUT = 0, 1, 2

EPILOG = """\
The proof is checked forward: each lemma must follow from the clauses so far by unit propagation
(RUP), or else be RAT on its first literal; deletions are honoured (those of clauses that fix a
literal at the root are ignored, as drat-trim does) until a lemma needs a deleted clause back
(see --deletions); the proof must derive the empty clause.
With --puzzle, each clause the CNF marks `c cut` must also hold for every answer of the puzzle
(`c exclude` clauses, answers excluded by a uniqueness question, are counted, not judged).
exit status: 0 verified; 1 not verified (the first failing lemma and its line, no empty clause,
or an invalid cut); 2 a file that cannot be read (one line naming file, line and problem).
"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m harness.proof", description=__doc__, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("cnf", metavar="CNF", help="the formula, DIMACS (as `harness.solve --proof` writes it)")
    p.add_argument("drat", metavar="DRAT", help="the proof, text or binary DRAT")
    p.add_argument("--puzzle", metavar="FILE", help="also check every `c cut` clause against this puzzle")
    p.add_argument("--kind", help="the puzzle's kind, over what the file says")
    p.add_argument("--rup-only", action="store_true", help="reject a lemma that is not RUP (no RAT)")
    p.add_argument("--deletions", choices=DELETIONS, default="auto",
                   help="auto (default): honour them until a lemma fails, then (no RAT lemma so far) bring "
                        "every deleted clause back and ignore the rest: CaDiCaL 1.9.5 restores eliminated "
                        "clauses unlogged when clauses come after a solve; honour: never; "
                        "ignore: from the start")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        cnf = read_cnf(args.cnf)
        steps = read_drat(args.drat)
        puzzle = None
        if args.puzzle:
            from harness.solve import load

            puzzle = load(args.puzzle, args.kind).puzzle
    except (ProofFormatError, InstanceError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    result = check(cnf, steps, rat=not args.rup_only, deletions=args.deletions)
    print(result.summary())
    ok = result.ok
    if puzzle is not None:
        cuts = check_cuts(cnf, puzzle)
        print(cuts.summary())
        ok = ok and cuts.ok
    return EXIT_VERIFIED if ok else EXIT_REJECTED


if __name__ == "__main__":
    sys.exit(main())
