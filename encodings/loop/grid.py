"""A grid as a loop graph (`GridGraph`: a `loop.graph.LoopGraph` with every capability), and its problems.

Vertex = a cell's row-major index; edges: horizontal ones row by row, then vertical ones;
everything by index arithmetic (the `shape` capability: rows, cols, horizontal). What depends only
on the shape is made once per (rows, cols) in a process and shared (`grid_shape`, at most
SHAPES_KEPT): a long-lived worker solves many puzzles of one size, and `reused` says whether this
graph found its shape made already. Used for Masyu's cells, Slitherlink's corners and the
janko.at genres' cells; `on_grid` makes the loop problem of a grid kind's rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, filterfalse

from harness.grid import Cell, Direction, Edge, Grid, bits_string, solution_edges
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.graph import variables

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
        self.shape = shape  # the grid capability: rows, cols, horizontal
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


def on_grid(grid: Grid, required: Iterable[Cell] = (), hits: Iterable[Iterable[Edge]] = ()) -> LoopProblem:
    """The loop problem on a grid's cells: required vertices as cells, `hits` groups as edges by cells."""
    graph = GridGraph(grid)
    return LoopProblem(graph, tuple(sorted(graph.index(c) for c in required)),
                       tuple(tuple(graph.edge_id(a, b) for a, b in group) for group in hits))
