"""The loop problem on integer arrays: what the PySAT strategies compute with between and inside solves.

Vertex v is `graph.index(cell)` (row-major) and edge i is `graph.edges[i]` (horizontal edges row
by row, then vertical ones), whose CNF variable is i + 1: a model's first E literals are the
edges in order, so the chosen edges are a slice, never a lookup. Incidence comes from index
arithmetic, in `Grid.neighbours` order. `cut_clauses` splits the chosen edges into loops (every
vertex has degree 0 or 2) and returns the clauses of `loop.cuts` that forbid the wrong ones:
`components=array` walks each loop over the two chosen edges at every vertex;
`components=networkx` takes networkx's connected components, as `lazy` does, so the two can be
measured against each other on the same cuts.
What depends only on the grid's shape (edge ends, incidence, and what `loop.cnf` derives from
them) is made once per (rows, cols) in a process and kept (`grid_shape`, at most SHAPES_KEPT):
a long-lived worker solves many puzzles of one size. The first puzzle of a shape pays for it in
its build time; `LoopArrays.shape_reused` says whether a puzzle found its shape made already.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness.grid import Cell, Direction, bits_string

if TYPE_CHECKING:
    from loopbench_encodings.loop import LoopProblem

Clause = list[int]
COMPONENTS = ("array", "networkx")
RIGHT, UP, LEFT, DOWN = (int(d) for d in (Direction.RIGHT, Direction.UP, Direction.LEFT, Direction.DOWN))
SHAPES_KEPT = 16  # grid shapes kept per process; a sweep rarely has more sizes than this


class GridShape:
    """What a rows x cols grid's arrays are whatever the puzzle: shared, so never changed in place.

    `cache` holds what other modules derive from the shape alone (`loop.cnf`'s degree clauses).
    """

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


class LoopArrays:
    """The integer form of one `LoopProblem` (its graph is a `Grid`)."""

    def __init__(self, problem: LoopProblem) -> None:
        grid = problem.graph
        shape, self.shape_reused = grid_shape(grid.rows, grid.cols)
        self.shape = shape
        self.rows, self.cols = grid.rows, grid.cols
        self.horizontal = shape.horizontal
        self.num_vertices = n = shape.num_vertices
        self.num_edges = shape.num_edges
        self.ends = shape.ends
        self.incident = shape.incident
        self.required = sorted(grid.index(cell) for cell in problem.required)
        self.is_required = bytearray(n)
        for v in self.required:
            self.is_required[v] = 1
        self.hits = [[self.edge_id(a, b) for a, b in group] for group in problem.hits]

    def edge_id(self, a: Cell, b: Cell) -> int:
        """The index of the edge between neighbouring cells a and b (either order)."""
        (r, c), (r2, c2) = (a, b) if a <= b else (b, a)
        if r2 == r and c2 == c + 1:
            return r * (self.cols - 1) + c
        if c2 == c and r2 == r + 1:
            return self.horizontal + r * self.cols + c
        raise ValueError(f"{a} and {b} are not neighbours")

    def var(self, a: Cell, b: Cell) -> int:
        """The CNF variable of the edge between a and b: true when the loop uses it."""
        (r, c), (r2, c2) = (a, b) if a <= b else (b, a)  # edge_id + 1, inlined: the rules call it per pearl
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

    def chosen(self, model: list[int]) -> list[int]:
        """The edges a model sets, from its first E literals (literal i is +-(i + 1))."""
        return [lit - 1 for lit in model[: self.num_edges] if lit > 0]

    def solution(self, chosen: list[int]) -> str:
        """The solution string of these edges (as `LoopProblem.solution`, by index arithmetic)."""
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

    # --- loops and their cuts ---------------------------------------------------------------------

    def walk(self, chosen: list[int]) -> list[tuple[list[int], list[int]]]:
        """The loops of `chosen` as (vertices, edges) in walking order; raises if a degree is not 0 or 2."""
        ends = self.ends
        one, two = [-1] * self.num_vertices, [-1] * self.num_vertices
        for i in chosen:
            a, b = ends[i]
            if one[a] < 0:
                one[a] = i
            elif two[a] < 0:
                two[a] = i
            else:
                raise ValueError(f"vertex {a} has more than two chosen edges")
            if one[b] < 0:
                one[b] = i
            elif two[b] < 0:
                two[b] = i
            else:
                raise ValueError(f"vertex {b} has more than two chosen edges")
        seen = bytearray(self.num_edges)
        out = []
        for i in chosen:
            if seen[i]:
                continue
            vertices, edges, e, v = [], [], i, ends[i][0]
            while not seen[e]:
                seen[e] = 1
                edges.append(e)
                a, b = ends[e]
                v = b if a == v else a
                vertices.append(v)
                e = two[v] if one[v] == e else one[v]
                if e < 0:
                    raise ValueError(f"vertex {v} has one chosen edge")
            out.append((vertices, edges))
        return out

    def components(self, chosen: list[int]) -> list[tuple[set[int], list[int]]]:
        """The connected components of `chosen` as (vertices, edges), found by networkx."""
        import networkx as nx

        graph = nx.Graph()
        graph.add_edges_from(self.ends[i] for i in chosen)
        comps = [set(c) for c in nx.connected_components(graph)]
        where = {v: k for k, comp in enumerate(comps) for v in comp}
        own: list[list[int]] = [[] for _ in comps]
        for i in chosen:
            own[where[self.ends[i][0]]].append(i)
        return list(zip(comps, own, strict=True))

    def holds(self, vertices) -> int:
        """How many of these vertices are required."""
        return sum(map(self.is_required.__getitem__, vertices))

    def complete(self, vertices, edges) -> bool:
        """Whether one loop over these vertices and edges meets every global demand by itself."""
        if self.holds(vertices) != len(self.required):
            return False
        if not self.hits:
            return True
        used = set(edges)
        return all(any(i in used for i in group) for group in self.hits)

    def boundary(self, vertices) -> list[int]:
        """The edges with exactly one end in `vertices`, from the smallest vertex up."""
        inside = set(vertices)
        return [i for v in sorted(inside) for i in self.incident[v] if not inside.issuperset(self.ends[i])]

    def cut_clauses(self, chosen: list[int], family: str, components: str = "array") -> list[Clause]:
        """The clauses of `loop.cuts.find_cuts` violated by `chosen`; none means it is the answer.

        A clause of negative literals forbids edges together, one of positive literals requires an edge.
        """
        if not chosen:
            return [list(range(1, self.num_edges + 1))]  # every answer chooses some edge
        if components == "array":
            loops: list = self.walk(chosen)
        elif components == "networkx":
            loops = self.components(chosen)
        else:
            raise ValueError(f"unknown components {components!r} (choose from {', '.join(COMPONENTS)})")
        complete = [self.complete(vertices, edges) for vertices, edges in loops]
        if len(loops) == 1 and complete[0]:
            return []
        out = []
        for k, (vertices, edges) in enumerate(loops):
            if complete[k]:
                # This loop may be the answer by itself. If another loop cannot be, cutting that one
                # suffices; if every loop could be, forbid this one only together with another's edge.
                if all(complete):
                    own = set(edges)
                    company = next(i for i in chosen if i not in own)
                    out.append([-i - 1 for i in edges] + [-company - 1])
                continue
            if family == "cutset":
                holds = self.holds(vertices)
                if holds and holds != len(self.required):
                    out.append([i + 1 for i in self.boundary(vertices)])
                    continue
            out.append([-i - 1 for i in edges])
        return out
