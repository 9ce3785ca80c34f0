"""The loop problem as CNF over one Boolean per edge, shared by the PySAT strategies.

Variables come from an `IDPool` and are named by meaning: `("edge", a, b)` is true when the loop
uses the edge between vertices a and b (canonical order, `harness.grid.edge`); they are numbered
first, in the graph's edge order. The clauses say everything but "one loop": every vertex has
degree 0 or 2 (direct clauses, no auxiliaries), every required vertex lies on the loop, every
`hits` group has an edge on it, and a problem with neither asks for some edge, so the empty
drawing is no answer; then the kind's local rules (`rules.<kind>.cnf`).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Any

from harness.grid import Cell, Edge, Grid, edge
from loopbench_encodings import rules
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.cuts import Cut

Clause = list[int]


def edge_var(pool, a: Cell, b: Cell) -> int:
    return pool.id(("edge", *edge(a, b)))


def degree_clauses(pool, grid: Grid, vertex: Cell) -> list[Clause]:
    """Degree 0 or 2: no edge alone (`[-e] + others`), and no three edges together."""
    lits = [edge_var(pool, *e) for e in grid.incident[vertex]]
    alone = [[-e] + [o for o in lits if o != e] for e in lits]
    return alone + [[-a, -b, -c] for a, b, c in combinations(lits, 3)]


def on_loop_clause(pool, grid: Grid, vertex: Cell) -> Clause:
    return [edge_var(pool, *e) for e in grid.incident[vertex]]


def loop_clauses(puzzle: Any, problem: LoopProblem, pool) -> list[Clause]:
    """Every clause of the module docstring, the kind's local rules last."""
    grid = problem.graph
    for e in grid.edges:
        edge_var(pool, *e)
    out = [c for v in grid.cells for c in degree_clauses(pool, grid, v)]
    out += [on_loop_clause(pool, grid, v) for v in sorted(problem.required)]
    out += [[edge_var(pool, *e) for e in group] for group in problem.hits]
    if not problem.required and not problem.hits:
        out.append([edge_var(pool, *e) for e in grid.edges])
    return out + rules.of(puzzle.kind).cnf(puzzle, lambda a, b: edge_var(pool, a, b))


def chosen_edges(problem: LoopProblem, pool, model: Iterable[int]) -> list[Edge]:
    true = {lit for lit in model if lit > 0}
    return [e for e in problem.graph.edges if edge_var(pool, *e) in true]


def cut_clause(pool, cut: Cut) -> Clause:
    """`forbid`: not all of these edges; `require`: one of these edges."""
    if cut.forbid:
        return [-edge_var(pool, *e) for e in cut.forbid]
    return [edge_var(pool, *e) for e in cut.require]
