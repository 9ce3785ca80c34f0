"""The graphs a loop runs on, as integer arrays: vertices 0..n-1, edge i joining `ends[i]`.

A loop graph gives `num_vertices`, `num_edges`, `ends` (edge i joins ends[i] = (u, v), u < v),
`incident` (the edges at each vertex; `incident_vars` the same as CNF variables, i + 1),
`between(u, v)` (the edge joining two vertices, or -1),
`names` (each edge as the kind's rules name it), `label(v)` and `number(v)` (a vertex in words
and as the kind's files number it) and `var(a, b)` (the CNF variable, i + 1, of
the edge between two vertices named as the rules name them), and it writes and reads the kind's
solution string (`solution`: chosen edge indices -> string; `edge_ids`: string -> indices).
`enclosed(edges, on)` gives the vertices strictly inside a loop (`on`: the loop's own vertices), where the
graph is drawn in the plane (a grid); a graph without a drawing gives none.
`cache` holds what other modules derive from the graph alone (`loop.cnf`'s degree clauses).
- `GridGraph`: a rows x cols grid (Masyu's cells, Slitherlink's corners). Vertex = row-major
  index; edges: horizontal ones row by row, then vertical ones; everything by index arithmetic.
  What depends only on the shape is made once per (rows, cols) in a process and shared
  (`grid_shape`, at most SHAPES_KEPT): a long-lived worker solves many puzzles of one size, and
  `reused` says whether this graph found its shape made already.
- `EdgeGraph`: any simple graph given by its edge list (the graph kind), with the kind's codec.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain, filterfalse

from harness.grid import Cell, Direction, Grid, bits_string, solution_edges

RIGHT, UP, LEFT, DOWN = (int(d) for d in (Direction.RIGHT, Direction.UP, Direction.LEFT, Direction.DOWN))
SHAPES_KEPT = 16  # grid shapes kept per process; a sweep rarely has more sizes than this


class GridShape:
    """What a rows x cols grid's arrays are whatever the puzzle: shared, so never changed in place."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.horizontal = h = rows * (cols - 1)
        self.num_vertices = n = rows * cols
        self.num_edges = h + (rows - 1) * cols
        ends = [(v, v + 1) for v in range(n) if v % cols != cols - 1]
        ends += [(v, v + cols) for v in range(n - cols)]
        self.ends: tuple[tuple[int, int], ...] = tuple(ends)
        incident = []
        for v in range(n):
            r, c = divmod(v, cols)
            here = []
            if c < cols - 1:
                here.append(v - r)  # right: horizontal edge r * (cols - 1) + c
            if r > 0:
                here.append(h + v - cols)  # up
            if c > 0:
                here.append(v - r - 1)  # left
            if r < rows - 1:
                here.append(h + v)  # down
            incident.append(tuple(here))
        self.incident: tuple[tuple[int, ...], ...] = tuple(incident)
        self.incident_vars = variables(self.incident)
        self.cache: dict[str, object] = {}


def variables(incident: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Each vertex's edges as CNF variables (i + 1): made with the graph, since the CNF strategies
    write a clause per edge at every vertex and an expression per vertex would cost them more."""
    return tuple(tuple(i + 1 for i in here) for here in incident)


_SHAPES: dict[tuple[int, int], GridShape] = {}


def grid_shape(rows: int, cols: int) -> tuple[GridShape, bool]:
    """The shape of a rows x cols grid, and whether it was made already in this process."""
    shape = _SHAPES.get((rows, cols))
    if shape is not None:
        return shape, True
    if len(_SHAPES) >= SHAPES_KEPT:
        _SHAPES.pop(next(iter(_SHAPES)))  # the oldest one: sizes usually come in runs
    shape = _SHAPES[rows, cols] = GridShape(rows, cols)
    return shape, False


class GridGraph:
    """A `Grid` as a loop graph: its cells are the vertices, `Grid.edges` the edges, in that order."""

    def __init__(self, grid: Grid) -> None:
        shape, self.reused = grid_shape(grid.rows, grid.cols)
        self.grid = grid
        self.rows, self.cols, self.horizontal = shape.rows, shape.cols, shape.horizontal
        self.num_vertices, self.num_edges = shape.num_vertices, shape.num_edges
        self.ends, self.incident, self.cache = shape.ends, shape.incident, shape.cache
        self.incident_vars = shape.incident_vars
        # faces: the unit squares between the cells, what `loop.colour` colours inside or outside
        self.num_faces = (self.rows - 1) * (self.cols - 1)

    @property
    def names(self) -> Sequence[tuple[Cell, Cell]]:
        return self.grid.edges

    def index(self, cell: Cell) -> int:
        return cell[0] * self.cols + cell[1]

    def label(self, v: int) -> str:
        """Vertex v as a person reads it: its cell (row, column)."""
        return "({}, {})".format(*divmod(v, self.cols))

    def number(self, v: int) -> int:
        """Vertex v as the kind numbers it in files (proofs' `c edge` lines): its row-major index."""
        return v

    def edge_id(self, a: Cell, b: Cell) -> int:
        """The index of the edge between neighbouring cells a and b (either order)."""
        return self.var(a, b) - 1

    def var(self, a: Cell, b: Cell) -> int:
        """The CNF variable of the edge between neighbouring cells a and b: its index + 1."""
        (r, c), (r2, c2) = (a, b) if a <= b else (b, a)  # inlined: the rules call it per pearl
        if r2 == r and c2 == c + 1:
            return r * (self.cols - 1) + c + 1
        if c2 == c and r2 == r + 1:
            return self.horizontal + r * self.cols + c + 1
        raise ValueError(f"{a} and {b} are not neighbours")

    def between(self, u: int, v: int) -> int:
        """The index of the edge between vertices u and v, or -1 when they are not neighbours."""
        if u > v:
            u, v = v, u
        if v == u + 1 and v % self.cols:
            return u - u // self.cols
        if v == u + self.cols:
            return self.horizontal + u
        return -1

    def enclosed(self, edges: Iterable[int], on: set[int]) -> list[int]:
        """The vertices strictly inside the loop made of these edges (`on`: its vertices).

        A unit square is inside when an odd number of the loop's vertical edges lie to its left in
        its row: between the 1st and 2nd, the 3rd and 4th... of them. Numbered from its top end
        (r * cols + c), the loop's vertical edges sorted come row by row, an even number a row, so
        they pair up within rows; a vertex off the loop is inside when the squares above it are.
        """
        h, cols = self.horizontal, self.cols
        tops = sorted(i - h for i in edges if i >= h)
        pairs = zip(tops[::2], tops[1::2], strict=True)  # a loop crosses every row an even number of times
        inside = chain.from_iterable(range(a + cols + 1, b + cols) for a, b in pairs)
        return list(filterfalse(on.__contains__, inside))

    def solution(self, chosen: Iterable[int]) -> str:
        """The solution string (one hex digit of direction bits per cell) of these edges."""
        bits, ends, h = [0] * self.num_vertices, self.ends, self.horizontal
        for i in chosen:
            a, b = ends[i]
            if i < h:  # horizontal: b is right of a
                bits[a] |= RIGHT
                bits[b] |= LEFT
            else:
                bits[a] |= DOWN
                bits[b] |= UP
        return bits_string(self.cols, bits)

    def edge_ids(self, solution: str) -> list[int]:
        """The edges a solution string names, by index, in order; ValueError when it is malformed."""
        return sorted(self.edge_id(a, b) for a, b in solution_edges(self.grid, solution))


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

    def var(self, u: int, v: int) -> int:
        i = self.between(u, v)
        if i < 0:
            raise ValueError(f"vertices {self.label(u)} and {self.label(v)} are not joined")
        return i + 1

    def solution(self, chosen: Iterable[int]) -> str:
        return self._write([self.ends[i] for i in chosen])

    def edge_ids(self, solution: str) -> list[int]:
        return sorted(self.var(u, v) - 1 for u, v in self._read(solution))


LoopGraph = GridGraph | EdgeGraph
