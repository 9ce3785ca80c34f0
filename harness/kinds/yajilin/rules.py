"""Yajilin's rules for the loop strategies: the loop on the cells, and per backend: no edge at a clue
or blocked cell; no two empty cells beside each other both off the loop (both would be shaded);
an arrow's count of empty cells off the loop between it and the grid's edge. The shading is the
empty cells off the loop, so the loop alone is the answer, and every loop strategy serves the kind.
"""

from __future__ import annotations

from typing import Any

from harness.kinds.yajilin.model import Yajilin
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.grid import on_grid
from loopbench_encodings.loop.gridrules import CnfKit, Edges, asp_cell

STEP = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}


def loop_problem(puzzle: Yajilin) -> LoopProblem:
    return on_grid(puzzle.grid)


def _parts(puzzle: Yajilin) -> tuple[Edges, list, list, list]:
    """The edges; the cells off the loop by rule; pairs of empty neighbours; per arrow the empty
    cells on its ray and its number."""
    edges = Edges(puzzle.rows, puzzle.cols)
    empty = set(puzzle.empty())
    fixed = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if (r, c) not in empty]
    pairs = [(a, b) for a in sorted(empty) for b in ((a[0], a[1] + 1), (a[0] + 1, a[1])) if b in empty]
    rays = []
    for (r, c), (k, d) in puzzle.arrows().items():
        dr, dc = STEP[d]
        seen, at = [], (r + dr, c + dc)
        while edges.inside(at):
            if at in empty:
                seen.append(at)
            at = (at[0] + dr, at[1] + dc)
        rays.append((seen, k))
    return edges, fixed, pairs, rays


def cpsat(puzzle: Yajilin, m: Any) -> None:
    edges, fixed, pairs, rays = _parts(puzzle)
    on = m.on
    for cell in fixed:
        m.model.add(on[edges.vertex(cell)] == 0)
    for a, b in pairs:
        m.model.add_bool_or([on[edges.vertex(a)], on[edges.vertex(b)]])
    for seen, k in rays:
        m.model.add(sum(on[edges.vertex(cell)] for cell in seen) == len(seen) - k)


def cnf(puzzle: Yajilin, arrays: Any) -> list[list[int]]:
    edges, fixed, pairs, rays = _parts(puzzle)
    kit = CnfKit(arrays, edges)
    for seen, k in rays:
        kit.count([-kit.on(cell) for cell in seen], k)
    out = sorted({(-lit,) for cell in fixed for lit in edges.at(cell)})
    return [list(c) for c in out] + [edges.at(a) + edges.at(b) for a, b in pairs] + kit.clauses


ASP_RULES = """
#defined fixed/1. #defined pair/2. #defined arrow/2. #defined ray/2.
:- fixed(X), loop(X).
:- pair(X,Y), not loop(X), not loop(Y).
:- arrow(W,K), #count { X : ray(W,X), not loop(X) } != K.
"""


def asp(puzzle: Yajilin) -> str:
    _, fixed, pairs, rays = _parts(puzzle)
    out = [f"fixed({asp_cell(cell)})." for cell in fixed]
    out += [f"pair({asp_cell(a)},{asp_cell(b)})." for a, b in pairs]
    for w, (seen, k) in enumerate(rays):
        out.append(f"arrow({w},{k}).")
        out += [f"ray({w},{asp_cell(cell)})." for cell in seen]
    return "\n".join(out) + ASP_RULES
