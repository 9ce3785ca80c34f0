"""The Slitherlink puzzle: numbered cells, and one loop along the grid lines around them.

The loop runs on the (ROWS+1)x(COLS+1) grid of vertices (the cells' corners); a clue says how
many of its cell's four sides the loop uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING

from harness.grid import Cell, Edge, Grid, OnGrid

if TYPE_CHECKING:
    from harness.kinds.demands import Stated

KIND = "slitherlink"
MAX_CLUE = 4


@dataclass(frozen=True)
class Slitherlink(OnGrid):
    """A Slitherlink instance on a grid of cells.

    `clues` maps a cell to its number 0-4. `unknown` holds the cells that show a `?`
    (puzz.link's clue whose number is hidden): drawn, but they constrain nothing, and they are kept
    apart from `clues` so that a solver reading `clues` never meets a clue without a number.
    `full` = the loop must visit every vertex (pzprjs's and cspuz's `f` flag).
    """

    grid: Grid
    clues: Mapping[Cell, int] = field(default_factory=dict)
    unknown: frozenset[Cell] = frozenset()
    full: bool = False
    kind: str = field(default=KIND, init=False)

    def __post_init__(self) -> None:
        for cell, value in self.clues.items():
            if not self.grid.contains(cell):
                raise ValueError(f"clue at {cell} lies outside the {self.rows}x{self.cols} grid")
            if type(value) is not int or not 0 <= value <= MAX_CLUE:
                raise ValueError(f"clue at {cell} is {value!r}, not a number 0-{MAX_CLUE}")
        for cell in self.unknown:
            if not self.grid.contains(cell):
                raise ValueError(f"`?` clue at {cell} lies outside the {self.rows}x{self.cols} grid")
            if cell in self.clues:
                raise ValueError(f"cell {cell} has both a number and a `?`")
        object.__setattr__(self, "clues", MappingProxyType(dict(sorted(self.clues.items()))))
        object.__setattr__(self, "unknown", frozenset(self.unknown))

    @cached_property
    def vertices(self) -> Grid:
        """The grid the loop lives on: the cells' corners, (ROWS+1)x(COLS+1)."""
        return Grid(self.rows + 1, self.cols + 1)

    def __hash__(self) -> int:
        return hash((self.grid, tuple(self.clues.items()), tuple(sorted(self.unknown)), self.full))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Slitherlink)
            and (self.grid, dict(self.clues), self.unknown, self.full)
            == (other.grid, dict(other.clues), other.unknown, other.full)
        )


def corners(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The cell's four corners on the vertex grid: top-left, top-right, bottom-left, bottom-right."""
    r, c = cell
    return (r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)


def sides(cell: Cell) -> tuple[Edge, Edge, Edge, Edge]:
    """The cell's four sides as vertex-grid edges (canonical order): top, bottom, left, right."""
    top_left, top_right, bottom_left, bottom_right = corners(cell)
    return ((top_left, top_right), (bottom_left, bottom_right), (top_left, bottom_left),
            (top_right, bottom_right))


def stated(puzzle: Slitherlink) -> Stated:
    """What every answer meets, for the proof checker (`harness.kinds.demands`): a side of each clue
    of 1 or more, and each corner of a clue of 3 or 4 (three sides of a cell touch its four
    corners); every vertex when `full`."""
    from harness.kinds.demands import on_grid

    if puzzle.full:
        required = list(puzzle.vertices.cells)
    else:
        required = sorted({c for cell, k in puzzle.clues.items() if k >= 3 for c in corners(cell)})
    return on_grid(puzzle.vertices, required, [sides(cell) for cell, k in puzzle.clues.items() if k >= 1])
