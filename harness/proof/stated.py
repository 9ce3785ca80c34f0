"""What each loop kind's own model says of every answer, as a proof names it: edges, demands, answers written.

Read off the kinds' models (`harness.kinds.<kind>.model`, the checkers' rules), never off the
encodings' loop problems (`encodings/rules/<kind>.loop_problem`), so a cut is judged against what
the kind states, not against the code that made it. A proof names a vertex as the kind numbers it
in files: a grid's row-major index (Masyu's cells, Slitherlink's corners), a graph's 1-based number.
- `edges`: every edge of the loop's graph, by the names of its ends (smaller first);
- `demands`: what every answer meets, each a set of places: a vertex `(v,)` it passes, or an edge
  `(u, v)` it uses. Masyu: each pearl (every cell when `full`); Slitherlink: a side of each clue of 1
  or more, and each corner of a clue of 3 or 4 (three sides of a cell touch its four corners),
  every vertex when `full`; a graph: every vertex (a Hamiltonian cycle);
- `write(cycle)`: the kind's solution string of a cycle given by named edges (`harness.grid` for a
  grid, the graph model's `solution_string`), ValueError when the kind cannot write it;
- `read(answer)`: the named edges of a solution string (ValueError when it is malformed).
A kind not listed in `STATED` states nothing here: its cuts cannot be judged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Named = tuple[int, int]


@dataclass(frozen=True)
class Stated:
    edges: frozenset[Named]
    demands: list[set[tuple[int, ...]]]
    write: Callable[[list[Named]], str]
    read: Callable[[str], set[Named]]


def _on_grid(grid: Any, required: list[tuple[int, int]], groups: list[list[tuple[Any, Any]]]) -> Stated:
    """A loop on `grid` through every `required` cell, using an edge of each group (edges by cells)."""
    from harness.grid import solution_edges, solution_string

    cols = grid.cols

    def name(cell: tuple[int, int]) -> int:
        return cell[0] * cols + cell[1]

    def named(a: Any, b: Any) -> Named:
        u, v = name(a), name(b)
        return (u, v) if u < v else (v, u)

    cell_of = {name(c): c for c in grid.cells}
    demands = [{(name(c),)} for c in required] + [{named(a, b) for a, b in group} for group in groups]
    return Stated(frozenset(named(a, b) for a, b in grid.edges), demands,
                  lambda cycle: solution_string(grid, [(cell_of[u], cell_of[v]) for u, v in cycle]),
                  lambda answer: {named(a, b) for a, b in solution_edges(grid, answer)})


def masyu(puzzle: Any) -> Stated:
    grid = puzzle.grid
    return _on_grid(grid, list(grid.cells) if puzzle.full else list(puzzle.pearls), [])


def slitherlink(puzzle: Any) -> Stated:
    from harness.kinds.slitherlink.model import corners, sides

    if puzzle.full:
        required = list(puzzle.vertices.cells)
    else:
        required = sorted({c for cell, k in puzzle.clues.items() if k >= 3 for c in corners(cell)})
    groups = [list(sides(cell)) for cell, k in puzzle.clues.items() if k >= 1]
    return _on_grid(puzzle.vertices, required, groups)


def graph(puzzle: Any) -> Stated:
    from harness.kinds.graph.model import solution_edges, solution_string

    def write(cycle: list[Named]) -> str:
        return solution_string(puzzle.n, [(u - 1, v - 1) for u, v in cycle])

    return Stated(frozenset((u + 1, v + 1) for u, v in puzzle.edges), [{(v + 1,)} for v in range(puzzle.n)],
                  write, lambda answer: {(u + 1, v + 1) for u, v in solution_edges(puzzle, answer)})


STATED: dict[str, Callable[[Any], Stated]] = {"masyu": masyu, "slitherlink": slitherlink, "graph": graph}


def stated(puzzle: Any) -> Stated | None:
    """What `puzzle`'s kind states of every answer, or None for a kind that states nothing here."""
    make = STATED.get(puzzle.kind)
    return make(puzzle) if make is not None else None
