"""CP-SAT on the whole model of a puzzle kind without a loop (Walls, Marupeke), solved in one call.

Model: the kind's rules module (`harness/kinds/<kind>/rules.py`) builds it with its `cpsat` hook:
Walls as a Boolean per white cell (horizontal or not) with, per clue ray, a prefix chain of
indicators ("the first k cells all point this way") whose sum is the run's length, and the clue
equal to the sum of its four runs (the seed chapter's model); Marupeke as a Boolean per white
cell (O or not) with 1 <= a + b + c <= 2 for every three consecutive white cells in a line.
Each excluded solution adds one clause (`cpsat_exclude`): some cell differs from it, so the
encoding answers uniqueness checks and generators (`excludes = True`).
Options: num_workers, linearization_level, search_branching (as circuit/lazy; defaults 1, 0,
quick-restart portfolio), random_seed = the run's seed.
"""

from __future__ import annotations

from typing import Any

from harness.encoding import SAT, Limits, Outcome, cpu_time

from .loop.cpsat import CpSatEncoding, Session
from .rules import kinds_with
from .rules import of as rules_of

HOOKS = ("cpsat", "cpsat_solution", "cpsat_exclude")


class CpSat(CpSatEncoding):
    name = "cpsat"
    puzzles = kinds_with(*HOOKS)
    declared = CpSatEncoding.declared
    excludes = True

    def solve(self, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        from ortools.sat.python import cp_model

        rules = rules_of(puzzle.kind)
        session = Session(self.options, seed, limits.clock())
        start = cpu_time()
        model = cp_model.CpModel()
        variables = rules.cpsat(puzzle, model)
        for solution in exclude:
            rules.cpsat_exclude(puzzle, model, variables, solution)
        build_s = cpu_time() - start

        status = session.solve(model)
        stats = {"build_s": build_s, "cuts": 0, "excluded": len(exclude), **session.stats()}
        if status != SAT:
            return Outcome(status, stats=stats)
        return Outcome(SAT, rules.cpsat_solution(puzzle, variables, session.solver), stats)
