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

from itertools import combinations, product
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


def cnf_implied(puzzle: Slitherlink, arrays: Any) -> list[list[int]]:
    """Clauses the clues and degree 0/2 imply that unit propagation over `cnf` reaches only by conflict.

    Each holds in every single-loop answer (tests/test_slitherlink_implied.py checks them against
    every loop of small random puzzles):
    - the clue as a direct cardinality encoding: no k+1 sides on, no 5-k sides off (a 0 or a 4 gives
      units, a 1 pairs, a 3 pairs; `cnf` forbids only whole four-side patterns);
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
    Measured (tests/benchmarks/bench_slitherlink.py, CPU time): on slither-hard sat with them is
    1.06x faster (circuit/sat 5.66x against 5.34x; slowest 0.18 s against 0.46 s); on a sample of
    small janko.at puzzles, solved in ~10 ms, 0.94x (the Python that makes them).
    """
    var, rows, cols, out = arrays.var, puzzle.rows, puzzle.cols, []
    given = dict(clues(puzzle))
    for cell, k in given.items():
        lits = [var(*e) for e in sides(cell)]
        if k < 3:  # at most k on (for 3, the one group of four is a clause of `cnf` already)
            out += [[-x for x in group] for group in combinations(lits, k + 1)]
        if k > 1:  # at least k on (for 1, likewise)
            out += [list(group) for group in combinations(lits, 5 - k)]
        if k in (1, 3):
            for v in corners(cell):
                at_v = [e for e in sides(cell) if v in e]
                outer = [var(v, w) for w in _neighbours(v, rows, cols) if all(w not in e for e in at_v)]
                for e in at_v:
                    out.append([(-var(*e) if k == 1 else var(*e)), *outer])
                if k == 3 and len(outer) == 2:
                    out.append([-outer[0], -outer[1]])
    for (r, c), k in given.items():
        if k != 3:
            continue
        for dc in (1, -1):  # a 3 down and to the right or left
            if given.get((r + 1, c + dc)) == 3:
                top, bottom, left, right = sides((r, c))
                below = sides((r + 1, c + dc))
                out += [[var(*top)], [var(*(left if dc == 1 else right))],
                        [var(*below[1])], [var(*(below[3] if dc == 1 else below[2]))]]
        for other in ((r, c + 1), (r + 1, c)):
            if given.get(other) == 3 and not _rectangle_answers(puzzle, (r, c), other):
                out += _adjacent_threes(puzzle, arrays, (r, c), other)
    return out


def _neighbours(v: Cell, rows: int, cols: int) -> list[Cell]:
    r, c = v
    near = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    return [w for w in near if 0 <= w[0] <= rows and 0 <= w[1] <= cols]


def _adjacent_threes(puzzle: Slitherlink, arrays: Any, first: Cell, second: Cell) -> list[list[int]]:
    """Two 3s side by side, shared side on: it and the sides parallel to it on, its continuations off."""
    var = arrays.var
    a, b = sides(first), sides(second)
    if second[0] == first[0]:  # side by side in a row: the shared side is first's right
        shared, parallel = a[3], (a[2], b[3])
    else:  # one above the other: first's bottom
        shared, parallel = a[1], (a[0], b[1])
    (p, q) = shared
    dr, dc = q[0] - p[0], q[1] - p[1]
    beyond = [(p, (p[0] - dr, p[1] - dc)), (q, (q[0] + dr, q[1] + dc))]
    out = [[var(*shared)], [var(*parallel[0])], [var(*parallel[1])]]
    out += [[-var(x, y)] for x, y in beyond if 0 <= y[0] <= puzzle.rows and 0 <= y[1] <= puzzle.cols]
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
