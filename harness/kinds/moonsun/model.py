"""The Moon or Sun puzzle: regions the loop visits once each, through all moons or all suns, alternating.

janko.at gives the `areas` grid (a region id per cell) and a `problem` grid of `x` (a moon) and
`o` (a sun), `-` elsewhere (puzz.link numbers them the other way round: 1 sun, 2 moon; which is
which changes no answer). Rules: one loop through cell centres; it enters and leaves every region
exactly once; in each region it passes through all the moons and no sun, or all the suns and no
moon; from one region to the next along the loop, moon regions and sun regions alternate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.grid import Cell
from harness.kinds.janko_loop import TokenPuzzle

if TYPE_CHECKING:
    from harness.kinds.demands import Stated

KIND = "moonsun"
MOON, SUN = "x", "o"


@dataclass(frozen=True)
class MoonSun(TokenPuzzle):
    kind: str = field(default=KIND, init=False)
    has_areas = True

    @classmethod
    def bad_token(cls, token: str) -> str:
        return "" if token in ("-", MOON, SUN) else "expected `-`, `x` (a moon) or `o` (a sun)"

    def symbols(self, which: str) -> list[Cell]:
        """The cells holding moons (`x`) or suns (`o`)."""
        return [cell for cell, t in self.clues().items() if t == which]


def stated(puzzle: MoonSun) -> Stated:
    """What every answer meets, for the proof checker (`harness.kinds.demands`): an edge across each
    region's border (the loop visits every region), and a moon or a sun passed in each region."""
    from harness.kinds.demands import on_grid
    from harness.kinds.janko_loop import borders

    symbols: dict[str, list[Cell]] = {a: [] for a in puzzle.regions()}
    for r, c in puzzle.symbols(MOON) + puzzle.symbols(SUN):
        symbols[puzzle.areas[r][c]].append((r, c))
    return on_grid(puzzle.grid, (), borders(puzzle).values(), symbols.values())
