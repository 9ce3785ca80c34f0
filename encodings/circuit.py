"""CP-SAT with AddCircuit: the seed chapter's Masyu model (chapter 14), for any loop kind, solved in one call.

Model: the loop problem's local rules from loop.cpsat (a bool per edge, an on-loop bool per
vertex, degree 2·on, the kind's rules). Each edge also gets two arc bools, one per direction,
with edge = arc + arc back (so an edge is used at most one way, and no 2-cycle). Every vertex
gets a self-loop arc whose literal is "not on the loop". AddCircuit over all of these arcs asks
for exactly one circuit through the vertices whose self-loop is off: one loop. Since the empty
circuit is accepted too, the loop exists because the problem demands some vertex or edge on.
`exclude`d answers are forbidden as edge sets before the solve.
Options: num_workers, linearization_level, search_branching (defaults: 1, 0, quick-restart
portfolio: CP-SAT's defaults spend most of a loop model's time in the LP relaxation, and
num_workers=0 would make results depend on the machine), random_seed = the run's seed;
`implied=true` (default, as for every loop strategy) adds the kind's implied constraints
(`rules.<kind>.cpsat_implied`: Masyu's pearls, the constraints `sat` gets as `cnf_implied`; and
`loop.implied_clauses`: Slitherlink's, clauses every backend takes alike).
"""

from __future__ import annotations

from typing import Any

from harness.encoding import SAT, Limits, Outcome, cpu_time
from harness.options import Option

from . import rules
from ._options import implied
from .loop import implied_clauses, refuse
from .loop import problem as loop_problem
from .loop.cpsat import CpSatEncoding, Session, build
from .loop.cuts import exclusion

IMPLIED = ("false", "true")


def add_implied(puzzle: Any, m: Any, options: dict[str, Any]) -> None:
    """With `implied=true`, the kind's implied constraints on the CP-SAT model (where its rules have them)."""
    if options["implied"] != "true":
        return
    hook = getattr(rules.of(puzzle.kind), "cpsat_implied", None)
    if hook is not None:
        hook(puzzle, m)
    for clause in implied_clauses(puzzle):
        m.add_clause(clause)


class Circuit(CpSatEncoding):
    name = "circuit"
    declared = (*CpSatEncoding.declared, Option(
        "implied", "true", "the kind's implied constraints (`cpsat_implied`, `implied_clauses`)", IMPLIED,
        implied("cpsat_implied")))

    def solve(self, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        session = Session(self.options, seed, limits.clock())
        start = cpu_time()
        problem = loop_problem(puzzle)
        if refused := refuse(problem, start):
            return refused
        m = build(puzzle, problem)
        add_implied(puzzle, m, self.options)
        arcs = []
        for (u, v), x in zip(problem.graph.ends, m.x, strict=True):
            forth, back = m.model.new_bool_var(f"a{u}_{v}"), m.model.new_bool_var(f"a{v}_{u}")
            m.model.add(x == forth + back)
            arcs += [(u, v, forth), (v, u, back)]
        arcs += [(v, v, ~on) for v, on in enumerate(m.on)]
        m.model.add_circuit(arcs)
        del arcs  # the model holds the circuit: its Python variables are 76 MB on FHCP's graph188
        for solution in exclude:
            m.add_clause(exclusion(problem, solution))
        build_s = cpu_time() - start

        status = session.solve(m.model)
        stats = {"build_s": build_s, "cuts": 0, **session.stats()}
        if status != SAT:
            return Outcome(status, stats=stats)
        return Outcome(SAT, problem.solution(m.chosen(session.solver)), stats)
