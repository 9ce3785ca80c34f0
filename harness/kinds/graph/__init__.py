"""Graph: a loop through every vertex of an undirected graph, i.e. a Hamiltonian cycle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.kinds import Kind, Lines
from harness.kinds.graph import check, draw, formats
from harness.kinds.graph.model import KIND as NAME
from harness.kinds.graph.model import Graph


class GraphKind(Kind):
    name = NAME
    header_words = ("the number of vertices", "the number of edges")
    header_least = (1, 0)
    known_answers = {"hamiltonian": "sat", "non-hamiltonian": "unsat"}
    size_words = "vertices"
    size_columns = ("vertices", "edges")  # the database's `rows` and `cols` hold them too
    # the report's cap: past draw.STRESS_UP_TO (400) vertices the layout is a circle; a 1,000-vertex
    # drawing measured 0.1 s and 0.3 MB of SVG, a 400-vertex grid's stress layout 3 s (one core)
    drawn_up_to = 1000

    @staticmethod
    def size(rows: int, cols: int) -> int:
        return rows  # a graph's rows are its vertices (its cols its edges)

    @staticmethod
    def size_text(rows: int, cols: int) -> str:
        return f"{rows} vertices, {cols} edges"

    def parse_body(self, rows: int, cols: int, lines: Lines, source: str) -> Graph:
        return formats.parse_body(rows, cols, lines, source)

    def body_lines(self, puzzle: Graph) -> list[str]:
        return formats.body_lines(puzzle)

    def check(self, puzzle: Graph, solution: str) -> list[str]:
        return check.check(puzzle, solution)

    def render_text(self, puzzle: Graph, solution: str = "", ascii: bool = False) -> str:
        return draw.render_text(puzzle, solution, ascii)

    def draw(self, puzzle: Graph, solution: str = "", ax: Any = None, title: str = "") -> Any:
        return draw.draw(puzzle, solution, ax, title)

    def describe(self, puzzle: Graph) -> str:
        degrees = puzzle.degrees()
        low, high = min(degrees), max(degrees)
        return f"degree {low}" if low == high else f"degrees {low}..{high}"

    def claims_text(self, text: str) -> bool:
        return formats.is_hcp(text) or formats.is_dimacs(text)

    def read_claimed(self, text: str, source: str) -> Graph:
        return formats.read_hcp(text, source) if formats.is_hcp(text) else formats.read_dimacs(text, source)

    def write_compact(self, puzzle: Graph) -> str:
        return formats.write_compact(puzzle)

    def read_compact(self, text: str, rows: int, cols: int, source: str) -> Graph:
        return formats.read_compact(text, rows, cols, source)

    def import_corpus(self, corpus: Path) -> dict[str, list[Any]]:
        from harness.kinds.graph import corpus as importers

        return importers.build(corpus)

    def write_tour(self, puzzle: Graph, solution: str, name: str = "graph") -> str:
        return formats.write_tour(puzzle, solution, name)


KIND = GraphKind()
