"""The local Masyu rules as CNF over one Boolean per grid edge, shared by the PySAT encodings.

Variables come from an `IDPool` and are named by meaning: `("edge", a, b)` is true when the loop
uses the edge between cells a and b (canonical order, `harness.grid.edge`). The clauses say
everything but "one loop": every cell has degree 0 or 2 (direct clauses, no auxiliaries), pearls
lie on the loop, a white pearl is passed straight and the loop turns in at least one of the two
cells beside it, a black pearl is a turn and the loop goes straight on through both cells it
uses, and a `full` puzzle puts every cell on the loop. A puzzle with neither pearls nor `full`
gets one clause asking for some edge, so the empty drawing is no answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from harness.grid import Cell, Direction, Edge, Grid, edge
from harness.kinds.masyu.model import Masyu, Pearl

from ._subloops import Cut

Clause = list[int]


def edge_var(pool, a: Cell, b: Cell) -> int:
    return pool.id(("edge", *edge(a, b)))


def degree_clauses(pool, grid: Grid, cell: Cell) -> list[Clause]:
    """Degree 0 or 2: no edge alone (`[-e] + others`), and no three edges together."""
    lits = [edge_var(pool, *e) for e in grid.incident[cell]]
    alone = [[-e] + [o for o in lits if o != e] for e in lits]
    return alone + [[-a, -b, -c] for a, b, c in combinations(lits, 3)]


def on_loop_clause(pool, grid: Grid, cell: Cell) -> Clause:
    return [edge_var(pool, *e) for e in grid.incident[cell]]


def _arm(pool, grid: Grid, cell: Cell, d: Direction, steps: int) -> int | None:
    """The edge `steps` cells away from `cell` going `d` (1: the cell's own edge), or None past the border."""
    a = cell
    for _ in range(steps - 1):
        a = grid.step(a, d)
        if a is None:
            return None
    b = grid.step(a, d)
    return None if b is None else edge_var(pool, a, b)


def white_clauses(pool, grid: Grid, cell: Cell) -> list[Clause]:
    """Straight through (no horizontal edge with a vertical one), and a turn beside it."""
    near = {d: _arm(pool, grid, cell, d, 1) for d in Direction}
    far = {d: _arm(pool, grid, cell, d, 2) for d in Direction}
    out = [on_loop_clause(pool, grid, cell)]
    for h in (Direction.LEFT, Direction.RIGHT):
        for v in (Direction.UP, Direction.DOWN):
            if near[h] and near[v]:
                out.append([-near[h], -near[v]])
    for a, b in ((Direction.LEFT, Direction.RIGHT), (Direction.UP, Direction.DOWN)):
        if near[a] and near[b] and far[a] and far[b]:  # past a border the neighbour must turn
            out.append([-near[a], -near[b], -far[a], -far[b]])
    return out


def black_clauses(pool, grid: Grid, cell: Cell) -> list[Clause]:
    """A turn (not both edges of an axis), and each used edge continues straight one more cell."""
    out = [on_loop_clause(pool, grid, cell)]
    for a, b in ((Direction.LEFT, Direction.RIGHT), (Direction.UP, Direction.DOWN)):
        if _arm(pool, grid, cell, a, 1) and _arm(pool, grid, cell, b, 1):
            out.append([-_arm(pool, grid, cell, a, 1), -_arm(pool, grid, cell, b, 1)])
    for d in Direction:
        near, far = _arm(pool, grid, cell, d, 1), _arm(pool, grid, cell, d, 2)
        if near:
            out.append([-near, far] if far else [-near])
    return out


PEARL_CLAUSES = {Pearl.WHITE: white_clauses, Pearl.BLACK: black_clauses}


def masyu_clauses(puzzle: Masyu, pool) -> list[Clause]:
    """Every local rule of the puzzle; the edge variables are numbered first, in `grid.edges` order."""
    grid = puzzle.grid
    for e in grid.edges:
        edge_var(pool, *e)
    out = [c for cell in grid.cells for c in degree_clauses(pool, grid, cell)]
    for cell, pearl in puzzle.pearls.items():
        out += PEARL_CLAUSES[pearl](pool, grid, cell)
    if puzzle.full:
        out += [on_loop_clause(pool, grid, cell) for cell in grid.cells]
    elif not puzzle.pearls:
        out.append([edge_var(pool, *e) for e in grid.edges])
    return out


def chosen_edges(puzzle: Masyu, pool, model: Iterable[int]) -> list[Edge]:
    true = {lit for lit in model if lit > 0}
    return [e for e in puzzle.grid.edges if edge_var(pool, *e) in true]


def cut_clause(pool, cut: Cut) -> Clause:
    """`forbid`: not all of these edges; `require`: one of these edges."""
    if cut.forbid:
        return [-edge_var(pool, *e) for e in cut.forbid]
    return [edge_var(pool, *e) for e in cut.require]
