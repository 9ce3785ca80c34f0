"""Walls readers and writers: the plain text of docs/FORMATS.md and janko.at "Mauerbau" blocks.

Plain-text tokens: `.` white cell, an integer a black cell with that clue, `#` a black cell
without one, `-` / `|` a white cell whose segment is given. janko.at writes the problem with `-`
for a white cell, `x` for a black cell without a number and `ew` / `ns` for a given segment, and
the solution with `ew` (horizontal), `ns` (vertical) and `-` (black).
"""

from __future__ import annotations

import re

from harness.errors import InstanceError
from harness.grid import Cell, Grid
from harness.kinds import Lines, grid_rows, parse_janko
from harness.kinds.bounds import number
from harness.kinds.walls.model import BLACK, Segment, Walls

JANKO_NAMES = ("walls", "mauerbau")
_SEGMENTS = {s.value: s for s in Segment}
_JANKO_PROBLEM = {"-": None, "x": BLACK, "ew": Segment.HORIZONTAL, "ns": Segment.VERTICAL}
_JANKO_SOLUTION = {"ew": Segment.HORIZONTAL.value, "ns": Segment.VERTICAL.value, "-": BLACK}

Token = int | str | Segment | None  # a clue, BLACK, a given segment, or None for a plain white cell


def from_tokens(rows: int, cols: int, tokens: list[Token]) -> Walls:
    """A puzzle from its cells listed row-major."""
    black: dict[Cell, int | None] = {}
    given: dict[Cell, Segment] = {}
    for i, token in enumerate(tokens):
        cell = divmod(i, cols)
        if isinstance(token, Segment):
            given[cell] = token
        elif token == BLACK:
            black[cell] = None
        elif isinstance(token, int):
            black[cell] = token
    return Walls(Grid(rows, cols), black, given)


# --- plain text ---------------------------------------------------------------------------------

def parse_body(rows: int, cols: int, lines: Lines, source: str) -> Walls:
    tokens = [_text_token(token, r, source, n)
              for r, (n, row) in enumerate(grid_rows(lines, rows, cols, source)) for token in row]
    return from_tokens(rows, cols, tokens)


def _text_token(token: str, row: int, source: str, line: int) -> Token:
    if token == ".":
        return None
    if token == BLACK:
        return BLACK
    if token in _SEGMENTS:
        return _SEGMENTS[token]
    if re.fullmatch(r"[0-9]+", token):
        return number(token, "a clue", source, line)  # int() of thousands of digits raises
    raise InstanceError(source, f"unknown token {token!r} in row {row} (expected ., #, -, | or a number)",
                        line)


def cell_token(puzzle: Walls, cell: Cell) -> str:
    if cell in puzzle.black:
        clue = puzzle.black[cell]
        return BLACK if clue is None else str(clue)
    return puzzle.given[cell].value if cell in puzzle.given else "."


def body_lines(puzzle: Walls) -> list[str]:
    """One line of blank-separated tokens per row."""
    return [" ".join(cell_token(puzzle, (r, c)) for c in range(puzzle.cols)) for r in range(puzzle.rows)]


# --- janko.at blocks ----------------------------------------------------------------------------

def read_janko(text: str, source: str = "<janko>") -> tuple[Walls, str]:
    """The first `begin … end` block: the puzzle, and its solution string ("" when it has none)."""
    _, grids = parse_janko(text, source, JANKO_NAMES, "Walls")
    problem = [(n, line.split()) for n, line in grids["problem"]]
    solution = [(n, line.split()) for n, line in grids.get("solution", [])]
    return from_janko(problem, solution, source)


def from_janko(problem: list[tuple[int | None, list[str]]], solution: list[tuple[int | None, list[str]]],
               source: str) -> tuple[Walls, str]:
    """A puzzle and solution from janko token rows, each with its line number (None when unknown)."""
    rows, cols = len(problem), len(problem[0][1])
    tokens = [_janko_token(tok, source, n) for n, row in problem for tok in row]
    answer = "/".join("".join(_janko_solution(tok, source, n) for tok in row) for n, row in solution)
    return from_tokens(rows, cols, tokens), answer


def _janko_token(token: str, source: str, line: int | None) -> Token:
    if token.lower() in _JANKO_PROBLEM:
        return _JANKO_PROBLEM[token.lower()]
    if re.fullmatch(r"[0-9]+", token):
        return number(token, "a clue", source, line)  # int() of thousands of digits raises
    raise InstanceError(source, f"unknown problem token {token!r} (expected -, x, ew, ns or a number)", line)


def _janko_solution(token: str, source: str, line: int | None) -> str:
    try:
        return _JANKO_SOLUTION[token.lower()]
    except KeyError:
        problem = f"unknown solution token {token!r} (expected ew, ns or -)"
        raise InstanceError(source, problem, line) from None

