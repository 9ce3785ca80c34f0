"""The single-loop machinery, written once for every loop kind: the loop problem the strategies solve.

A loop problem is a graph (a grid's vertices and edges: Masyu's cells, Slitherlink's corners),
the vertices the loop must visit, and edge groups it must use an edge of; a kind's rules module
(`loopbench_encodings.rules.<kind>`) builds it and adds the kind's local rules per backend.
Every answer is one closed loop without branches, so every vertex has degree 0 or 2.
The strategies (circuit, lazy, sat, propagator) know this problem, never a pearl or a clue.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from harness.grid import Cell, Edge, Grid, solution_edges, solution_string
from loopbench_encodings import rules

if TYPE_CHECKING:
    from loopbench_encodings.loop.arrays import LoopArrays

# What a loop kind's rules module provides: the problem, then its local rules for each backend.
RULES = ("loop_problem", "cpsat", "cnf")


@dataclass(frozen=True)
class LoopProblem:
    """One closed loop on `graph` through every `required` vertex, using an edge of every `hits` group.

    With neither, the loop must still be non-empty: the empty drawing is never an answer.
    """

    graph: Grid
    required: frozenset[Cell] = frozenset()
    hits: tuple[tuple[Edge, ...], ...] = field(default=())

    @cached_property
    def arrays(self) -> LoopArrays:
        """The problem on integer arrays (vertex and edge numbers, the CNF variables), made once."""
        from loopbench_encodings.loop.arrays import LoopArrays

        return LoopArrays(self)

    def solution(self, edges: Iterable[Edge]) -> str:
        """The solution string of a set of edges on this graph."""
        return solution_string(self.graph, edges)

    def edges_of(self, solution: str) -> set[Edge]:
        return solution_edges(self.graph, solution)


def kinds() -> tuple[str, ...]:
    """The puzzle kinds with loop rules: what every loop strategy serves."""
    return rules.kinds_with(*RULES)


def problem(puzzle: Any) -> LoopProblem:
    return rules.of(puzzle.kind).loop_problem(puzzle)
