"""Slitherlink's rules for the loop strategies: the loop problem on the grid's corners, and the clue rules.

The loop runs along grid lines: the graph is the (ROWS+1)x(COLS+1) grid of vertices, and a cell's
four sides are edges of it. A clue k says exactly k of its cell's sides are on the loop; so the
loop uses a side of every cell with a clue of 1 or more (`hits`), and visits all four corners of
a cell with 3 or 4 (three sides of a square pass through all its corners): those corners are
the required vertices that the cutset cuts and the propagator's counts rely on (every vertex,
for a `full` puzzle). A `?` clue constrains nothing. The clue rule is written once as a CP-SAT
sum, once as CNF (every pattern of the four sides with another count is forbidden: at most 15
clauses of 4 literals, no auxiliaries) and once as an ASP count.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from harness.grid import Cell
from harness.kinds.slitherlink.model import Slitherlink, corners, sides
from loopbench_encodings.loop import LoopProblem


def clues(puzzle: Slitherlink) -> list[tuple[Cell, int]]:
    return sorted(puzzle.clues.items())


def loop_problem(puzzle: Slitherlink) -> LoopProblem:
    if puzzle.full:
        required = set(puzzle.vertices.cells)
    else:
        required = {corner for cell, k in clues(puzzle) if k >= 3 for corner in corners(cell)}
    hits = tuple(sides(cell) for cell, k in clues(puzzle) if k >= 1)
    return LoopProblem.on_grid(puzzle.vertices, required, hits)


def cpsat(puzzle: Slitherlink, m: Any) -> None:
    """Add the clue sums to `m` (a `loop.cpsat.LoopModel`: `m.model`, `m.edge[e]`)."""
    for cell, k in clues(puzzle):
        m.model.add(sum(m.edge[e] for e in sides(cell)) == k)


def cnf(puzzle: Slitherlink, arrays: Any) -> list[list[int]]:
    """The clues as clauses over `arrays.var(a, b)` (a `loop.arrays.LoopArrays`): every pattern of a
    cell's sides with another count is out."""
    var, out = arrays.var, []
    for cell, k in clues(puzzle):
        lits = [var(*e) for e in sides(cell)]
        for pattern in product((False, True), repeat=4):
            if sum(pattern) != k:
                out.append([-x if on else x for x, on in zip(lits, pattern, strict=True)])
    return out


ASP_RULES = """
#defined clue/2. #defined side/3.
:- clue(X,K), #count { U,V : side(X,U,V), on(U,V) } != K.
"""


def asp(puzzle: Slitherlink) -> str:
    """The clues over the loop program of `loop.asp` (`on`): `clue(X,K)`, `side(X,U,V)` facts and a count."""
    out = []
    for (r, c), k in clues(puzzle):
        out.append(f"clue(({r},{c}),{k}).")
        out += [f"side(({r},{c}),({a[0]},{a[1]}),({b[0]},{b[1]}))." for a, b in sides((r, c))]
    return "\n".join(out) + ASP_RULES
