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
from loopbench_encodings.loop.gridrules import CnfKit, Edges, asp_cell, asp_ends, cp_parity

STEP = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}


def loop_problem(puzzle: CastleWall) -> LoopProblem:
    return LoopProblem.on_grid(puzzle.grid)


Parts = tuple[Edges, list[int], list[tuple[list[int], bool]], list[tuple[list[int], int]]]


def _parts(puzzle: CastleWall) -> Parts:
    """The edges; the edges at walls (off); per coloured wall its ray's edges and whether inside;
    per numbered wall the edges along its arrow and the number."""
    edges = Edges(puzzle.rows, puzzle.cols)
    off, colours, numbers = [], [], []
    for (r, c), wall in puzzle.walls().items():
        off += edges.at((r, c))
        if wall.colour:
            crossing = [edges.between((r - 1, k), (r, k)) for k in range(c)] if r else []
            colours.append((crossing, wall.colour == INSIDE))
        if wall.number is not None:
            dr, dc = STEP[wall.arrow]
            start: Cell = (r + dr, c + dc)
            numbers.append((edges.arm(start, wall.arrow) if edges.inside(start) else [], wall.number))
    return edges, sorted(set(off)), colours, numbers


def cpsat(puzzle: CastleWall, m: Any) -> None:
    _, off, colours, numbers = _parts(puzzle)
    for lit in off:
        m.model.add(m.x[lit - 1] == 0)
    for crossing, inside in colours:
        cp_parity(m, [m.x[lit - 1] for lit in crossing], inside)
    for along, k in numbers:
        m.model.add(sum(m.x[lit - 1] for lit in along) == k)


def cnf(puzzle: CastleWall, arrays: Any) -> list[list[int]]:
    edges, off, colours, numbers = _parts(puzzle)
    kit = CnfKit(arrays, edges)
    for crossing, inside in colours:
        kit.parity(crossing, inside)
    for along, k in numbers:
        kit.count(along, k)
    return [[-lit] for lit in off] + kit.clauses


ASP_RULES = """
#defined wall/1. #defined crossing/3. #defined colour/2. #defined along/3. #defined number/2.
:- wall(X), loop(X).
:- colour(W,P), #count { U,V : crossing(W,U,V), on(U,V) } = N, N \\ 2 != P.
:- number(W,K), #count { U,V : along(W,U,V), on(U,V) } != K.
"""


def asp(puzzle: CastleWall) -> str:
    edges, _, colours, numbers = _parts(puzzle)
    out = [f"wall({asp_cell(cell)})." for cell in puzzle.walls()]
    for w, (crossing, inside) in enumerate(colours):
        out.append(f"colour({w},{int(inside)}).")
        out += [f"crossing({w},{asp_ends(edges, lit)})." for lit in crossing]
    for w, (along, k) in enumerate(numbers):
        out.append(f"number({w},{k}).")
        out += [f"along({w},{asp_ends(edges, lit)})." for lit in along]
    return "\n".join(out) + ASP_RULES
