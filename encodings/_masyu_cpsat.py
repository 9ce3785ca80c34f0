"""Masyu's local rules as one CP-SAT model, and the solver plumbing the CP-SAT encodings share.

Variables: a bool per grid edge (on the loop) and a bool per cell (the loop visits it).
Constraints: the edges at a cell sum to 2·on (degree 0 or 2); a pearl's cell is on; a white pearl
is passed straight (opposite edges equal, an axis that leaves the grid is unused) and the loop
turns in at least one of the two neighbours it passes to (the edge beyond one of them is off); a
black pearl turns (never two opposite edges) and each edge it uses continues straight through the
neighbour (the edge beyond is on; none beyond the border means the edge is off); `full` puts
every cell on, and a puzzle with no pearl asks for at least one cell on.
The single loop is not enforced here: `circuit` adds AddCircuit, `lazy` adds cuts between
solves (seed chapter 14; ../shared/notes/solver-apis.md §1 and its Masyu subtour part).
`Session` holds one CpSolver, sets the shared options (num_workers, linearization_level,
search_branching, random_seed), spends one time budget over any number of solves, sums their
statistics and maps CP-SAT's statuses to the encoding statuses.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from harness.encoding import SAT, UNKNOWN, UNSAT, Encoding
from harness.grid import Cell, Direction, Edge, Grid, edge
from harness.kinds.masyu.model import Masyu, Pearl

AXES = (Direction.RIGHT, Direction.DOWN)  # each axis once, by one of its two directions


@dataclass
class MasyuModel:
    """A CP-SAT model of the local rules, with its edge and on-loop variables by meaning."""

    model: Any  # ortools.sat.python.cp_model.CpModel
    edge: dict[Edge, Any]
    on: dict[Cell, Any]

    def chosen(self, solver: Any) -> list[Edge]:
        """The edges set in the solver's last solution."""
        return [e for e, x in self.edge.items() if solver.boolean_value(x)]


def build(puzzle: Masyu) -> MasyuModel:
    """The local rules of `puzzle` (everything but "one loop") as a fresh CpModel."""
    from ortools.sat.python import cp_model

    grid = puzzle.grid
    model = cp_model.CpModel()
    x = {e: model.new_bool_var(f"e{e[0]}{e[1]}") for e in grid.edges}
    on = {c: model.new_bool_var(f"on{c}") for c in grid.cells}

    def towards(cell: Cell, d: Direction) -> Any:
        """The edge leaving `cell` in direction `d`, or None at the border."""
        nxt = grid.step(cell, d)
        return None if nxt is None else x[edge(cell, nxt)]

    for c in grid.cells:
        model.add(sum(x[e] for e in grid.incident[c]) == 2 * on[c])
    for c, pearl in puzzle.pearls.items():
        model.add_bool_or([on[c]])
        rule = _white if pearl is Pearl.WHITE else _black
        rule(model, grid, towards, c)
    if puzzle.full:
        for c in grid.cells:
            model.add_bool_or([on[c]])
    elif not puzzle.pearls:
        model.add_bool_or(list(on.values()))
    return MasyuModel(model, x, on)


def _white(model: Any, grid: Grid, towards: Any, c: Cell) -> None:
    for d in AXES:
        there, back = towards(c, d), towards(c, d.opposite)
        if there is None or back is None:
            for v in (there, back):
                if v is not None:
                    model.add_bool_or([~v])
            continue
        model.add(there == back)
        # Passing along this axis, the loop must turn at one end: the edge beyond one neighbour is off.
        beyond = (towards(grid.step(c, d), d), towards(grid.step(c, d.opposite), d.opposite))
        if all(v is not None for v in beyond):  # `in` would compare variables with ==
            model.add_bool_or([~there, ~beyond[0], ~beyond[1]])


def _black(model: Any, grid: Grid, towards: Any, c: Cell) -> None:
    for d in AXES:
        there, back = towards(c, d), towards(c, d.opposite)
        if there is not None and back is not None:
            model.add_bool_or([~there, ~back])
    for d in Direction:
        out = towards(c, d)
        if out is None:
            continue
        beyond = towards(grid.step(c, d), d)
        if beyond is None:
            model.add_bool_or([~out])
        else:
            model.add_implication(out, beyond)


class CpSatEncoding(Encoding):
    """Base of the CP-SAT encodings: their shared solver options, checked when one is made."""

    imports = ("ortools.sat.python.cp_model",)
    defaults = {
        "num_workers": 1,
        "linearization_level": 0,
        "search_branching": "PORTFOLIO_WITH_QUICK_RESTART_SEARCH",
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if self.options["num_workers"] < 1:
            # 0 means "all cores" to CP-SAT, which makes results depend on the machine.
            raise ValueError(f"num_workers must be at least 1, got {self.options['num_workers']}")
        _branching(self.options["search_branching"])


def _branching(name: str) -> Any:
    from ortools.sat.python import cp_model_helper

    members = cp_model_helper.SatParameters.SearchBranching.__members__
    if name not in members:
        raise ValueError(f"unknown search_branching {name!r} (choose from {', '.join(members)})")
    return members[name]


class Session:
    """One CpSolver with one deadline, solving a model once or many times and summing statistics."""

    def __init__(self, options: dict[str, Any], seed: int, deadline: float) -> None:
        from ortools.sat.python import cp_model

        self.solver = cp_model.CpSolver()
        params = self.solver.parameters
        params.num_workers = options["num_workers"]
        params.linearization_level = options["linearization_level"]
        params.search_branching = _branching(options["search_branching"])
        params.random_seed = seed
        self.deadline = deadline
        self.statuses = {
            cp_model.OPTIMAL: SAT,  # a model without objective is OPTIMAL once a solution is found
            cp_model.FEASIBLE: SAT,
            cp_model.INFEASIBLE: UNSAT,
            cp_model.UNKNOWN: UNKNOWN,  # time ran out (or another limit) before a verdict
        }
        self.iterations = 0
        self.conflicts = 0
        self.deterministic_time = 0.0
        self.solver_s = 0.0
        self.reason = ""

    def solve(self, model: Any) -> str:
        """Solve with whatever time is left; `unknown` when none is, or when CP-SAT gives up."""
        left = self.deadline - time.perf_counter()
        if left <= 0:
            self.reason = "time limit reached before the solver ran"
            return UNKNOWN
        self.solver.parameters.max_time_in_seconds = left
        start = time.perf_counter()
        status = self.solver.solve(model)
        self.solver_s += time.perf_counter() - start
        self.iterations += 1
        self.conflicts += self.solver.num_conflicts
        self.deterministic_time += self.solver.deterministic_time
        if status not in self.statuses:
            raise RuntimeError(f"CP-SAT returned status {self.solver.status_name(status)}")
        if self.statuses[status] == UNKNOWN:
            self.reason = f"CP-SAT stopped with UNKNOWN after {self.solver.wall_time:.3f} s"
        return self.statuses[status]

    def stats(self) -> dict[str, Any]:
        out = {
            "iterations": self.iterations,
            "conflicts": self.conflicts,
            "deterministic_time": self.deterministic_time,
            "num_workers": self.solver.parameters.num_workers,
            "solver_s": self.solver_s,
        }
        if self.reason:
            out["reason"] = self.reason
        return out
