"""Slitherlink: a single closed loop along the grid lines; a clue counts its cell's sides on the loop."""

from __future__ import annotations

from harness.kinds import Kind
from harness.kinds.slitherlink import formats
from harness.kinds.slitherlink.model import KIND as NAME
from harness.kinds.slitherlink.model import Slitherlink


class SlitherlinkKind(Kind):
    """Readers (bundles: the puzz.link body, after `f/` for an every-vertex puzzle: short, and it
    holds `?`), checker and drawing are this folder's `formats`, `check` and `draw` (found by `Kind`)."""

    name = NAME
    url_ids = formats.URL_PIDS
    janko_names = ("slitherlink",)

    def describe(self, puzzle: Slitherlink) -> str:
        words = [f"{len(puzzle.clues)} clue{'s' * (len(puzzle.clues) != 1)}"]
        if puzzle.unknown:
            words.append(f"{len(puzzle.unknown)} `?`")
        if puzzle.full:
            words.append("every vertex on the loop")
        return ", ".join(words)

    def claims_id(self, spec: str) -> bool:
        return formats.is_loopy_id(spec)

    def read_id(self, spec: str) -> Slitherlink:
        return formats.read_loopy(spec)


KIND = SlitherlinkKind()
