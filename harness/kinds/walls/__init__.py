"""Walls: a horizontal or vertical segment in every white cell; a number counts the segments aimed at it."""

from __future__ import annotations

from harness.kinds import Kind
from harness.kinds.walls import formats
from harness.kinds.walls.model import KIND as NAME
from harness.kinds.walls.model import Walls


class WallsKind(Kind):
    """Readers (janko.at blocks too), checker and drawing are this folder's `formats`, `check` and
    `draw` (found by `Kind`)."""

    name = NAME
    janko_names = formats.JANKO_NAMES

    def describe(self, puzzle: Walls) -> str:
        given = f", {len(puzzle.given)} given segments" if puzzle.given else ""
        return f"{len(puzzle.clues)} clues, {len(puzzle.black)} black cells{given}"


KIND = WallsKind()
