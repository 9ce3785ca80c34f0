"""Marupeke plain text (docs/FORMATS.md): `.` an empty white cell, `O` / `X` a given mark, `#` a blocker.

Rows may be written with or without blanks between tokens; `o` and `x` are read as `O` and `X`.
The bundles keep each row without blanks, rows joined by `/` (`.XX.#.O/#..#O#./…`).
"""

from __future__ import annotations

from harness.errors import InstanceError
from harness.grid import Cell, Grid
from harness.kinds import Lines, grid_rows
from harness.kinds.marupeke.model import BLOCK, Mark, Marupeke

_MARKS = {m.value: m for m in Mark}


def from_rows(rows: list[str], source: str = "<rows>") -> Marupeke:
    """A puzzle from unspaced rows of `.`, `O`, `X`, `#` (the corpus's and the bundles' form)."""
    lines = [(n, row) for n, row in enumerate(rows, 1)]
    return parse_body(len(rows), len(rows[0]) if rows else 0, lines, source)


def parse_body(rows: int, cols: int, lines: Lines, source: str) -> Marupeke:
    blocks: set[Cell] = set()
    given: dict[Cell, Mark] = {}
    for r, (n, tokens) in enumerate(grid_rows(lines, rows, cols, source)):
        for c, token in enumerate(tokens):
            if token == BLOCK:
                blocks.add((r, c))
            elif token.upper() in _MARKS:
                given[(r, c)] = _MARKS[token.upper()]
            elif token != ".":
                raise InstanceError(source, f"unknown token {token!r} in row {r} (expected ., O, X or #)", n)
    return Marupeke(Grid(rows, cols), blocks, given)


def cell_token(puzzle: Marupeke, cell: Cell) -> str:
    if cell in puzzle.blocks:
        return BLOCK
    return puzzle.given[cell].value if cell in puzzle.given else "."


def rows_of(puzzle: Marupeke) -> list[str]:
    """One unspaced string per row."""
    return ["".join(cell_token(puzzle, (r, c)) for c in range(puzzle.cols)) for r in range(puzzle.rows)]


def body_lines(puzzle: Marupeke) -> list[str]:
    """One line of blank-separated tokens per row, as in FORMATS.md."""
    return [" ".join(row) for row in rows_of(puzzle)]
