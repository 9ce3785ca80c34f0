"""Marupeke: O or X in every white cell so that no three alike stand in a line; black cells block."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.kinds import Kind, Lines
from harness.kinds.marupeke import check, draw, formats
from harness.kinds.marupeke.model import KIND as NAME
from harness.kinds.marupeke.model import Marupeke


class MarupekeKind(Kind):
    name = NAME

    def parse_body(self, rows: int, cols: int, lines: Lines, source: str) -> Marupeke:
        return formats.parse_body(rows, cols, lines, source)

    def body_lines(self, puzzle: Marupeke) -> list[str]:
        return formats.body_lines(puzzle)

    def check(self, puzzle: Marupeke, solution: str) -> list[str]:
        return check.check(puzzle, solution)

    def render_text(self, puzzle: Marupeke, solution: str = "", ascii: bool = False) -> str:
        return draw.render_text(puzzle, solution, ascii)

    def draw(self, puzzle: Marupeke, solution: str = "", ax: Any = None, title: str = "") -> Any:
        return draw.draw(puzzle, solution, ax, title)

    def describe(self, puzzle: Marupeke) -> str:
        return f"{len(puzzle.blocks)} blockers, {len(puzzle.given)} given marks"

    # Bundles keep rows without blanks: a 20x20 puzzle is one 420-character line.
    def write_compact(self, puzzle: Marupeke) -> str:
        return "/".join(formats.rows_of(puzzle))

    def import_corpus(self, corpus: Path) -> dict[str, list[Any]]:
        from harness.kinds.marupeke import corpus as importers

        return importers.build(corpus)


KIND = MarupekeKind()
