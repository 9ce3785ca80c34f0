"""Slitherlink's rules for the loop strategies: the loop problem on the grid's corners, and the clue rules.

The loop runs along grid lines: the graph is the (ROWS+1)x(COLS+1) grid of vertices, and a cell's
four sides are edges of it. A clue k says exactly k of its cell's sides are on the loop; so the
loop uses a side of every cell with a clue of 1 or more (`hits`), and visits all four corners of
a cell with 3 or 4 (three sides of a square pass through all its corners): those corners are
the required vertices that the cutset cuts and the propagator's counts rely on (every vertex,
for a `full` puzzle). A `?` clue constrains nothing. The clue rule is written once as a CP-SAT
sum, once as CNF (the direct encoding of "exactly k": at most 8 clauses, no auxiliaries) and once
as an ASP count; `implied_clauses`, what they and degree 0/2 imply that propagation misses, go to
every backend alike as clauses over the edges (`loop.implied_clauses`; for clingo, rules that
ground to them, `asp_implied`; `implied=true`, the default of every loop strategy), so a strategy
comparison compares one model.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from harness.grid import Cell
from harness.kinds.slitherlink.model import Slitherlink, sides
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.graph import GridGraph, grid_shape


def clues(puzzle: Slitherlink) -> list[tuple[Cell, int]]:
    return sorted(puzzle.clues.items())


def loop_problem(puzzle: Slitherlink) -> LoopProblem:
    rows, cols = puzzle.rows, puzzle.cols
    if puzzle.full:
        required = range((rows + 1) * (cols + 1))
    else:  # the four corners of every 3 and 4, by the vertex grid's row-major index
        required = {v + d for (r, c), k in clues(puzzle) if k >= 3
                    for v in (r * (cols + 1) + c,) for d in (0, 1, cols + 1, cols + 2)}
    hits = tuple(tuple(x - 1 for x in side_vars(rows, cols, r, c)) for (r, c), k in clues(puzzle) if k >= 1)
    return LoopProblem(GridGraph(puzzle.vertices), tuple(sorted(required)), hits)


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


# For a clue k, the direct encoding of "exactly k of the four sides": the positions of every k + 1
# sides that are not all on, and of every 5 - k sides that are not all off.
AT_MOST = [list(combinations(range(4), k + 1)) for k in range(5)]
AT_LEAST = [list(combinations(range(4), 5 - k)) if k else [] for k in range(5)]


def cnf(puzzle: Slitherlink, arrays: Any) -> list[list[int]]:
    """The clues as the direct encoding of "exactly k sides" (at most 8 clauses, no auxiliaries), by
    `side_vars` (`arrays`: the `loop.arrays.LoopArrays`, unused: the numbering is the grid's).

    Every clause "not this pattern of the four sides" of a count other than k is one of these or
    contains one, so they say the same and unit propagation gets more from them: a 1 with a side on
    has the other three off at once.
    """
    rows, cols, out = puzzle.rows, puzzle.cols, []
    add = out.append
    for (r, c), k in clues(puzzle):
        x = side_vars(rows, cols, r, c)
        for group in AT_MOST[k]:
            add([-x[i] for i in group])
        for group in AT_LEAST[k]:
            add([x[i] for i in group])
    return out


def implied_clauses(puzzle: Slitherlink) -> list[list[int]]:
    """Clauses the clues and degree 0/2 imply that unit propagation over `cnf` reaches only by conflict,
    over the loop graph's edge literals (i + 1: edge i on); every backend takes them (`implied=true`).

    Each holds in every single-loop answer (tests/test_slitherlink_implied.py checks them against
    every loop of small random puzzles):
    - at each corner v of a 1 or a 3, with s one of the cell's two sides at v and the "outer" edges
      at v (those not of the cell, inside the grid): a 1 with s on goes on through an outer edge
      (not the cell's other side), so [-s, *outer]; a 3 with s off has its other side at v on,
      which goes on through an outer edge, so [s, *outer]; a 3 never has both outer edges (v would
      then have no room for its sides, leaving two off), so [-o1, -o2]. In a grid corner `outer` is
      empty: a 1 there has both corner sides off, a 3 both on. Beside a 0, the outer edges are off:
      a 3 diagonal to a 0 has its two sides at their shared corner on;
    - two 3s diagonal to each other: each has on the two sides away from their shared corner;
    - two 3s side by side: their shared side, and the two sides parallel to it, are on, and the
      shared side's continuations off; unless the rectangle around the two cells alone answers the
      puzzle (it is then the only loop with the shared side off).
    """
    return _corner_clauses(puzzle) + _three_clauses(puzzle)


def _corner_clauses(puzzle: Slitherlink) -> list[list[int]]:
    """`implied_clauses` at the corners of every 1 and 3."""
    rows, cols, out = puzzle.rows, puzzle.cols, []
    add = out.append
    incident = grid_shape(rows + 1, cols + 1)[0].incident
    given = dict(clues(puzzle))
    for (r, c), k in given.items():
        if k != 1 and k != 3:
            continue
        top, bottom, left, right = side_vars(rows, cols, r, c)
        v = r * (cols + 1) + c  # the top-left corner; the others are v + 1, v + cols + 1, v + cols + 2
        for corner, s, t in ((v, top, left), (v + 1, top, right), (v + cols + 1, bottom, left),
                             (v + cols + 2, bottom, right)):
            outer = [i + 1 for i in incident[corner] if i + 1 != s and i + 1 != t]
            if k == 1:
                add([-s, *outer])
                add([-t, *outer])
            else:
                add([s, *outer])
                add([t, *outer])
                if len(outer) == 2:
                    add([-outer[0], -outer[1]])
    return out


def _three_clauses(puzzle: Slitherlink) -> list[list[int]]:
    """`implied_clauses` of two 3s diagonal to each other or side by side."""
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


# `_corner_clauses` as rules over `asp`'s clue and side facts and the loop program's `link`: the
# grounder makes them per clue, where the same constraints written out one by one took clingo twice
# as long to read as the rest of the program.
ASP_CORNERS = """
corner_side(X,W,Y) :- side(X,W,Y).
corner_side(X,W,Y) :- side(X,Y,W).
odd_clue(X) :- clue(X,1).
odd_clue(X) :- clue(X,3).
goes_on(X,W) :- odd_clue(X), corner_side(X,W,_), link(W,Y), not corner_side(X,W,Y).
:- clue(X,1), corner_side(X,W,Y), link(W,Y), not goes_on(X,W).
:- clue(X,3), corner_side(X,W,Y), not link(W,Y), not goes_on(X,W).
:- clue(X,3), corner_side(X,W,_), link(W,Y), link(W,Z), Y < Z, not corner_side(X,W,Y), not corner_side(X,W,Z).
"""


def asp_implied(puzzle: Slitherlink) -> str:
    """`implied_clauses` for `asp`: the corners as ASP_CORNERS, the 3s' few clauses as constraints on `on`."""
    cols = puzzle.cols + 1  # the vertex grid's

    def atom(lit: int) -> str:
        a, b = grid_shape(puzzle.rows + 1, cols)[0].ends[abs(lit) - 1]
        text = "on(({},{}),({},{}))".format(*divmod(a, cols), *divmod(b, cols))
        return text if lit < 0 else f"not {text}"

    return ASP_CORNERS + "".join(f":- {', '.join(map(atom, clause))}.\n" for clause in _three_clauses(puzzle))


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
