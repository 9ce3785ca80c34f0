"""Walls: a horizontal or vertical segment in every white cell; a number counts the segments aimed at it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.kinds import Kind, Lines
from harness.kinds.walls import check, draw, formats
from harness.kinds.walls.model import KIND as NAME
from harness.kinds.walls.model import Walls


class WallsKind(Kind):
    name = NAME
    janko_names = formats.JANKO_NAMES

    def parse_body(self, rows: int, cols: int, lines: Lines, source: str) -> Walls:
        return formats.parse_body(rows, cols, lines, source)

    def body_lines(self, puzzle: Walls) -> list[str]:
        return formats.body_lines(puzzle)

    def check(self, puzzle: Walls, solution: str) -> list[str]:
        return check.check(puzzle, solution)

    def render_text(self, puzzle: Walls, solution: str = "", ascii: bool = False) -> str:
        return draw.render_text(puzzle, solution, ascii)

    def draw(self, puzzle: Walls, solution: str = "", ax: Any = None, title: str = "") -> Any:
        return draw.draw(puzzle, solution, ax, title)

    def describe(self, puzzle: Walls) -> str:
        given = f", {len(puzzle.given)} given segments" if puzzle.given else ""
        return f"{len(puzzle.clues)} clues, {len(puzzle.black)} black cells{given}"

    def read_janko(self, text: str, source: str) -> tuple[Walls, str]:
        return formats.read_janko(text, source)

    def import_corpus(self, corpus: Path) -> dict[str, list[Any]]:
        from harness.kinds.walls import corpus as importers

        return importers.build(corpus)


KIND = WallsKind()
