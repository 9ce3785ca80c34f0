"""The Country Road puzzle: regions the loop visits once each, a number counting the cells it visits there.

janko.at gives the `areas` grid (a region id per cell) and a `problem` grid whose numbers sit in
one cell of their region (`-` elsewhere; some records have no `problem`: no numbers). Rules: one
loop through cell centres; it enters and leaves every region exactly once; a region's number is
how many of its cells the loop visits; two cells beside each other across a region's border are
never both off the loop. Cells whose region id is `@` (four janko.at puzzles) lie in no region:
the loop never enters them, and no border rule involves them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.kinds.janko_loop import TokenPuzzle

if TYPE_CHECKING:
    from harness.kinds.demands import Stated

KIND = "country"


@dataclass(frozen=True)
class CountryRoad(TokenPuzzle):
    kind: str = field(default=KIND, init=False)
    has_areas = True

    @classmethod
    def bad_token(cls, token: str) -> str:
        return "" if token == "-" or token.isdecimal() else "expected `-` or a number"

    def __post_init__(self) -> None:
        seen: dict[str, str] = {}
        for cell, t in self.clues().items():
            region = self.areas[cell[0]][cell[1]]
            if seen.setdefault(region, t) != t:
                raise ValueError(f"region {region} holds two numbers, {seen[region]} and {t}")

    def numbers(self) -> dict[str, int]:
        """Each numbered region's number, by region id."""
        return {self.areas[r][c]: int(t) for (r, c), t in self.clues().items()}


def stated(puzzle: CountryRoad) -> Stated:
    """What every answer meets, for the proof checker (`harness.kinds.demands`): an edge across each
    region's border (the loop visits every region), and one of every two neighbours across a border
    (they are never both off the loop)."""
    from harness.kinds.demands import on_grid
    from harness.kinds.janko_loop import borders

    groups = borders(puzzle)
    pairs = {pair for group in groups.values() for pair in group}
    return on_grid(puzzle.grid, (), groups.values(), sorted(pairs))
