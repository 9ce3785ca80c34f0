"""Marupeke: O or X in every white cell so that no three alike stand in a line; black cells block."""

from __future__ import annotations

from harness.kinds import Kind
from harness.kinds.marupeke import formats
from harness.kinds.marupeke.model import KIND as NAME
from harness.kinds.marupeke.model import Marupeke


class MarupekeKind(Kind):
    """Readers, checker and drawing are this folder's `formats`, `check` and `draw` (found by `Kind`)."""

    name = NAME

    def describe(self, puzzle: Marupeke) -> str:
        return f"{len(puzzle.blocks)} blockers, {len(puzzle.given)} given marks"

    # Bundles keep rows without blanks: a 20x20 puzzle is one 420-character line.
    def write_compact(self, puzzle: Marupeke) -> str:
        return "/".join(formats.rows_of(puzzle))


KIND = MarupekeKind()
