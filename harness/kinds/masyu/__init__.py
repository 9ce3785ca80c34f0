"""Masyu: a single closed loop through the cell centres, passing every pearl by its rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.kinds import Kind, Lines
from harness.kinds.masyu import check, draw, formats
from harness.kinds.masyu.model import KIND as NAME
from harness.kinds.masyu.model import Masyu


class MasyuKind(Kind):
    name = NAME
    url_ids = formats.URL_PIDS
    janko_names = ("masyu",)

    def parse_body(self, rows: int, cols: int, lines: Lines, source: str) -> Masyu:
        return formats.parse_body(rows, cols, lines, source)

    def body_lines(self, puzzle: Masyu) -> list[str]:
        return formats.body_lines(puzzle)

    def check(self, puzzle: Masyu, solution: str) -> list[str]:
        return check.check(puzzle, solution)

    def render_text(self, puzzle: Masyu, solution: str = "", ascii: bool = False) -> str:
        return draw.render_text(puzzle, solution, ascii)

    def draw(self, puzzle: Masyu, solution: str = "", ax: Any = None, title: str = "") -> Any:
        return draw.draw(puzzle, solution, ax, title)

    def describe(self, puzzle: Masyu) -> str:
        return f"{len(puzzle.pearls)} pearls" + (", every cell on the loop" if puzzle.full else "")

    def read_url(self, url: str) -> Masyu:
        return formats.read_url(url)

    def write_url(self, puzzle: Masyu) -> str:
        return formats.write_url(puzzle)

    def claims_id(self, spec: str) -> bool:
        return formats.is_tatham_id(spec)

    def read_id(self, spec: str) -> Masyu:
        return formats.read_tatham(spec)

    def read_janko(self, text: str, source: str) -> tuple[Masyu, str]:
        return formats.read_janko(text, source)

    # Bundles keep Tatham's Pearl ids, which Pearl's own Game > Specific reads too.
    def write_compact(self, puzzle: Masyu) -> str:
        return formats.write_tatham(puzzle)

    def read_compact(self, text: str, rows: int, cols: int, source: str) -> Masyu:
        return formats.read_tatham(text)

    def import_corpus(self, corpus: Path) -> dict[str, list[Any]]:
        from harness.kinds.masyu import corpus as importers

        return importers.build(corpus)


KIND = MasyuKind()
