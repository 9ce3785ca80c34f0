"""The graph kind's puzzle: an undirected simple graph, and the Hamiltonian cycle's solution string.

A loop through every vertex is a Hamiltonian cycle. Vertices are 0-based here and 1-based in every
text form (files, solution strings, tours), as TSPLIB numbers them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from harness.kinds.demands import Stated

KIND = "graph"

Edge = tuple[int, int]


@dataclass(frozen=True)
class Graph:
    """`n` vertices 0..n-1 and `edges`, each (u, v) with u < v, sorted, no repeats, no self-loops."""

    n: int
    edges: tuple[Edge, ...]
    kind: str = field(default=KIND, init=False)

    def __post_init__(self) -> None:
        if type(self.n) is not int or self.n < 1:
            raise ValueError(f"a graph needs at least one vertex, got n={self.n!r}")
        clean = set()
        for u, v in self.edges:
            if u == v:
                raise ValueError(f"self-loop at vertex {u + 1}")
            if not (0 <= u < self.n and 0 <= v < self.n):
                raise ValueError(f"edge {u + 1}-{v + 1} names a vertex outside 1..{self.n}")
            clean.add((u, v) if u < v else (v, u))
        object.__setattr__(self, "edges", tuple(sorted(clean)))

    @property
    def rows(self) -> int:
        """The results database's `rows` for a graph: its vertex count."""
        return self.n

    @property
    def cols(self) -> int:
        """The results database's `cols` for a graph: its edge count."""
        return len(self.edges)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Each vertex's neighbours, in increasing order."""
        adj: list[list[int]] = [[] for _ in range(self.n)]
        for u, v in self.edges:
            adj[u].append(v)
            adj[v].append(u)
        return tuple(tuple(sorted(a)) for a in adj)

    @cached_property
    def edge_set(self) -> frozenset[Edge]:
        return frozenset(self.edges)

    def degrees(self) -> list[int]:
        """Each vertex's degree, counted off the edges (cheap: no neighbour lists are made)."""
        out = [0] * self.n
        for u, v in self.edges:
            out[u] += 1
            out[v] += 1
        return out


def solution_string(n: int, cycle_edges: Iterable[Edge]) -> str:
    """The FORMATS solution string of a Hamiltonian cycle given as 0-based edges.

    1-based vertex numbers in cycle order, separated by single spaces, from vertex 1 towards the
    smaller of its two cycle neighbours. ValueError if the edges are not one cycle through all n.
    """
    adj: list[list[int]] = [[] for _ in range(n)]
    count = 0
    for u, v in cycle_edges:
        if u == v or not (0 <= u < n and 0 <= v < n):
            raise ValueError(f"edge ({u}, {v}) is not an edge between two of the {n} vertices")
        adj[u].append(v)
        adj[v].append(u)
        count += 1
    if n < 3:
        raise ValueError(f"no cycle through every vertex of a graph with {n} vertices")
    for v, a in enumerate(adj):
        if len(a) != 2 or a[0] == a[1]:
            raise ValueError(f"vertex {v + 1} has {len(set(a))} cycle neighbours, not 2")
    order = [0]
    previous, current = 0, min(adj[0])
    while current != 0:
        order.append(current)
        a = adj[current]
        previous, current = current, a[1] if a[0] == previous else a[0]
    if len(order) != n or count != n:
        raise ValueError(f"the edges form a cycle of {len(order)} vertices, not one through all {n}")
    return " ".join(str(v + 1) for v in order)


def parse_order(n: int, text: str) -> list[int]:
    """The 0-based vertex order a solution string names; ValueError on non-integers or out of range."""
    tokens = text.split()
    if not tokens:
        raise ValueError("the solution is empty")
    order = []
    for token in tokens:
        if not token.isdecimal():
            raise ValueError(f"{token!r} is not a vertex number")
        if not 1 <= int(token) <= n:
            raise ValueError(f"vertex {token} is outside 1..{n}")
        order.append(int(token) - 1)
    return order


def solution_edges(graph: Graph, text: str) -> set[Edge]:
    """The 0-based edges (u < v) a solution string names: consecutive vertices and last to first."""
    order = parse_order(graph.n, text)
    pairs = zip(order, order[1:] + order[:1], strict=True)
    return {(u, v) if u < v else (v, u) for u, v in pairs if u != v}


def degree_problem(graph: Graph) -> str:
    """"" or why a vertex of degree below 2 leaves no cycle through every vertex (1-based, in words)."""
    for v, d in enumerate(graph.degrees()):
        if d < 2:
            return f"vertex {v + 1} has degree {d}: no cycle through every vertex"
    return ""


def stated(puzzle: Graph) -> Stated:
    """What every answer meets, for the proof checker (`harness.kinds.demands`): every vertex (a
    Hamiltonian cycle), vertices named by their 1-based numbers."""
    from harness.kinds.demands import Stated

    def write(cycle: list[tuple[int, int]]) -> str:
        return solution_string(puzzle.n, [(u - 1, v - 1) for u, v in cycle])

    return Stated(frozenset((u + 1, v + 1) for u, v in puzzle.edges), [{(v + 1,)} for v in range(puzzle.n)],
                  write, lambda answer: {(u + 1, v + 1) for u, v in solution_edges(puzzle, answer)})
