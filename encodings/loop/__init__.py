"""The single-loop machinery, written once for every loop kind: the loop problem the strategies solve.

A loop problem is a graph (any `loop.graph.LoopGraph`: vertices 0..n-1 and edges as integer arrays,
with the capabilities it states; `loop.grid` makes a grid's, `loop.graph.EdgeGraph` any other), the
vertices the loop must visit and edge groups it must use an edge of; a kind's rules module
(`loopbench_encodings.rules.<kind>`) builds it and adds the kind's local rules per backend.
Every answer is one closed loop without branches, so every vertex has degree 0 or 2.
The strategies (circuit, lazy, sat, propagator, asp) know this problem, never a pearl or a clue.
A cut, whatever the backend, is a clause over the edges: literal i + 1 is "edge i is on the
loop", -(i + 1) "it is off" (`loop.cuts`); a kind's implied constraints may be written so too
(`implied_clauses`), and then every backend takes them alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from harness.encoding import cpu_time
from loopbench_encodings import rules
from loopbench_encodings.loop.graph import LoopGraph, missing

if TYPE_CHECKING:
    from loopbench_encodings.loop.arrays import LoopArrays

# What a loop kind's rules module provides: the problem, then its local rules for each backend.
RULES = ("loop_problem", "cpsat", "cnf")


@dataclass(frozen=True, eq=False)
class LoopProblem:
    """One closed loop on `graph` through every `required` vertex, using an edge of every `hits` group.

    `required` holds vertex indices (sorted), `hits` groups of edge indices. With neither, the
    loop must still be non-empty: the empty drawing is never an answer.
    """

    graph: LoopGraph
    required: tuple[int, ...] = ()
    hits: tuple[tuple[int, ...], ...] = field(default=())

    def __post_init__(self) -> None:
        if lacks := missing(self.graph):  # a new kind of graph learns here what it must state
            raise TypeError(f"{type(self.graph).__name__} is not a loop graph: it lacks {', '.join(lacks)} "
                            "(encodings/loop/graph.py, LoopGraph)")

    @cached_property
    def arrays(self) -> LoopArrays:
        """The problem on integer arrays (the CNF variables, loops and cuts), made once."""
        from loopbench_encodings.loop.arrays import LoopArrays

        return LoopArrays(self)

    def solution(self, chosen: Iterable[int]) -> str:
        """The kind's solution string of these edges (by index)."""
        return self.graph.solution(chosen)

    def edge_ids(self, solution: str) -> list[int]:
        """The edges (by index) a solution string names."""
        return self.graph.edge_ids(solution)

    def dead_end(self) -> str:
        """Why no loop can exist before any search (a required vertex with fewer than two edges), or ""."""
        incident = self.graph.incident
        for v in self.required:
            if len(incident[v]) < 2:
                return (f"vertex {self.graph.label(v)} has degree {len(incident[v])}: "
                        "a loop through every required vertex cannot pass it")
        return ""


def refuse(problem: LoopProblem, start: float) -> Any:
    """An `unsat` Outcome, the reason in its stats, when `dead_end` finds one (None otherwise).

    Every loop strategy asks before building: a model with an empty clause is not every backend's
    idea of unsat. `start` is the strategy's `cpu_time()` reading when its build began.
    """
    reason = problem.dead_end()
    if not reason:
        return None
    from harness.encoding import UNSAT, Outcome

    return Outcome(UNSAT, stats={"build_s": cpu_time() - start, "iterations": 0, "cuts": 0,
                                 "reason": reason})


def kinds() -> tuple[str, ...]:
    """The puzzle kinds with loop rules: what every loop strategy serves."""
    return rules.kinds_with(*RULES)


def problem(puzzle: Any) -> LoopProblem:
    return rules.of(puzzle.kind).loop_problem(puzzle)


def implied_clauses(puzzle: Any) -> list[list[int]]:
    """The kind's implied constraints written as clauses over the edges, as a cut is (the rules
    module's `implied_clauses`; none if it has none): every backend takes them as it takes cuts."""
    hook = getattr(rules.of(puzzle.kind), "implied_clauses", None)
    return hook(puzzle) if hook is not None else []
