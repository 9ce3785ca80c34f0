"""The Marupeke puzzle: O or X in every white cell, never three alike in a line; black cells block."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from harness.grid import Cell, Grid, OnGrid

KIND = "marupeke"


class Mark(Enum):
    """What a white cell holds; the value is its character in texts and solution strings."""

    O = "O"  # noqa: E741 - the puzzle's own letter
    X = "X"


BLOCK = "#"  # a black blocker, in texts and solution strings


@dataclass(frozen=True)
class Marupeke(OnGrid):
    """A Marupeke instance: its black blockers and the marks given in white cells."""

    grid: Grid
    blocks: Iterable[Cell] = frozenset()
    given: Mapping[Cell, Mark] = field(default_factory=dict)
    kind: str = field(default=KIND, init=False)

    def __post_init__(self) -> None:
        blocks = frozenset(self.blocks)
        for cell in [*blocks, *self.given]:
            if not self.grid.contains(cell):
                raise ValueError(f"cell {cell} lies outside the {self.rows}x{self.cols} grid")
        both = blocks & set(self.given)
        if both:
            raise ValueError(f"cell {min(both)} is a blocker and has a given mark")
        object.__setattr__(self, "blocks", blocks)
        object.__setattr__(self, "given", MappingProxyType(dict(sorted(self.given.items()))))

    @property
    def white(self) -> list[Cell]:
        return [cell for cell in self.grid.cells if cell not in self.blocks]

    def __hash__(self) -> int:
        return hash((self.grid, self.blocks, tuple(self.given.items())))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Marupeke)
            and (self.grid, self.blocks, dict(self.given)) == (other.grid, other.blocks, dict(other.given))
        )
