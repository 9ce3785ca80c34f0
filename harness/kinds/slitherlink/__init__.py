"""Slitherlink: a single closed loop along the grid lines; a clue counts its cell's sides on the loop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.kinds import Kind, Lines
from harness.kinds.slitherlink import check, draw, formats
from harness.kinds.slitherlink.model import KIND as NAME
from harness.kinds.slitherlink.model import Slitherlink


class SlitherlinkKind(Kind):
    name = NAME
    url_ids = formats.URL_PIDS
    janko_names = ("slitherlink",)

    def parse_body(self, rows: int, cols: int, lines: Lines, source: str) -> Slitherlink:
        return formats.parse_body(rows, cols, lines, source)

    def body_lines(self, puzzle: Slitherlink) -> list[str]:
        return formats.body_lines(puzzle)

    def check(self, puzzle: Slitherlink, solution: str) -> list[str]:
        return check.check(puzzle, solution)

    def render_text(self, puzzle: Slitherlink, solution: str = "", ascii: bool = False) -> str:
        return draw.render_text(puzzle, solution, ascii)

    def draw(self, puzzle: Slitherlink, solution: str = "", ax: Any = None, title: str = "") -> Any:
        return draw.draw(puzzle, solution, ax, title)

    def describe(self, puzzle: Slitherlink) -> str:
        words = [f"{len(puzzle.clues)} clue{'s' * (len(puzzle.clues) != 1)}"]
        if puzzle.unknown:
            words.append(f"{len(puzzle.unknown)} `?`")
        if puzzle.full:
            words.append("every vertex on the loop")
        return ", ".join(words)

    def read_url(self, url: str) -> Slitherlink:
        return formats.read_url(url)

    def write_url(self, puzzle: Slitherlink) -> str:
        return formats.write_url(puzzle)

    def claims_id(self, spec: str) -> bool:
        return formats.is_loopy_id(spec)

    def read_id(self, spec: str) -> Slitherlink:
        return formats.read_loopy(spec)

    def read_janko(self, text: str, source: str) -> tuple[Slitherlink, str]:
        return formats.read_janko(text, source)

    # Bundles keep the puzz.link body (after `f/` for an every-vertex puzzle): short, and it holds `?`.
    def write_compact(self, puzzle: Slitherlink) -> str:
        return formats.write_compact(puzzle)

    def read_compact(self, text: str, rows: int, cols: int, source: str) -> Slitherlink:
        return formats.read_compact(text, rows, cols, source)

    def import_corpus(self, corpus: Path) -> dict[str, list[Any]]:
        from harness.kinds.slitherlink import corpus as importers

        return importers.build(corpus)


KIND = SlitherlinkKind()
