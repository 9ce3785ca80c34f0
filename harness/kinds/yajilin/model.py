"""The Yajilin puzzle: arrows counting shaded cells, and one loop through every cell not shaded.

janko.at tokens: `-` an empty cell; `<k><d>` an arrow clue (`2s`: two shaded cells below it,
counted to the grid's edge; `n` `s` `e` `w`); `x` and `@` cells that are neither shaded nor on the
loop (janko.at's "Kreuzfelder"; 87 `x` and 6 `@` in the set, every one off the loop and unshaded
in the published solutions). Rules: shade some of the empty cells, never two beside each other;
one loop through cell centres passes every empty cell not shaded; clue, `x` and `@` cells are
neither. So the loop decides the shading: an empty cell off it is shaded (the published
solutions leave no empty cell both unshaded and off the loop), and the answer is the loop alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.grid import Cell
from harness.kinds.janko_loop import TokenPuzzle

if TYPE_CHECKING:
    from harness.kinds.demands import Stated

KIND = "yajilin"
ARROW = re.compile(r"([0-9]+)([nsew])")
BLOCKED = ("x", "@")


@dataclass(frozen=True)
class Yajilin(TokenPuzzle):
    kind: str = field(default=KIND, init=False)

    @classmethod
    def bad_token(cls, token: str) -> str:
        return "" if token == "-" or token in BLOCKED or ARROW.fullmatch(token) else \
            "expected `-`, an arrow clue (`2s`: number, n/s/e/w) or `x`/`@`"

    def arrows(self) -> dict[Cell, tuple[int, str]]:
        """Each clue cell's number and direction."""
        out = {}
        for cell, t in self.clues().items():
            if match := ARROW.fullmatch(t):
                out[cell] = (int(match[1]), match[2])
        return out

    def empty(self) -> list[Cell]:
        """The cells that are on the loop or shaded: every `-` cell."""
        return [(r, c) for r, row in enumerate(self.problem) for c, t in enumerate(row) if t == "-"]


def stated(puzzle: Yajilin) -> Stated:
    """What every answer meets, for the proof checker (`harness.kinds.demands`): an empty cell may be
    shaded, so none is passed for sure alone; but of two empty neighbours one is passed (shaded
    cells never touch), and every empty cell an arrow's 0 sees is passed."""
    from harness.kinds.demands import on_grid
    from harness.kinds.janko_loop import SIDES, ray

    empty = set(puzzle.empty())
    pairs = [(a, b) for a in sorted(empty) for b in ((a[0], a[1] + 1), (a[0] + 1, a[1])) if b in empty]
    required = {other for cell, (k, d) in puzzle.arrows().items() if k == 0
                for other in ray(puzzle.grid, cell, SIDES[d]) if other in empty}
    return on_grid(puzzle.grid, sorted(required), (), pairs)
