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

from harness.grid import Cell
from harness.kinds.janko_loop import TokenPuzzle

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
