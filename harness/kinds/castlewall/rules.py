"""Castle Wall's rules for the loop strategies: the loop on the cells, and per backend: no edge at a
wall; a wall's colour as the parity of the loop's vertical edges crossed by a ray from it leftwards
(just above its centre: the edges joining row r - 1 to row r left of it; odd is inside); a wall's
number as the count of the loop's edges along its arrow between it and the grid's edge.
"""

from __future__ import annotations

from typing import Any

from harness.grid import Cell
from harness.kinds.castlewall.model import INSIDE, CastleWall
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.grid import on_grid
from loopbench_encodings.loop.gridrules import CnfKit, Edges, asp_cell, asp_ends

STEP = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}


def loop_problem(puzzle: CastleWall) -> LoopProblem:
    return on_grid(puzzle.grid)


def _parts(puzzle: CastleWall) -> tuple[Edges, list[int], dict[int, list[int]], list, list]:
    """The edges; the edges at walls (off); per row, the vertical edges from the row above, left to
    right, as far as its last coloured wall; per coloured wall (row, column, inside); per numbered
    wall the edges along its arrow and the number."""
    edges = Edges(puzzle.rows, puzzle.cols)
    off, colours, numbers = [], [], []
    for (r, c), wall in puzzle.walls().items():
        off += edges.at((r, c))
        if wall.colour:
            colours.append((r, c, wall.colour == INSIDE))
        if wall.number is not None:
            dr, dc = STEP[wall.arrow]
            start: Cell = (r + dr, c + dc)
            numbers.append((edges.arm(start, wall.arrow) if edges.inside(start) else [], wall.number))
    reach: dict[int, int] = {}
    for r, c, _ in colours:
        reach[r] = max(reach.get(r, 0), c)
    rows = {r: [edges.between((r - 1, k), (r, k)) for k in range(c)] for r, c in reach.items() if r}
    return edges, sorted(set(off)), rows, colours, numbers


def cpsat(puzzle: CastleWall, m: Any) -> None:
    """Each row's crossings as a chain of three-literal XORs (`side[c]`: the parity left of column
    c), so a colour propagates edge by edge; one long XOR per wall left a 50x50 to CP-SAT's search."""
    _, off, rows, colours, numbers = _parts(puzzle)
    for lit in off:
        m.model.add(m.x[lit - 1] == 0)
    side: dict[tuple[int, int], Any] = {}
    for r, crossing in rows.items():
        acc = None  # the parity so far: none crossed yet
        for c, lit in enumerate(crossing, 1):
            x = m.x[lit - 1]
            if acc is None:
                acc = x
            else:
                nxt = m.model.new_bool_var(f"side{r}_{c}")
                m.model.add_bool_xor([~acc, x, nxt])  # nxt = acc xor x
                acc = nxt
            side[r, c] = acc
    for r, c, inside in colours:
        if (r, c) in side:
            m.model.add_bool_or([side[r, c] if inside else ~side[r, c]])
        elif inside:
            m.model.add_bool_or([])  # nothing to its left can enclose it
    for along, k in numbers:
        m.model.add(sum(m.x[lit - 1] for lit in along) == k)


def cnf(puzzle: CastleWall, arrays: Any) -> list[list[int]]:
    edges, off, rows, colours, numbers = _parts(puzzle)
    kit = CnfKit(arrays, edges)
    side: dict[tuple[int, int], int] = {}
    for r, crossing in rows.items():
        acc = 0
        for c, lit in enumerate(crossing, 1):
            if not acc:
                acc = lit
            else:
                nxt = kit.new()
                kit.clauses += [[-nxt, acc, lit], [-nxt, -acc, -lit], [nxt, -acc, lit], [nxt, acc, -lit]]
                acc = nxt
            side[r, c] = acc
    out = [[-lit] for lit in off]
    for r, c, inside in colours:
        out.append([side[r, c] if inside else -side[r, c]] if (r, c) in side else ([] if inside else None))
    for along, k in numbers:
        kit.count(along, k)
    return [clause for clause in out if clause is not None] + kit.clauses


ASP_RULES = """
#defined wall/1. #defined colour/3. #defined chain/2. #defined along/3. #defined number/2.
:- wall(X), loop(X).
up(R,C) :- on((R-1,C),(R,C)).
side(R,1) :- up(R,0).
side(R,C+1) :- chain(R,C), side(R,C), not up(R,C).
side(R,C+1) :- chain(R,C), not side(R,C), up(R,C).
:- colour(R,C,1), not side(R,C).
:- colour(R,C,0), side(R,C).
:- number(W,K), #count { U,V : along(W,U,V), on(U,V) } != K.
"""


def asp(puzzle: CastleWall) -> str:
    """`side(R,C)`: an odd number of the loop's edges from row R - 1 into row R left of column C,
    chained column by column as for the other backends (one #count parity per wall grounds slowly)."""
    edges, _, rows, colours, numbers = _parts(puzzle)
    out = [f"wall({asp_cell(cell)})." for cell in puzzle.walls()]
    out += [f"chain({r},{c})." for r, crossing in rows.items() for c in range(1, len(crossing))]
    out += [f"colour({r},{c},{int(inside)})." for r, c, inside in colours]
    for w, (along, k) in enumerate(numbers):
        out.append(f"number({w},{k}).")
        out += [f"along({w},{asp_ends(edges, lit)})." for lit in along]
    return "\n".join(out) + ASP_RULES
