"""CP-SAT with lazy sub-loop cuts, for any loop kind: solve, cut the sub-loops found, solve again.

Model: the loop problem's local rules from loop.cpsat only (a bool per edge, an on-loop bool per
vertex, degree 2·on so every vertex has degree 0 or 2, the kind's rules): every solution is a
set of disjoint loops. After each solve, loop.cuts.find_cuts splits the chosen edges into loops
(networkx components); if one loop is complete (every required vertex, every `hits` group) it
is the answer. Otherwise each cut is added to the same CpModel and the model is solved again:
`cuts=loop` forbids each wrong loop (add_bool_or of its negated edges), `cuts=cutset` asks a
loop holding only some required vertices for an edge leaving it (add_bool_or of its boundary),
`cuts=disc` for an edge leaving its disc (`loop.cuts`).
`hint=True` hints the previous (now cut off) solution. CP-SAT keeps nothing between solves, so
each round presolves afresh.
All rounds share one time budget; options as in `circuit` (`implied=true` included), plus `cuts`
and `hint`.
"""

from __future__ import annotations

from typing import Any

from harness.encoding import SAT, Limits, Outcome, cpu_time
from harness.options import Option

from ._options import DEMANDS
from .circuit import Circuit, add_implied
from .loop import problem as loop_problem
from .loop import refuse
from .loop.cpsat import CpSatEncoding, Session, build
from .loop.cuts import CUT_FAMILIES, exclusion, find_cuts


class Lazy(CpSatEncoding):
    name = "lazy"
    imports = (*CpSatEncoding.imports, "networkx")
    declared = (*Circuit.declared,
                # where the kind names nothing a loop must hold, every loop is cut alike (DEMANDS)
                Option("cuts", "loop", "the cut of a wrong loop (`loop.cuts`): loop, cutset or disc",
                       CUT_FAMILIES, DEMANDS),
                Option("hint", False, "hint the previous (now cut off) solution to the next solve"))

    def solve(self, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        session = Session(self.options, seed, limits.clock())
        start = cpu_time()
        problem = loop_problem(puzzle)
        if refused := refuse(problem, start):
            return refused
        m = build(puzzle, problem)
        add_implied(puzzle, m, self.options)
        for solution in exclude:
            m.add_clause(exclusion(problem, solution))
        build_s = cpu_time() - start
        num_cuts, outside_s = 0, 0.0

        def stats() -> dict:
            return {"build_s": build_s, "cuts": num_cuts, "outside_cpu_s": outside_s, **session.stats()}

        while True:
            limits.report(stats())
            status = session.solve(m.model)
            if status != SAT:
                return Outcome(status, stats=stats())
            began = cpu_time()
            chosen = m.chosen(session.solver)
            cuts = find_cuts(problem, chosen, self.options["cuts"])
            if not cuts:
                outside_s += cpu_time() - began
                return Outcome(SAT, problem.solution(chosen), stats())
            for cut in cuts:
                m.add_clause(cut)
            num_cuts += len(cuts)
            if self.options["hint"]:
                m.model.clear_hints()
                picked = set(chosen)
                for i, x in enumerate(m.x):
                    m.model.add_hint(x, i in picked)
            outside_s += cpu_time() - began
