"""Marupeke's rules for the solver backends: the whole model, as CNF (PySAT) and as a CP-SAT model.

Variables: one Boolean per white cell, true for O (`("O", r, c)` in the IDPool). A given mark
fixes it. For every three consecutive white cells along a row, a column or either diagonal (no
blocker among them) the three may be neither all O nor all X: in CNF the clauses (¬a ∨ ¬b ∨ ¬c)
and (a ∨ b ∨ c); in CP-SAT 1 ≤ a + b + c ≤ 2. A solution is excluded by one clause over every
white cell's literal.

The hooks (called by the `cpsat` encoding and by `sat` through `_plain_sat`):
`cnf(puzzle, pool)`, `cnf_solution(puzzle, pool, model)`, `cnf_exclude(puzzle, pool, solution)`;
`cpsat(puzzle, model) -> variables`, `cpsat_solution(puzzle, variables, solver)`,
`cpsat_exclude(puzzle, model, variables, solution)`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from harness.grid import Cell
from harness.kinds import cellbits
from harness.kinds.marupeke.model import Mark, Marupeke

STEPS = ((0, 1), (1, 0), (1, 1), (1, -1))  # each line once: right, down, and the two diagonals
MARKS = (Mark.O.value, Mark.X.value)  # a white cell: O, X


def triples(puzzle: Marupeke) -> Iterator[tuple[Cell, Cell, Cell]]:
    """Every three consecutive white cells in a line."""
    for r, c in puzzle.white:
        for dr, dc in STEPS:
            line = ((r, c), (r + dr, c + dc), (r + 2 * dr, c + 2 * dc))
            if all(puzzle.grid.contains(x) and x not in puzzle.blocks for x in line):
                yield line


def _white_marks(puzzle: Marupeke, solution: str) -> dict[Cell, bool]:
    return cellbits.read(puzzle, puzzle.white, solution, MARKS)


def _string(puzzle: Marupeke, values: dict[Cell, bool]) -> str:
    return cellbits.write(puzzle, puzzle.blocks, values, MARKS)


# --- CNF ----------------------------------------------------------------------------------------

def _var(pool: Any, cell: Cell) -> int:
    return pool.id(("O", *cell))


def cnf(puzzle: Marupeke, pool: Any) -> list[list[int]]:
    """Every rule of `puzzle` as clauses; cell variables come first, row-major."""
    o = {cell: _var(pool, cell) for cell in puzzle.white}
    clauses = [[o[cell] if mark is Mark.O else -o[cell]] for cell, mark in puzzle.given.items()]
    for a, b, c in triples(puzzle):
        clauses += [[-o[a], -o[b], -o[c]], [o[a], o[b], o[c]]]
    return clauses


def cnf_solution(puzzle: Marupeke, pool: Any, model: list[int]) -> str:
    """The solution string of a model (a cell in no clause, past the model's end, reads X)."""
    return _string(puzzle, cellbits.from_model(puzzle.white, lambda cell: _var(pool, cell), model))


def cnf_exclude(puzzle: Marupeke, pool: Any, solution: str) -> list[int]:
    """The clause that rules out exactly `solution`: some white cell takes the other mark."""
    return cellbits.exclusion(_white_marks(puzzle, solution), lambda cell: _var(pool, cell))


# --- CP-SAT -------------------------------------------------------------------------------------

def cpsat(puzzle: Marupeke, model: Any) -> dict[Cell, Any]:
    """Add every rule to the CpModel; returns the is-O Boolean of each white cell."""
    o = {cell: model.new_bool_var(f"o{cell}") for cell in puzzle.white}
    for cell, mark in puzzle.given.items():
        model.add_bool_or([o[cell] if mark is Mark.O else ~o[cell]])
    for a, b, c in triples(puzzle):
        model.add_linear_constraint(o[a] + o[b] + o[c], 1, 2)
    return o


def cpsat_solution(puzzle: Marupeke, o: dict[Cell, Any], solver: Any) -> str:
    return _string(puzzle, {cell: solver.boolean_value(x) for cell, x in o.items()})


def cpsat_exclude(puzzle: Marupeke, model: Any, o: dict[Cell, Any], solution: str) -> None:
    marks = _white_marks(puzzle, solution)
    model.add_bool_or([~o[cell] if is_o else o[cell] for cell, is_o in marks.items()])
