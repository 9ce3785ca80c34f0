"""Masyu: a single closed loop through the cell centres, passing every pearl by its rule."""

from __future__ import annotations

from harness.kinds import Kind
from harness.kinds.masyu import formats
from harness.kinds.masyu.model import KIND as NAME
from harness.kinds.masyu.model import Masyu


class MasyuKind(Kind):
    """Readers, checker and drawing are this folder's `formats`, `check` and `draw` (found by `Kind`)."""

    name = NAME
    url_ids = formats.URL_PIDS
    janko_names = ("masyu",)

    def describe(self, puzzle: Masyu) -> str:
        return f"{len(puzzle.pearls)} pearls" + (", every cell on the loop" if puzzle.full else "")

    def claims_id(self, spec: str) -> bool:
        return formats.is_tatham_id(spec)

    def read_id(self, spec: str) -> Masyu:
        return formats.read_tatham(spec)

    # Bundles keep Tatham's Pearl ids, which Pearl's own Game > Specific reads too.
    def write_compact(self, puzzle: Masyu) -> str:
        return formats.write_tatham(puzzle)

    def read_compact(self, text: str, rows: int, cols: int, source: str) -> Masyu:
        return formats.read_tatham(text)


KIND = MasyuKind()
