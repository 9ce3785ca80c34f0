"""The Geradeweg puzzle: numbers the loop passes, each the length of every straight run through it.

janko.at tokens: `-` an empty cell, a number k a cell the loop visits. Every straight run of the
loop that touches a numbered cell is k unit segments long: where the loop turns on the cell both
arms are k long, where it goes straight the whole run through it is. The loop need not visit the
other cells. A `0` (three cells of janko.at's set) is read off the published solutions: the loop
passes it, and where it turns there its two arms are equal (the `?` of other tools); going
straight, any length.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.grid import Cell
from harness.kinds.janko_loop import TokenPuzzle

if TYPE_CHECKING:
    from harness.kinds.demands import Stated

KIND = "geradeweg"


@dataclass(frozen=True)
class Geradeweg(TokenPuzzle):
    kind: str = field(default=KIND, init=False)

    @classmethod
    def bad_token(cls, token: str) -> str:
        return "" if token == "-" or token.isdecimal() else "expected `-` or a number"

    def numbers(self) -> dict[Cell, int]:
        """Every numbered cell's number (0: the arms at a turn are equal, any length)."""
        return {cell: int(t) for cell, t in self.clues().items()}


def stated(puzzle: Geradeweg) -> Stated:
    """What every answer meets, for the proof checker (`harness.kinds.demands`): each number passed."""
    from harness.kinds.demands import on_grid

    return on_grid(puzzle.grid, sorted(puzzle.numbers()))
