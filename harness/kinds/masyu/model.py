"""The Masyu puzzle: white and black pearls on a grid, and the loop must pass through them all."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING

from harness.grid import Cell, Grid, OnGrid

if TYPE_CHECKING:
    from harness.kinds.demands import Stated

KIND = "masyu"


class Pearl(Enum):
    WHITE = "w"  # the loop goes straight through, and turns in at least one neighbour
    BLACK = "b"  # the loop turns here, and goes straight through both neighbours it uses


@dataclass(frozen=True)
class Masyu(OnGrid):
    """A Masyu instance: the grid and its pearls. `full` = the loop must visit every cell."""

    grid: Grid
    pearls: Mapping[Cell, Pearl] = field(default_factory=dict)
    full: bool = False
    kind: str = field(default=KIND, init=False)

    def __post_init__(self) -> None:
        for cell in self.pearls:
            if not self.grid.contains(cell):
                raise ValueError(f"pearl at {cell} lies outside the {self.rows}x{self.cols} grid")
        object.__setattr__(self, "pearls", MappingProxyType(dict(sorted(self.pearls.items()))))

    def __hash__(self) -> int:
        return hash((self.grid, tuple(self.pearls.items()), self.full))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Masyu)
            and (self.grid, dict(self.pearls), self.full)
            == (other.grid, dict(other.pearls), other.full)
        )


def stated(puzzle: Masyu) -> Stated:
    """What every answer meets, for the proof checker (`harness.kinds.demands`): each pearl passed,
    every cell when `full`."""
    from harness.kinds.demands import on_grid

    return on_grid(puzzle.grid, list(puzzle.grid.cells) if puzzle.full else list(puzzle.pearls))
