"""Yajilin (janko.at): shaded cells counted by arrows, and one loop through every other empty cell."""

from __future__ import annotations

from harness.grid import Cell, parse_solution
from harness.kinds.janko_loop import GenreKind
from harness.kinds.yajilin.model import KIND as NAME
from harness.kinds.yajilin.model import Yajilin


class YajilinKind(GenreKind):
    name = NAME
    janko_names = ("yajilin",)
    model = Yajilin
    off_tokens = ("-", "x")  # janko.at's solutions: `x` a shaded cell, `-` a clue or blocked one
    scrape_file = "Yajilin.jsonl.bz2"
    # spread over the sizes, more 10x10s for the smoke set, and the `x` and `@` cells (102, 156, 160)
    sample = ("Yajilin-001", "Yajilin-033", "Yajilin-072", "Yajilin-090", "Yajilin-102", "Yajilin-136",
              "Yajilin-156", "Yajilin-224", "Yajilin-347", "Yajilin-451", "Yajilin-005", "Yajilin-234",
              "Yajilin-520", "Yajilin-300", "Yajilin-160", "Yajilin-179", "Yajilin-007", "Yajilin-356",
              "Yajilin-528")

    def shaded(self, puzzle: Yajilin, solution: str) -> set[Cell]:
        """The empty cells off the loop: the loop decides the shading."""
        if not solution:
            return set()
        bits = parse_solution(puzzle.grid, solution)
        return {cell for cell in puzzle.empty() if not bits[cell]}


KIND = YajilinKind()
