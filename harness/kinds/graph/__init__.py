"""Graph: a loop through every vertex of an undirected graph, i.e. a Hamiltonian cycle."""

from __future__ import annotations

from harness.kinds import Kind
from harness.kinds.graph import formats
from harness.kinds.graph.model import KIND as NAME
from harness.kinds.graph.model import Graph
from harness.outcomes import Answer


class GraphKind(Kind):
    """Readers (and the bundles' gap form), checker and drawing are this folder's `formats`, `check`
    and `draw` (found by `Kind`); TSPLIB HCP and DIMACS files are claimed by their text."""

    name = NAME
    header_words = ("the number of vertices", "the number of edges")
    header_least = (1, 0)
    known_answers = {"hamiltonian": Answer.SAT, "non-hamiltonian": Answer.UNSAT}
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

    def describe(self, puzzle: Graph) -> str:
        degrees = puzzle.degrees()
        low, high = min(degrees), max(degrees)
        return f"degree {low}" if low == high else f"degrees {low}..{high}"

    def claims_text(self, text: str) -> bool:
        return formats.is_hcp(text) or formats.is_dimacs(text)

    def read_claimed(self, text: str, source: str) -> Graph:
        return formats.read_hcp(text, source) if formats.is_hcp(text) else formats.read_dimacs(text, source)

    def write_tour(self, puzzle: Graph, solution: str, name: str = "graph") -> str:
        return formats.write_tour(puzzle, solution, name)


KIND = GraphKind()
