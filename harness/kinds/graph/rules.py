"""The graph kind's rules for the loop strategies: a loop through every vertex (a Hamiltonian cycle).

The loop problem is the graph itself (`loop.graph.EdgeGraph`: the kind's 0-based vertices and its
edges in the kind's order), every vertex required, no edge groups; answers are written and read
by the kind's codec (the cycle as 1-based vertex numbers). There are no local rules: the loop
constraint is the whole puzzle, so each backend's rules are empty.
"""

from __future__ import annotations

from typing import Any

from harness.kinds.graph.model import Graph, solution_edges, solution_string
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.graph import EdgeGraph

cycle_only = True  # the loop problem is the whole puzzle: a cycle search may solve it as it is


def loop_problem(puzzle: Graph) -> LoopProblem:
    graph = EdgeGraph(puzzle.n, puzzle.edges, write=lambda edges: solution_string(puzzle.n, edges),
                      read=lambda text: solution_edges(puzzle, text))
    return LoopProblem(graph, tuple(range(puzzle.n)))


def cpsat(puzzle: Graph, m: Any) -> None:
    """No local rules."""


def cnf(puzzle: Graph, arrays: Any) -> list[list[int]]:
    return []


def asp(puzzle: Graph) -> str:
    return ""
