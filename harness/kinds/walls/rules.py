"""Walls' rules for the solver backends: the whole model, as CNF (PySAT) and as a CP-SAT model.

Variables: one Boolean per white cell, true for a horizontal segment (`("horizontal", r, c)`
in the IDPool). A given segment fixes it. For each numbered cell and each of its four rays (the
white cells outwards up to a black cell or the edge) a chain of indicators: the k-th is true
when the first k cells of the ray all carry the ray's orientation (horizontal going left and
right, vertical going up and down), i.e. indicator k = indicator k-1 AND cell k; the first is
the cell's own literal. A run's length is the sum of its indicators, and the clue equals the
sum of the four runs: a cardinality constraint (`pysat.card`, sequential counter) in CNF, a
linear equality in CP-SAT. A solution is excluded by one clause over every white cell's literal.

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
from harness.kinds.walls.model import Segment, Walls

STEPS = ((0, -1, True), (0, 1, True), (-1, 0, False), (1, 0, False))  # dr, dc, horizontal ray
MARKS = (Segment.HORIZONTAL.value, Segment.VERTICAL.value)  # a white cell: horizontal, vertical


def rays(puzzle: Walls, cell: Cell) -> Iterator[tuple[int, bool, list[Cell]]]:
    """The clue's four rays: (direction index, horizontal?, the white cells outwards in order)."""
    for i, (dr, dc, horizontal) in enumerate(STEPS):
        cells, (r, c) = [], (cell[0] + dr, cell[1] + dc)
        while puzzle.grid.contains((r, c)) and (r, c) not in puzzle.black:
            cells.append((r, c))
            r, c = r + dr, c + dc
        yield i, horizontal, cells


def _white_segments(puzzle: Walls, solution: str) -> dict[Cell, bool]:
    return cellbits.read(puzzle, puzzle.white, solution, MARKS)


def _string(puzzle: Walls, values: dict[Cell, bool]) -> str:
    return cellbits.write(puzzle, puzzle.black, values, MARKS)


# --- CNF ----------------------------------------------------------------------------------------

def _var(pool: Any, cell: Cell) -> int:
    return pool.id(("horizontal", *cell))


def cnf(puzzle: Walls, pool: Any) -> list[list[int]]:
    """Every rule of `puzzle` as clauses; cell variables come first, row-major."""
    from pysat.card import CardEnc, EncType

    h = {cell: _var(pool, cell) for cell in puzzle.white}
    clauses = [[h[cell] if seg is Segment.HORIZONTAL else -h[cell]] for cell, seg in puzzle.given.items()]
    for cell, clue in puzzle.clues.items():
        indicators = []
        for d, horizontal, cells in rays(puzzle, cell):
            prev = None
            for k, white in enumerate(cells):
                x = h[white] if horizontal else -h[white]
                if prev is None:
                    ind = x
                else:
                    ind = pool.id(("run", *cell, d, k))
                    clauses += [[-ind, prev], [-ind, x], [ind, -prev, -x]]
                indicators.append(ind)
                prev = ind
        if clue > len(indicators):  # pysat.card refuses such a bound: say "impossible" directly
            never = pool.id(("impossible", *cell))
            clauses += [[never], [-never]]
        elif indicators:
            clauses += CardEnc.equals(lits=indicators, bound=clue, vpool=pool,
                                      encoding=EncType.seqcounter).clauses
    return clauses


def cnf_solution(puzzle: Walls, pool: Any, model: list[int]) -> str:
    """The solution string of a model (a cell in no clause, past the model's end, reads vertical)."""
    return _string(puzzle, cellbits.from_model(puzzle.white, lambda cell: _var(pool, cell), model))


def cnf_exclude(puzzle: Walls, pool: Any, solution: str) -> list[int]:
    """The clause that rules out exactly `solution`: some white cell turns the other way."""
    return cellbits.exclusion(_white_segments(puzzle, solution), lambda cell: _var(pool, cell))


# --- CP-SAT -------------------------------------------------------------------------------------

def cpsat(puzzle: Walls, model: Any) -> dict[Cell, Any]:
    """Add every rule to the CpModel; returns the horizontal-segment Boolean of each white cell."""
    h = {cell: model.new_bool_var(f"h{cell}") for cell in puzzle.white}
    for cell, seg in puzzle.given.items():
        model.add_bool_or([h[cell] if seg is Segment.HORIZONTAL else ~h[cell]])
    for cell, clue in puzzle.clues.items():
        runs = []
        for d, horizontal, cells in rays(puzzle, cell):
            chain, prev = [], None
            for k, white in enumerate(cells):
                x = h[white] if horizontal else ~h[white]
                if prev is None:
                    ind = x
                else:
                    ind = model.new_bool_var(f"run{cell}d{d}k{k}")
                    model.add_implication(ind, prev)
                    model.add_implication(ind, x)
                    model.add_bool_or([ind, ~prev, ~x])
                chain.append(ind)
                prev = ind
            runs.append(sum(chain))
        model.add(sum(runs) == clue)
    return h


def cpsat_solution(puzzle: Walls, h: dict[Cell, Any], solver: Any) -> str:
    return _string(puzzle, {cell: solver.boolean_value(x) for cell, x in h.items()})


def cpsat_exclude(puzzle: Walls, model: Any, h: dict[Cell, Any], solution: str) -> None:
    model.add_bool_or([~h[cell] if horizontal else h[cell]
                       for cell, horizontal in _white_segments(puzzle, solution).items()])
