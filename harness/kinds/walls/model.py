"""The Walls puzzle: black cells with numbers, and a horizontal or vertical segment in every white cell."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from harness.grid import Cell, Grid, OnGrid

KIND = "walls"


class Segment(Enum):
    """What a white cell holds; the value is its character in texts and solution strings."""

    HORIZONTAL = "-"
    VERTICAL = "|"


BLACK = "#"  # a black cell in a solution string


@dataclass(frozen=True)
class Walls(OnGrid):
    """A Walls instance: its black cells (each with a clue, or None for no number) and given segments.

    Every cell that is not black is white and must take a segment; a clue counts the segments that
    run straight into its cell from the four sides.
    """

    grid: Grid
    black: Mapping[Cell, int | None] = field(default_factory=dict)
    given: Mapping[Cell, Segment] = field(default_factory=dict)
    kind: str = field(default=KIND, init=False)

    def __post_init__(self) -> None:
        for cell in [*self.black, *self.given]:
            if not self.grid.contains(cell):
                raise ValueError(f"cell {cell} lies outside the {self.rows}x{self.cols} grid")
        both = set(self.black) & set(self.given)
        if both:
            raise ValueError(f"cell {min(both)} is black and has a given segment")
        for cell, clue in self.black.items():
            if clue is not None and clue < 0:
                raise ValueError(f"clue {clue} at {cell} is negative")
        object.__setattr__(self, "black", MappingProxyType(dict(sorted(self.black.items()))))
        object.__setattr__(self, "given", MappingProxyType(dict(sorted(self.given.items()))))

    @property
    def clues(self) -> dict[Cell, int]:
        """The numbered black cells."""
        return {cell: n for cell, n in self.black.items() if n is not None}

    @property
    def white(self) -> list[Cell]:
        return [cell for cell in self.grid.cells if cell not in self.black]

    def __hash__(self) -> int:
        return hash((self.grid, tuple(self.black.items()), tuple(self.given.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Walls) and (self.grid, dict(self.black), dict(self.given)) == (
            other.grid, dict(other.black), dict(other.given))
