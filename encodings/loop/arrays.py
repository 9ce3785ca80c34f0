"""The loop problem on integer arrays: what the PySAT strategies compute with between and inside solves.

Vertex v and edge i are the loop graph's (`loop.graph`): edge i joins `ends[i]` and its CNF
variable is i + 1, so a model's first E literals are the edges in order and the chosen edges are a
slice, never a lookup. `cut_clauses` splits the chosen edges into loops (every vertex has degree 0
or 2) and returns the clauses of `loop.cuts` that forbid the wrong ones (`split`: and the complete
loops among several, which `sat` tries as the whole answer): `components=array` walks
each loop over the two chosen edges at every vertex; `components=networkx` takes networkx's
connected components, as `lazy` does, so the two can be measured against each other on the same
cuts. `var(a, b)` and `edge_id(a, b)` name edges by their ends as the kind's rules name them; a
graph with the grid capability (`shape`) also gives `rows`, `cols` and `horizontal`, for the grid
rules' index arithmetic. A grid's arrays are shared (`grid.grid_shape`), and `shape_reused` says
whether this puzzle found them made.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from loopbench_encodings.loop import LoopProblem

Clause = list[int]
COMPONENTS = ("array", "networkx")


class LoopArrays:
    """The integer form of one `LoopProblem`."""

    def __init__(self, problem: LoopProblem) -> None:
        graph = problem.graph
        self.graph = graph
        self.shape_reused = graph.reused
        self.cache = graph.cache  # what is derived from the graph alone: shared, never changed
        self.own: dict[str, object] = {}  # the same, made for this puzzle only
        self.num_vertices = n = graph.num_vertices
        self.num_edges = graph.num_edges
        self.ends = graph.ends
        self.incident, self.incident_vars = graph.incident, graph.incident_vars
        self.between = graph.between
        self.solution = graph.solution
        self.var, self.edge_id = graph.var, graph.edge_id  # an edge by its two ends, as the rules name them
        if (shape := graph.shape) is not None:  # the grid capability: the grid rules' index arithmetic
            self.rows, self.cols, self.horizontal = shape.rows, shape.cols, shape.horizontal
        self.required = list(problem.required)
        self.is_required = bytearray(n)
        for v in self.required:
            self.is_required[v] = 1
        self.hits = problem.hits

    def new_variables(self, count: int) -> int:
        """The first of `count` fresh CNF variables for a kind's rules (auxiliaries: counters, on-loop
        cells), numbered after every variable made so far (`loop.cnf`'s, then earlier calls'), so a
        strategy numbering more after them (`sat`'s faces) sees them taken. For the rules' `cnf`,
        which runs after the degree clauses."""
        first = self.own["variables"] + 1  # type: ignore[operator]
        self.own["variables"] = first + count - 1
        return first

    def chosen(self, model: list[int]) -> list[int]:
        """The edges a model sets, from its first E literals (literal i is +-(i + 1))."""
        return [lit - 1 for lit in model[: self.num_edges] if lit > 0]

    # --- loops and their cuts ---------------------------------------------------------------------

    def walk(self, chosen: list[int]) -> list[tuple[list[int], list[int]]]:
        """The loops of `chosen` as (vertices, edges) in walking order; raises if a degree is not 0 or 2."""
        return self.labelled_walk(chosen)[0]

    def labelled_walk(self, chosen: list[int]) -> tuple[list[tuple[list[int], list[int]]], list[int]]:
        """`walk`'s loops, and the loop each vertex is on (its index there; -1: none).

        Each loop is walked from its smallest chosen edge i, from `ends[i][0]` along i, so a loop's walk
        depends on its own edges only. The walk steps with two arrays, no branch: an edge's ends summed
        (the far end from v is that sum less v) and at each vertex its two chosen edges XORed (the edge
        after e is that XOR with e), both made once per graph or round."""
        ends, n = self.ends, self.num_vertices
        total = self._end_sums()
        one, pair = [-1] * n, [-1] * n  # a vertex's first chosen edge, then the XOR of its two
        for i in chosen:
            a, b = ends[i]
            if one[a] < 0:
                one[a] = i
            elif pair[a] < 0:
                pair[a] = one[a] ^ i
            else:
                raise ValueError(f"vertex {a} has more than two chosen edges")
            if one[b] < 0:
                one[b] = i
            elif pair[b] < 0:
                pair[b] = one[b] ^ i
            else:
                raise ValueError(f"vertex {b} has more than two chosen edges")
        where = [-1] * n
        out = []
        for i in chosen:
            v = ends[i][0]
            if where[v] >= 0:
                continue
            k = len(out)
            vertices, edges, e = [], [], i
            while True:
                edges.append(e)
                v = total[e] - v
                vertices.append(v)
                where[v] = k
                step = pair[v]
                if step < 0:
                    raise ValueError(f"vertex {v} has one chosen edge")
                e ^= step
                if e == i:
                    break
            out.append((vertices, edges))
        return out, where

    def _end_sums(self) -> list[int]:
        """Each edge's two ends summed, made once per graph (its cache), for `labelled_walk`."""
        made = self.cache.get("end_sums")
        if made is None:
            made = self.cache["end_sums"] = [a + b for a, b in self.ends]
        return made  # type: ignore[return-value]

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

    def separates(self, vertices) -> bool:
        """Whether these vertices (each once) hold a required vertex and miss one: every answer crosses
        their boundary, so it is a cut-set (`cuts=cutset`). Where every vertex is required (a graph's
        Hamiltonian cycle), they are counted, not looked up: this runs on every loop of every round."""
        held = len(vertices) if len(self.required) == self.num_vertices else self.holds(vertices)
        return 0 < held < len(self.required)

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

    def leaving(self, vertices: list[int], edges: list[int]) -> Clause | None:
        """`cuts=disc`: the edges leaving this loop's disc (the loop and what it encloses, `enclosed`),
        as a clause, when every answer has a vertex in the disc and one outside it; else None.

        A loop through both has an edge with one end in the disc. Every answer visits the required
        vertices and an end of an edge of every `hits` group, so a group whose edges' ends all lie
        in the disc (looked for among the groups at the loop) puts a vertex in it, and one whose ends
        all lie out of it puts one out. An edge leaves the disc at the loop itself: what the loop encloses
        has no neighbour beyond it.
        """
        disc = set(vertices)
        disc.update(self.graph.enclosed(edges, disc))
        required, corners_at, corners = self._demands()
        if disc.isdisjoint(required) and not any(map(disc.issuperset, chain.from_iterable(
                map(corners_at.__getitem__, vertices)))):
            return None
        if disc.issuperset(required) and all(map(disc.intersection, corners)):
            return None
        neighbours = self._neighbours()
        return [i + 1 for v in vertices for i, w in neighbours[v] if w not in disc]

    def _demands(self) -> tuple[frozenset[int], list[list[frozenset[int]]], list[frozenset[int]]]:
        """The required vertices as a set, each `hits` group's edges' ends, and those of the groups at
        each vertex: made on first use for this puzzle (`leaving`)."""
        made = self.own.get("demands")
        if made is None:
            ends = self.ends
            corners = [frozenset(end for i in group for end in ends[i]) for group in self.hits]
            corners_at: list[list[frozenset[int]]] = [[] for _ in range(self.num_vertices)]
            for ends_of_group in corners:
                for v in ends_of_group:
                    corners_at[v].append(ends_of_group)
            made = self.own["demands"] = (frozenset(self.required), corners_at, corners)
        return made  # type: ignore[return-value]

    def _neighbours(self) -> list[tuple[tuple[int, int], ...]]:
        """Each vertex's (edge, other end) pairs, made on first use for the graph (`leaving`)."""
        made = self.cache.get("neighbours")
        if made is None:
            ends = self.ends
            made = self.cache["neighbours"] = [tuple((i, ends[i][0] + ends[i][1] - v) for i in here)
                                               for v, here in enumerate(self.incident)]
        return made  # type: ignore[return-value]

    def cut_clauses(self, chosen: list[int], family: str, components: str = "array") -> list[Clause]:
        """The clauses of `loop.cuts.find_cuts` violated by `chosen`; none means it is the answer.

        A clause of negative literals forbids edges together, one of positive literals requires an edge.
        """
        return self.split(chosen, family, components)[0]

    def split(self, chosen: list[int], family: str,
              components: str = "array") -> tuple[list[Clause], list[list[int]]]:
        """`cut_clauses`, and the edges of each complete loop when `chosen` holds more than one loop."""
        if not chosen:
            return [list(range(1, self.num_edges + 1))], []  # every answer chooses some edge
        if components == "array":
            loops: list = self.walk(chosen)
        elif components == "networkx":
            loops = self.components(chosen)
        else:
            raise ValueError(f"unknown components {components!r} (choose from {', '.join(COMPONENTS)})")
        complete = [self.complete(vertices, edges) for vertices, edges in loops]
        if len(loops) == 1 and complete[0]:
            return [], []
        # `disc` cuts every wrong loop but the longest so: that one's disc is most of the graph (of two
        # as long, the one with the smaller edge: the same whichever way the loops were found)
        longest = -1
        if family == "disc":
            longest = max(range(len(loops)), key=lambda k: (len(loops[k][1]), -min(loops[k][1])))
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
            if family == "cutset" and self.separates(vertices):
                out.append([i + 1 for i in self.boundary(vertices)])
                continue
            elif family == "disc" and k != longest and (leaving := self.leaving(vertices, edges)):
                out.append(leaving)
                continue
            out.append([-i - 1 for i in edges])
        return out, [edges for k, (_, edges) in enumerate(loops) if complete[k]]
