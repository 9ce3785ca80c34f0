"""Rectangular grid geometry (cells, edges, neighbours, directions) and the solution strings on it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property

Cell = tuple[int, int]
Edge = tuple[Cell, Cell]  # always (smaller cell, larger cell) in row-major order


class Direction(IntEnum):
    """The four moves on a grid; the value is Simon Tatham's bit for that direction."""

    RIGHT = 1
    UP = 2
    LEFT = 4
    DOWN = 8

    @property
    def delta(self) -> Cell:
        return _DELTAS[self]

    @property
    def opposite(self) -> Direction:
        return _OPPOSITE[self]

    @property
    def horizontal(self) -> bool:
        return self in (Direction.LEFT, Direction.RIGHT)


DIRECTIONS = tuple(Direction)  # iterating an Enum class is slow; loops over cells use this

_DELTAS = {
    Direction.RIGHT: (0, 1),
    Direction.UP: (-1, 0),
    Direction.LEFT: (0, -1),
    Direction.DOWN: (1, 0),
}
_OPPOSITE = {
    Direction.RIGHT: Direction.LEFT,
    Direction.LEFT: Direction.RIGHT,
    Direction.UP: Direction.DOWN,
    Direction.DOWN: Direction.UP,
}


def edge(a: Cell, b: Cell) -> Edge:
    """The undirected edge between two cells, in canonical order."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class Grid:
    """A rows x cols grid of cells joined by edges between orthogonal neighbours."""

    rows: int
    cols: int

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise ValueError(f"grid must be at least 1x1, got {self.rows}x{self.cols}")

    @property
    def num_cells(self) -> int:
        return self.rows * self.cols

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r in range(self.rows) for c in range(self.cols))

    def index(self, cell: Cell) -> int:
        """Row-major index of a cell."""
        return cell[0] * self.cols + cell[1]

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def step(self, cell: Cell, direction: Direction) -> Cell | None:
        """The neighbour of `cell` in `direction`, or None past the border."""
        dr, dc = direction.delta
        nxt = (cell[0] + dr, cell[1] + dc)
        return nxt if self.contains(nxt) else None

    def neighbours(self, cell: Cell) -> list[tuple[Direction, Cell]]:
        out = []
        for d in DIRECTIONS:
            nxt = self.step(cell, d)
            if nxt is not None:
                out.append((d, nxt))
        return out

    @cached_property
    def edges(self) -> tuple[Edge, ...]:
        """Every edge once: horizontal edges row by row, then vertical edges row by row."""
        horizontal = [((r, c), (r, c + 1)) for r in range(self.rows) for c in range(self.cols - 1)]
        vertical = [((r, c), (r + 1, c)) for r in range(self.rows - 1) for c in range(self.cols)]
        return tuple(horizontal + vertical)

    @cached_property
    def incident(self) -> dict[Cell, tuple[Edge, ...]]:
        """The edges touching each cell."""
        return {
            cell: tuple(edge(cell, nxt) for _, nxt in self.neighbours(cell)) for cell in self.cells
        }


class OnGrid:
    """A puzzle on a `grid` (a field of the dataclass that inherits this): its `rows` and `cols`."""

    @property
    def rows(self) -> int:
        return self.grid.rows

    @property
    def cols(self) -> int:
        return self.grid.cols


# --- the loop solution string of FORMATS.md, for any grid (Masyu's cells, Slitherlink's vertices) ---

HEX = "0123456789abcdef"
HEX_DIGITS = set(HEX + "/")


def solution_string(grid: Grid, loop_edges: Iterable[Edge]) -> str:
    """Encode a set of edges as one hex digit per cell (right 1, up 2, left 4, down 8)."""
    bits = {cell: 0 for cell in grid.cells}
    for a, b in loop_edges:
        a, b = edge(a, b)
        if b == (a[0], a[1] + 1):
            bits[a] |= Direction.RIGHT
            bits[b] |= Direction.LEFT
        elif b == (a[0] + 1, a[1]):
            bits[a] |= Direction.DOWN
            bits[b] |= Direction.UP
        else:
            raise ValueError(f"{a} and {b} are not neighbours")
    return bits_string(grid.cols, list(bits.values()))  # bits holds the cells in row-major order


def bits_string(cols: int, bits: list[int]) -> str:
    """The solution string of every cell's direction bits, listed row-major, `cols` cells a row."""
    digits = "".join(map(HEX.__getitem__, bits))
    return "/".join(digits[k : k + cols] for k in range(0, len(digits), cols))


def parse_solution(grid: Grid, text: str) -> dict[Cell, int]:
    """Decode a solution string into each cell's direction bits; raises ValueError on bad shape."""
    rows = text.split("/")
    if len(rows) != grid.rows or any(len(row) != grid.cols for row in rows):
        raise ValueError(f"solution shape does not match a {grid.rows}x{grid.cols} grid")
    bad = set(text) - HEX_DIGITS
    if bad:  # int(ch, 16) alone would take "C" and non-ASCII digits: the format is lower-case hex
        raise ValueError(f"solution holds {''.join(sorted(bad))!r}, not lower-case hex digits")
    return {(r, c): int(ch, 16) for r, row in enumerate(rows) for c, ch in enumerate(row)}


def solution_edges(grid: Grid, text: str) -> set[Edge]:
    """The edges a solution string names (each edge named from either end counts once)."""
    out = set()
    for cell, bits in parse_solution(grid, text).items():
        for d in DIRECTIONS:
            nxt = grid.step(cell, d)
            if bits & d and nxt is not None:
                out.add(edge(cell, nxt))
    return out


def parse_cells(grid: Grid, text: str, alphabet: str) -> dict[Cell, str]:
    """A solution string of one character per cell (Walls, Marupeke), by cell.

    Raises ValueError when its shape does not fit the grid or it holds a character not in `alphabet`.
    """
    rows = text.split("/")
    if len(rows) != grid.rows or any(len(row) != grid.cols for row in rows):
        raise ValueError(f"solution shape does not match a {grid.rows}x{grid.cols} grid")
    bad = set(text) - set(alphabet) - {"/"}
    if bad:
        raise ValueError(f"solution holds {''.join(sorted(bad))!r}; cells are "
                         f"{', '.join(alphabet[:-1])} or {alphabet[-1]}")
    return {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row)}
