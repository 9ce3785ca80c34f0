"""Helpers for a grid loop kind's rules (the loop through cell centres): edges by index, on-loop
literals, counts and parities per backend, so a genre's rules module holds only its own rules.

Edges and cells are numbered as `loop.grid.GridGraph` numbers them: cell (r, c) is vertex
r * cols + c; the horizontal edge right of (r, c) is r * (cols - 1) + c, the vertical one below it
h + r * cols + c (h = rows * (cols - 1)); as a clause literal, edge i is i + 1 (`loop.cuts`).
CNF: a cell's on-loop literal is an auxiliary variable equal to "some edge at the cell is on"
(`CnfKit.on`), auxiliaries come from `LoopArrays.new_variables`, and counts are PySAT's cardinality
encodings (`pysat.card`, sequential counters). ASP: a cell is `(R,C)`; `loop/1`, `on/2` and
`next/3` are `loop.asp`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from harness.grid import Cell
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.grid import GridGraph

DELTA = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}


class Edges:
    """A rows x cols grid's edge literals by cells (i + 1, as `loop.cuts` and the CNF number them)."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols, self.h = rows, cols, rows * (cols - 1)

    def between(self, a: Cell, b: Cell) -> int:
        """The literal of the edge between neighbouring cells (either order)."""
        (r, c), (r2, c2) = (a, b) if a <= b else (b, a)
        if r2 == r:
            return r * (self.cols - 1) + c + 1
        return self.h + r * self.cols + c + 1

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def arm(self, cell: Cell, d: str) -> list[int]:
        """The edges from `cell` going `d` ("n", "s", "e", "w") to the grid's edge, nearest first."""
        dr, dc = DELTA[d]
        out, (r, c) = [], cell
        while self.inside((r + dr, c + dc)):
            out.append(self.between((r, c), (r + dr, c + dc)))
            r, c = r + dr, c + dc
        return out

    def at(self, cell: Cell) -> list[int]:
        """The edges at a cell."""
        r, c = cell
        near = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        return [self.between(cell, n) for n in near if self.inside(n)]

    def vertex(self, cell: Cell) -> int:
        return cell[0] * self.cols + cell[1]


def crossings(edges: Edges, areas: Sequence[Sequence[str]]) -> dict[str, list[tuple[Cell, Cell, int]]]:
    """Each region's border edges as (its cell, the cell beyond, literal): the loop enters and
    leaves a region only through them."""
    out: dict[str, list[tuple[Cell, Cell, int]]] = {}
    for r, row in enumerate(areas):
        for c, a in enumerate(row):
            out.setdefault(a, [])
            for b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if edges.inside(b) and areas[b[0]][b[1]] != a:
                    out[a].append(((r, c), b, edges.between((r, c), b)))
    return out


def visiting(grid: Any, borders: dict[str, list[tuple[Cell, Cell, int]]]) -> LoopProblem:
    """The loop on the cells using a border edge of every region (`hits`): it visits each."""
    return LoopProblem(GridGraph(grid), (), tuple(tuple(lit - 1 for _, _, lit in group)
                                                  for group in borders.values()))


# --- CP-SAT (a `loop.cpsat.LoopModel`) ------------------------------------------------------------------

def cp_edge(m: Any, lit: int) -> Any:
    """The CP-SAT literal of an edge literal (negative: the edge off)."""
    return m.x[lit - 1] if lit > 0 else ~m.x[-lit - 1]


# --- CNF ----------------------------------------------------------------------------------------------

class CnfKit:
    """Auxiliary variables and their clauses for one puzzle's CNF (`arrays`: its `loop.arrays.LoopArrays`)."""

    def __init__(self, arrays: Any, edges: Edges) -> None:
        self.arrays, self.edges = arrays, edges
        self.clauses: list[list[int]] = []
        self._on: dict[Cell, int] = {}

    def new(self, count: int = 1) -> int:
        return self.arrays.new_variables(count)

    def on(self, cell: Cell) -> int:
        """A variable true exactly when the loop visits `cell` (some edge at it is on)."""
        if cell not in self._on:
            v = self._on[cell] = self.new()
            at = self.edges.at(cell)
            self.clauses += [[-e, v] for e in at]
            self.clauses.append([-v, *at])
        return self._on[cell]

    def count(self, lits: Sequence[int], k: int, how: str = "equals") -> None:
        """Exactly (`equals`), at most or at least k of `lits` true, as a sequential counter."""
        from pysat.card import CardEnc, EncType

        lits = list(lits)
        if not lits and k == 0:
            return
        if k < 0 or k > len(lits):
            if how == "equals" or (how == "atleast" and k > len(lits)):
                self.clauses.append([])  # no way to meet it
            return
        top = self.arrays.own["variables"]
        made = getattr(CardEnc, how)(lits, bound=k, top_id=top, encoding=EncType.seqcounter)
        if made.nv > top:
            self.arrays.new_variables(made.nv - top)
        self.clauses += made.clauses


# --- ASP ----------------------------------------------------------------------------------------------

def asp_cell(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


def asp_edge(edges: Edges, lit: int) -> str:
    """The `on/2` atom of an edge literal's edge."""
    i = abs(lit) - 1
    if i < edges.h:
        r, c = divmod(i, edges.cols - 1)
        return f"on(({r},{c}),({r},{c + 1}))"
    r, c = divmod(i - edges.h, edges.cols)
    return f"on(({r},{c}),({r + 1},{c}))"


def asp_ends(edges: Edges, lit: int) -> str:
    """An edge's two cells, `(R,C),(R2,C2)`, as `on/2` names them (for facts about edges)."""
    return asp_edge(edges, lit)[3:-1]


def asp_clauses(edges: Edges, clauses: Iterable[list[int]]) -> str:
    """Clauses over the edges as integrity constraints (an empty clause: no answer)."""
    out = []
    for clause in clauses:
        body = [f"not {asp_edge(edges, x)}" if x > 0 else asp_edge(edges, x) for x in clause]
        out.append(":- " + (", ".join(body) if body else "#true") + ".")
    return "\n".join(out) + "\n"
