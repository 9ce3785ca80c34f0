"""Rectangular grid geometry (cells, edges, neighbours, directions) that knows no solver."""

from __future__ import annotations

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
