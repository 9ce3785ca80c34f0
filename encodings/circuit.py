"""CP-SAT with AddCircuit: the seed chapter's Masyu model (chapter 14), solved in one call.

Model: the local rules of _masyu_cpsat (a bool per edge, an on-loop bool per cell, degree 2·on,
pearl rules). Each edge also gets two arc bools, one per direction, with edge = arc + arc back
(so an edge is used at most one way, and no 2-cycle). Every cell gets a self-loop arc whose
literal is "not on the loop". AddCircuit over all of these arcs asks for exactly one circuit
through the cells whose self-loop is off: one loop. Since the empty circuit is accepted too,
a loop exists only because pearls (or `full`) put cells on, which the local rules do.
Options: num_workers, linearization_level, search_branching (defaults: 1, 0, quick-restart
portfolio; ../shared/notes/solver-apis.md §1 explains why), random_seed = the run's seed.
"""

from __future__ import annotations

import time

from harness.encoding import SAT, Limits, Outcome
from harness.grid import solution_string
from harness.kinds.masyu.model import Masyu

from ._masyu_cpsat import CpSatEncoding, Session, build


class Circuit(CpSatEncoding):
    name = "circuit"
    puzzles = ("masyu",)
    defaults = dict(CpSatEncoding.defaults)

    def solve(self, puzzle: Masyu, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        session = Session(self.options, seed, deadline=time.perf_counter() + limits.time_s)
        start = time.perf_counter()
        m = build(puzzle)
        grid = puzzle.grid
        arcs = []
        for (u, v), x in m.edge.items():
            forth, back = m.model.new_bool_var(f"a{u}{v}"), m.model.new_bool_var(f"a{v}{u}")
            m.model.add(x == forth + back)
            arcs += [(grid.index(u), grid.index(v), forth), (grid.index(v), grid.index(u), back)]
        arcs += [(grid.index(c), grid.index(c), ~on) for c, on in m.on.items()]
        m.model.add_circuit(arcs)
        build_s = time.perf_counter() - start

        status = session.solve(m.model)
        stats = {"build_s": build_s, "cuts": 0, **session.stats()}
        if status != SAT:
            return Outcome(status, stats=stats)
        return Outcome(SAT, solution_string(grid, m.chosen(session.solver)), stats)
