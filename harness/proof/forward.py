"""Forward DRAT checking with MiniSat 2.2's unit propagation (PySAT): every lemma checked once, in order.

The formula goes into a `minisat22` solver, which is never asked to solve: a lemma is RUP when
propagating its negation as assumptions (`Solver.propagate`) ends in a conflict; otherwise it
must be RAT on its first literal (each resolvent with a clause holding the pivot's negation is
RUP, the clauses kept here in Python). Then it is added. The proof is accepted at its first empty
clause, which must be RUP. MiniSat cannot remove a clause, so deletions are ignored: every clause
ever added is kept, which is sound (each lemma is checked against a superset of the clauses the
proof says are there: RUP only gets easier, a RAT check only stricter, and every addition keeps the
growing set satisfiable if the formula is). Propagation is MiniSat's (a solver other than the
CaDiCaL that writes the proofs), the rules and the bookkeeping are this module's; the pure-Python
backward checker (`harness.proof.backward`) shares neither and judges the same proofs in the tests.
"""

from __future__ import annotations

import time

from harness.proof.reasons import STOPPED, failed


def run(clauses: list[list[int]], steps, num_vars: int, *, rat: bool, deadline: float | None, result) -> None:
    """Check `steps` against `clauses` (see the module docstring), filling in `result` (a drat.Result)."""
    from pysat.solvers import Solver

    result.kept_all = True
    kept: list[list[int]] = [list(c) for c in clauses]  # every clause, for RAT's candidates
    with Solver(name="minisat22") as solver:
        if num_vars:
            solver.add_clause([num_vars, -num_vars])  # every variable made now (a tautology is dropped)
        refuted = False  # propagation from the root conflicts: every lemma from here on is RUP
        for clause in clauses:
            if not solver.add_clause(clause, no_return=False):
                refuted = True
                break
        propagate, add = solver.propagate, solver.add_clause
        for k, step in enumerate(steps):
            if deadline is not None and not k % 256 and time.process_time() >= deadline:
                result.reason = f"{STOPPED} at proof line {step.line} of {steps[-1].line}"
                return
            lits = step.lits
            if step.delete:
                result.deletions += 1
                result.ignored_deletions += 1
                continue
            result.lemmas += 1
            result.checked += 1
            if not refuted and propagate([-lit for lit in lits], phase_saving=0)[0]:
                if not (rat and lits and _rat(propagate, kept, list(dict.fromkeys(lits)))):
                    result.reason = failed(step, rat)
                    return
                result.rat += 1
            if not lits:
                result.ok = True
                return
            kept.append(lits)
            if not refuted and not add(lits, no_return=False):
                refuted = True
    result.reason = "no empty clause: the proof ends without deriving it"


def _rat(propagate, kept: list[list[int]], lits: list[int]) -> bool:
    """drat-trim's RAT on the first literal: each resolvent with a kept clause holding its negation is RUP."""
    pivot = lits[0]
    own = set(lits)
    for clause in kept:
        if -pivot not in clause:
            continue
        rest = [lit for lit in clause if lit != -pivot and lit not in own]
        if any(-lit in own for lit in rest):
            continue  # a tautology is implied by anything
        if propagate([-lit for lit in lits + rest], phase_saving=0)[0]:
            return False
    return True
