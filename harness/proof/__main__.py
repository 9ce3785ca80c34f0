"""Check a proof of unsatisfiability and its CNF: `python -m harness.proof CNF DRAT [--puzzle FILE]`."""

from __future__ import annotations

import argparse
import sys

from harness.errors import InstanceError
from harness.proof.contents import judge
from harness.proof.drat import DELETIONS, ProofFormatError, check, read_cnf, read_drat

EXIT_VERIFIED, EXIT_REJECTED, EXIT_BAD_INPUT, EXIT_UNJUDGED = 0, 1, 2, 3

EPILOG = """\
The proof is checked forward: each lemma must follow from the clauses so far by unit propagation
(RUP), or else be RAT on its first literal; deletions are honoured (those of clauses that fix a
literal at the root are ignored, as drat-trim does) until a lemma needs a deleted clause back
(see --deletions); the proof must derive the empty clause.
With --puzzle, every clause of the CNF is judged or made again (docs/FORMATS.md, "What a
certificate covers"): the `c edge` lines and the unmarked clauses must be exactly what the
encoding's code makes for the puzzle and --options, `c face` clauses exactly the faces' colouring
(colour=late only), each `c cut` must hold for every answer as the puzzle's kind states it, and a
`c exclude` may appear only with --answer, once, as the negation of that answer.
exit status: 0 certified (with --puzzle: the refutation and every clause); 1 not verified (the
first failing lemma and its line, no empty clause, or a clause of the CNF judged wrong); 2 a file
that cannot be read (one line naming file, line and problem; a `p cnf` header past 2^31 - 1
variables, or past a million and past the literals of the two files, is one); 3 the refutation is
verified but, without --puzzle, no clause of the CNF was judged (their count is printed): not a
certificate.
"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m harness.proof", description=__doc__, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("cnf", metavar="CNF", help="the formula, DIMACS (as `harness.solve --proof` writes it)")
    p.add_argument("drat", metavar="DRAT", help="the proof, text or binary DRAT")
    p.add_argument("--puzzle", metavar="FILE", help="judge every clause of the CNF against this puzzle")
    p.add_argument("--kind", help="the puzzle's kind, over what the file says")
    p.add_argument("--options", metavar="KEY=VALUE,...", default="",
                   help="the run's encoding options that shape its clauses (implied, colour; default sat's)")
    p.add_argument("--answer", metavar="SOLUTION",
                   help="for a uniqueness proof: the answer the run reported, that its `c exclude` rules out")
    p.add_argument("--rup-only", action="store_true", help="reject a lemma that is not RUP (no RAT)")
    p.add_argument("--deletions", choices=DELETIONS, default="auto",
                   help="auto (default): honour them until a lemma fails, then (no RAT lemma so far) bring "
                        "every deleted clause back and ignore the rest: CaDiCaL 1.9.5 restores eliminated "
                        "clauses unlogged when clauses come after a solve; honour: never; "
                        "ignore: from the start")
    return p


def options(text: str) -> dict[str, str]:
    """`KEY=VALUE,...` as a dict; ValueError naming a pair without `=`."""
    out = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        k, sep, v = pair.partition("=")
        if not sep or not k.strip():
            raise ValueError(f"--options: {pair!r} is not KEY=VALUE")
        out[k.strip()] = v.strip()
    return out


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        cnf = read_cnf(args.cnf)
        steps = read_drat(args.drat)
        chosen = options(args.options)
        puzzle = None
        if args.puzzle:
            from harness.solve import load

            puzzle = load(args.puzzle, args.kind).puzzle
        result = check(cnf, steps, rat=not args.rup_only, deletions=args.deletions)  # sizes it first
    except (ProofFormatError, InstanceError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(result.summary())
    if not result.ok:
        return EXIT_REJECTED
    contents = judge(cnf, puzzle, chosen, args.answer)
    print(contents.summary())
    if contents.unjudged:
        print("not a certificate: give --puzzle to judge the CNF's clauses")
        return EXIT_UNJUDGED
    return EXIT_VERIFIED if contents.ok else EXIT_REJECTED


if __name__ == "__main__":
    sys.exit(main())
