"""The Castle Wall puzzle: walls the loop never enters, coloured inside or outside, numbered with how
much of the loop runs their arrow's way.

janko.at tokens: `-` an empty cell; a wall is `<k><d><c>` (a number, an arrow `n` `s` `e` `w` and
a colour), `<k><d>` (no colour: grey, either side) or `<c>` (a colour alone). Read off the
published solutions (all 68): `o` walls lie inside the loop and `x` walls outside. The number is
the total length, in unit segments, of the loop's segments parallel to the arrow between the wall
and the grid's edge (the borders between those cells that the loop crosses): all 1,760 numbers
hold so. Rules: one loop through cell centres, never into a wall; the colours and numbers as read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.grid import Cell
from harness.kinds.janko_loop import TokenPuzzle

if TYPE_CHECKING:
    from harness.kinds.demands import Stated

KIND = "castlewall"
INSIDE, OUTSIDE = "o", "x"
WALL = re.compile(r"(?:([0-9]+)([nsew]))?([ox]?)")


@dataclass(frozen=True)
class Wall:
    number: int | None  # None: no number
    arrow: str  # n, s, e or w ("" without a number)
    colour: str  # INSIDE, OUTSIDE, or "" (grey)


@dataclass(frozen=True)
class CastleWall(TokenPuzzle):
    kind: str = field(default=KIND, init=False)

    @classmethod
    def bad_token(cls, token: str) -> str:
        return "" if token == "-" or WALL.fullmatch(token) else \
            "expected `-` or a wall: `3sx` (number, arrow n/s/e/w, colour o/x), `3s` or `o`/`x`"

    def walls(self) -> dict[Cell, Wall]:
        out = {}
        for cell, t in self.clues().items():
            number, arrow, colour = WALL.fullmatch(t).groups()  # type: ignore[union-attr]
            out[cell] = Wall(int(number) if number else None, arrow or "", colour)
        return out


def stated(puzzle: CastleWall) -> Stated:
    """What every answer meets, for the proof checker (`harness.kinds.demands`): an edge along the
    arrow of each wall numbered 1 or more, and for each wall inside the loop, an edge going up from a
    cell left of it in its row (a ray leftwards, just above its centre, crosses the loop)."""
    from harness.kinds.demands import on_grid
    from harness.kinds.janko_loop import SIDES, ray

    grid, groups = puzzle.grid, []
    for (r, c), wall in puzzle.walls().items():
        if wall.number:
            d = SIDES[wall.arrow]
            groups.append([(cell, grid.step(cell, d)) for cell in ray(grid, (r, c), d) if grid.step(cell, d)])
        if wall.colour == INSIDE and r > 0:
            groups.append([((r - 1, k), (r, k)) for k in range(c)])
    return on_grid(grid, (), groups)
