"""Slitherlink's rules for the loop strategies: the loop problem on the grid's corners, and the clue rules.

The loop runs along grid lines: the graph is the (ROWS+1)x(COLS+1) grid of vertices, and a cell's
four sides are edges of it. A clue k says exactly k of its cell's sides are on the loop; so the
loop uses a side of every cell with a clue of 1 or more (`hits`), and visits all four corners of
a cell with 3 or 4 (three sides of a square pass through all its corners): those corners are
the required vertices that the cutset cuts and the propagator's counts rely on (every vertex,
for a `full` puzzle). A `?` clue constrains nothing. The clue rule is written once as a CP-SAT
sum, once as CNF (the direct encoding of "exactly k": at most 8 clauses, no auxiliaries) and once
as an ASP count; `implied_clauses`, what they and degree 0/2 imply that propagation misses, go to
every backend alike as clauses over the edges (`loop.implied_clauses`; `implied=true`, the default
of every loop strategy), so a strategy comparison compares one model.
"""

from __future__ import annotations

from typing import Any

from harness.grid import Cell
from harness.kinds.slitherlink.model import Slitherlink, sides
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.grid import GridGraph


def clues(puzzle: Slitherlink) -> list[tuple[Cell, int]]:
    return sorted(puzzle.clues.items())


def loop_problem(puzzle: Slitherlink) -> LoopProblem:
    rows, cols = puzzle.rows, puzzle.cols
    if puzzle.full:
        required = range((rows + 1) * (cols + 1))
    else:  # the four corners of every 3 and 4, by the vertex grid's row-major index
        required = {v + d for (r, c), k in clues(puzzle) if k >= 3
                    for v in (r * (cols + 1) + c,) for d in (0, 1, cols + 1, cols + 2)}
    hits = []  # the sides of every clue of 1 or more, as edge indices (a variable less one)
    for (r, c), k in clues(puzzle):
        if k:
            top, bottom, left, right = side_vars(rows, cols, r, c)
            hits.append((top - 1, bottom - 1, left - 1, right - 1))
    return LoopProblem(GridGraph(puzzle.vertices), tuple(sorted(required)), tuple(hits))


def cpsat(puzzle: Slitherlink, m: Any) -> None:
    """Add the clue sums to `m` (a `loop.cpsat.LoopModel`: `m.model`, `m.edge[e]`)."""
    for cell, k in clues(puzzle):
        m.model.add(sum(m.edge[e] for e in sides(cell)) == k)


def side_vars(rows: int, cols: int, r: int, c: int) -> tuple[int, int, int, int]:
    """The CNF variables of cell (r, c)'s sides, in `sides`' order (top, bottom, left, right), by
    index arithmetic on the loop graph's numbering of the (rows + 1) x (cols + 1) corners: the
    horizontal edges row by row (`cols` a row), then the vertical ones (`cols + 1` a row)."""
    top = r * cols + c + 1
    left = (rows + 1) * cols + r * (cols + 1) + c + 1
    return top, top + cols, left, left + 1


# For a clue k over the sides (n, s, w, e: top, bottom, left, right), the direct encoding of "exactly
# k": every k + 1 sides not all on, and every 5 - k not all off (written out: a comprehension per
# clause cost twice as much).
EXACTLY = (
    lambda n, s, w, e: ([-n], [-s], [-w], [-e]),
    lambda n, s, w, e: ([-n, -s], [-n, -w], [-n, -e], [-s, -w], [-s, -e], [-w, -e], [n, s, w, e]),
    lambda n, s, w, e: ([-n, -s, -w], [-n, -s, -e], [-n, -w, -e], [-s, -w, -e],
                        [n, s, w], [n, s, e], [n, w, e], [s, w, e]),
    lambda n, s, w, e: ([-n, -s, -w, -e], [n, s], [n, w], [n, e], [s, w], [s, e], [w, e]),
    lambda n, s, w, e: ([n], [s], [w], [e]),
)


def cnf(puzzle: Slitherlink, arrays: Any) -> list[list[int]]:
    """The clues as the direct encoding of "exactly k sides" (`EXACTLY`: at most 8 clauses, no
    auxiliaries), by `side_vars` (`arrays`: the `loop.arrays.LoopArrays`, unused: the numbering is
    the grid's).

    Every clause "not this pattern of the four sides" of a count other than k is one of these or
    contains one, so they say the same and unit propagation gets more from them: a 1 with a side on
    has the other three off at once.
    """
    rows, cols, out = puzzle.rows, puzzle.cols, []
    add = out.extend
    for (r, c), k in clues(puzzle):
        add(EXACTLY[k](*side_vars(rows, cols, r, c)))
    return out


def cnf_covers_demands(puzzle: Slitherlink) -> bool:
    """Whether `cnf` holds a subset of every demand clause of the loop problem (`loop.cnf`), so those
    can be left out: true unless the puzzle is `full` (every vertex required).

    A hits group is the four sides of a clue k of 1 or more, and each of the clue's "at least k"
    clauses is k's choice of 5 - k of those sides; a required vertex is a corner of a 3 (whose
    "at least" clauses include its two sides at that corner) or of a 4 (its sides are units).
    """
    return not puzzle.full


def implied_clauses(puzzle: Slitherlink) -> list[list[int]]:
    """Clauses the clues and degree 0/2 imply that unit propagation over `cnf` reaches only by conflict,
    over the loop graph's edge literals (i + 1: edge i on); every backend takes them (`implied=true`).

    Each holds in every single-loop answer (tests/test_slitherlink_implied.py checks them against
    every loop of small random puzzles):
    - two 3s diagonal to each other: each has on the two sides away from their shared corner;
    - two 3s side by side: their shared side, and the two sides parallel to it, are on, and the
      shared side's continuations off; unless the rectangle around the two cells alone answers the
      puzzle (it is then the only loop with the shared side off).
    Rules at the corners of every 1 and 3 hold too but are not part of the model: they cost more
    than they save (commit 1b8aaf1 has them; results/reference-slither/HISTORY.md, "Implied clauses").
    """
    rows, cols, out = puzzle.rows, puzzle.cols, []
    given = dict(clues(puzzle))
    for (r, c), k in given.items():
        if k != 3:
            continue
        for dc in (1, -1):  # a 3 down and to the right or left
            if given.get((r + 1, c + dc)) == 3:
                top, _, left, right = side_vars(rows, cols, r, c)
                _, bottom, left2, right2 = side_vars(rows, cols, r + 1, c + dc)
                out += [[top], [left if dc == 1 else right], [bottom], [right2 if dc == 1 else left2]]
        for other in ((r, c + 1), (r + 1, c)):
            if given.get(other) == 3 and not _rectangle_answers(puzzle, (r, c), other):
                out += _adjacent_threes(puzzle, (r, c), other)
    return out


def _adjacent_threes(puzzle: Slitherlink, first: Cell, second: Cell) -> list[list[int]]:
    """Two 3s side by side, shared side on: it and the sides parallel to it on, its continuations off."""
    rows, cols = puzzle.rows, puzzle.cols
    var = GridGraph(puzzle.vertices).var
    a, b = side_vars(rows, cols, *first), side_vars(rows, cols, *second)
    if second[0] == first[0]:  # side by side in a row: the shared side is first's right
        shared, parallel, (p, q) = a[3], (a[2], b[3]), sides(first)[3]
    else:  # one above the other: first's bottom
        shared, parallel, (p, q) = a[1], (a[0], b[1]), sides(first)[1]
    dr, dc = q[0] - p[0], q[1] - p[1]
    beyond = [(p, (p[0] - dr, p[1] - dc)), (q, (q[0] + dr, q[1] + dc))]
    out = [[shared], [parallel[0]], [parallel[1]]]
    out += [[-var(x, y)] for x, y in beyond if 0 <= y[0] <= rows and 0 <= y[1] <= cols]
    return out


def _rectangle_answers(puzzle: Slitherlink, first: Cell, second: Cell) -> bool:
    """Whether the loop around just these two cells meets every clue (and `full`): then it is an answer
    with their shared side off, and the side-by-side rule does not hold."""
    if puzzle.full and puzzle.rows * puzzle.cols > 2:
        return False
    pair = {first, second}
    for cell, k in puzzle.clues.items():
        r, c = cell
        near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        used = sum((n in pair) != (cell in pair) for n in near)
        if used != k:
            return False
    return True


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
