"""What each loop kind says of every answer, as a proof names it: edges, demands, answers written.

Each kind states it itself (`Kind.stated`, found as its model's `stated(puzzle)`), read off its
model and its checker's rules, never off its solving rules (`harness/kinds/<kind>/rules.py`), so a
cut is judged against what the kind states, not against the code that made it. A proof names a
vertex as the kind numbers it in files: a grid's row-major index (Masyu's cells, Slitherlink's
corners), a graph's 1-based number.
- `edges`: every edge of the loop's graph, by the names of its ends (smaller first);
- `demands`: what every answer meets, each a set of places: a vertex `(v,)` it passes, or an edge
  `(u, v)` it uses (one place of the set at least). A demand must hold for every answer: where a
  cell may be off the loop (shaded, optional), it is no demand alone;
- `write(cycle)`: the kind's solution string of a cycle given by named edges (`harness.grid` for a
  grid, the graph model's `solution_string`), ValueError when the kind cannot write it;
- `read(answer)`: the named edges of a solution string (ValueError when it is malformed).
A kind that states nothing (its `stated` gives None) has no cut judged valid: its proofs are suspect.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

Named = tuple[int, int]


@dataclass(frozen=True)
class Stated:
    edges: frozenset[Named]
    demands: list[set[tuple[int, ...]]]
    write: Callable[[list[Named]], str]
    read: Callable[[str], set[Named]]


def on_grid(grid: Any, required: Iterable[Any] = (), groups: Iterable[Iterable[tuple[Any, Any]]] = (),
            any_of: Iterable[Iterable[Any]] = ()) -> Stated:
    """A loop on every edge of `grid` through every `required` cell, using an edge of each group
    (edges by cells), and passing a cell of each `any_of` set. An empty group or set is left out:
    it would mean no answer, and a kind with no answer needs no cut judged."""
    from harness.grid import solution_edges, solution_string

    cols = grid.cols

    def name(cell: tuple[int, int]) -> int:
        return cell[0] * cols + cell[1]

    def named(a: Any, b: Any) -> Named:
        u, v = name(a), name(b)
        return (u, v) if u < v else (v, u)

    cell_of = {name(c): c for c in grid.cells}
    demands = [{(name(c),)} for c in required]
    demands += [{named(a, b) for a, b in group} for group in map(list, groups) if group]
    demands += [{(name(c),) for c in cells} for cells in map(list, any_of) if cells]
    return Stated(frozenset(named(a, b) for a, b in grid.edges), demands,
                  lambda cycle: solution_string(grid, [(cell_of[u], cell_of[v]) for u, v in cycle]),
                  lambda answer: {named(a, b) for a, b in solution_edges(grid, answer)})


def stated(puzzle: Any) -> Stated | None:
    """What `puzzle`'s kind states of every answer (`Kind.stated`), or None for a kind that states nothing."""
    from harness import kinds

    return kinds.of(puzzle).stated(puzzle)
