"""One Boolean per white cell, to and from solution strings: shared by the rules of Walls and Marupeke.

A solution string has one character per cell, rows joined by "/": a fixed cell (Walls' black
cells, Marupeke's blocks) shows "#", a white cell one of two characters, `marks = (true, false)`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from harness.grid import Cell

FIXED = "#"


def read(puzzle, white: Iterable[Cell], solution: str, marks: tuple[str, str]) -> dict[Cell, bool]:
    """Each white cell of a solution string: True for `marks[0]`. ValueError if it does not fit."""
    rows = solution.split("/")
    if len(rows) != puzzle.rows or any(len(row) != puzzle.cols for row in rows):
        raise ValueError(f"solution shape does not match a {puzzle.rows}x{puzzle.cols} grid")
    out = {}
    for cell in white:
        ch = rows[cell[0]][cell[1]]
        if ch not in marks:
            raise ValueError(f"white cell {cell} holds {ch!r}, not {marks[0]!r} or {marks[1]!r}")
        out[cell] = ch == marks[0]
    return out


def write(puzzle, fixed: Iterable[Cell], values: dict[Cell, bool], marks: tuple[str, str]) -> str:
    """The solution string of the white cells' `values` and the `fixed` cells."""
    fixed = set(fixed)
    return "/".join(
        "".join(FIXED if (r, c) in fixed else marks[0] if values[(r, c)] else marks[1]
                for c in range(puzzle.cols))
        for r in range(puzzle.rows)
    )


def from_model(white: Iterable[Cell], var: Callable[[Cell], int], model: list[int]) -> dict[Cell, bool]:
    """Each white cell's value in a PySAT model (a variable in no clause, past the model's end, is false)."""
    return {cell: var(cell) <= len(model) and model[var(cell) - 1] > 0 for cell in white}


def exclusion(values: dict[Cell, bool], var: Callable[[Cell], int]) -> list[int]:
    """The clause that rules out exactly these values: some white cell takes the other one."""
    return [-var(cell) if value else var(cell) for cell, value in values.items()]
