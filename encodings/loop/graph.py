"""The loop graph as a declared protocol (`LoopGraph`), and any simple graph given by its edges (`EdgeGraph`).

Every loop strategy sees its graph through `LoopGraph` only: vertices 0..n-1, edge i joining
`ends[i]` (u < v), each vertex's `incident` edges, and the kind's names, numbers and solution
codec. What only some graphs have is a capability the graph states, and a strategy asks for it,
never for the graph's class: `num_faces` (faces a colouring may give, 0 for none), `enclosed`
(the vertices inside a loop, none without a drawing) and `shape` (rows, cols and the count of
horizontal edges of a grid, for the grid rules' index arithmetic and `loop.asp`'s grid terms;
None for any other graph). `GridGraph` (`loop.grid`) is a grid's cells; `EdgeGraph` is the rest.
`missing(graph)` lists the members of `LoopGraph` a graph lacks (`LoopProblem` asks when made).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from loopbench_encodings.rules import members


class GridShape(Protocol):
    """The grid capability: vertex r * cols + c is cell (r, c); edges horizontal row by row, then vertical."""

    rows: int
    cols: int
    horizontal: int  # rows * (cols - 1): the first vertical edge's index


class LoopGraph(Protocol):
    """What every loop graph gives the strategies. Capabilities a graph lacks it states as empty:
    `num_faces` 0, `enclosed` [], `shape` None."""

    num_vertices: int
    num_edges: int
    ends: Sequence[tuple[int, int]]  # edge i joins ends[i] = (u, v), u < v
    incident: Sequence[Sequence[int]]  # the edges at each vertex
    incident_vars: Sequence[Sequence[int]]  # the same as CNF variables, i + 1
    cache: dict[str, object]  # what other modules derive from the graph alone (`loop.cnf`'s degree clauses)
    reused: bool  # whether the graph's arrays were made already in this process
    num_faces: int  # capability: faces a colouring may give (`loop.colour`); 0 for none
    shape: GridShape | None  # capability: a grid's index arithmetic; None for any other graph

    @property
    def names(self) -> Sequence[tuple[Any, Any]]:
        """Each edge as the kind's rules name it (a grid's cell pairs, a graph's vertex pairs)."""

    def label(self, v: int) -> str:
        """Vertex v in words, for messages."""

    def number(self, v: int) -> int:
        """Vertex v as the kind's files number it (proofs' `c edge` lines)."""

    def between(self, u: int, v: int) -> int:
        """The index of the edge joining vertices u and v, or -1."""

    def var(self, a: Any, b: Any) -> int:
        """The CNF variable (index + 1) of the edge between two vertices named as the rules name them."""

    def edge_id(self, a: Any, b: Any) -> int:
        """The index of that edge."""

    def solution(self, chosen: Iterable[int]) -> str:
        """The kind's solution string of these edges (by index)."""

    def edge_ids(self, solution: str) -> list[int]:
        """The edges (by index, sorted) a solution string names; ValueError when it is malformed."""

    def enclosed(self, edges: Iterable[int], on: set[int]) -> list[int]:
        """Capability: the vertices strictly inside the loop of these edges (`on`: its vertices),
        where the graph is drawn in the plane; [] for a graph without a drawing."""


def missing(graph: object) -> list[str]:
    """The members of `LoopGraph` that `graph` lacks: what a new kind of graph still has to state."""
    own = getattr(graph, "__dict__", {})  # looked up, not got: getting `names` may build a grid's edge list
    return [n for n in members(LoopGraph) if n not in own and not hasattr(type(graph), n)]


def variables(incident: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Each vertex's edges as CNF variables (i + 1): made with the graph, since the CNF strategies
    write a clause per edge at every vertex and an expression per vertex would cost them more."""
    return tuple(tuple(i + 1 for i in here) for here in incident)


class EdgeGraph:
    """Any simple graph on vertices 0..n-1 with edges `ends`, answers written by the kind's codec.

    `write(edges)` gets the chosen edges as (u, v) pairs and returns the solution string;
    `read(text)` returns the (u, v) pairs a solution string names (ValueError when malformed);
    `label(v)` names a vertex as the kind numbers it (default: v + 1, as files number them).
    """

    def __init__(self, n: int, ends: Iterable[tuple[int, int]], write: Callable[[list[tuple[int, int]]], str],
                 read: Callable[[str], Iterable[tuple[int, int]]],
                 label: Callable[[int], str] = lambda v: str(v + 1)) -> None:
        self.num_vertices = n
        self.ends = tuple((u, v) if u < v else (v, u) for u, v in ends)
        self.num_edges = len(self.ends)
        self._index = {e: i for i, e in enumerate(self.ends)}
        if len(self._index) != self.num_edges or any(u == v for u, v in self.ends):
            raise ValueError("a loop graph has no repeated edges and no self-loops")
        incident: list[list[int]] = [[] for _ in range(n)]
        for i, (u, v) in enumerate(self.ends):
            incident[u].append(i)
            incident[v].append(i)
        self.incident = tuple(map(tuple, incident))
        self.incident_vars = variables(self.incident)
        self.cache: dict[str, object] = {}
        self.reused = False
        self.num_faces = 0  # no drawing, so no faces to colour
        self.shape = None  # not a grid: no index arithmetic
        self._write, self._read, self.label = write, read, label

    @property
    def names(self) -> Sequence[tuple[int, int]]:
        return self.ends

    def number(self, v: int) -> int:
        """Vertex v as the kind numbers it in files: from 1, as TSPLIB does."""
        return v + 1

    def enclosed(self, edges: Iterable[int], on: set[int]) -> list[int]:
        """None: a graph given by its edges has no drawing, so no inside."""
        return []

    def between(self, u: int, v: int) -> int:
        return self._index.get((u, v) if u < v else (v, u), -1)

    def edge_id(self, u: int, v: int) -> int:
        i = self.between(u, v)
        if i < 0:
            raise ValueError(f"vertices {self.label(u)} and {self.label(v)} are not joined")
        return i

    def var(self, u: int, v: int) -> int:
        return self.edge_id(u, v) + 1

    def solution(self, chosen: Iterable[int]) -> str:
        return self._write([self.ends[i] for i in chosen])

    def edge_ids(self, solution: str) -> list[int]:
        return sorted(self.edge_id(u, v) for u, v in self._read(solution))

