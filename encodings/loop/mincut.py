"""Sub-loop cuts as linear inequalities on edge and vertex values, at integral and fractional points.

A cut is `Cut(edges, on)`: x(δ(S)) - 2·Σ_{v in on} y_v >= 2 - 2·|on| over the boundary `edges` =
δ(S) of a vertex set S (x: edge values, y: vertex values, 1 when on the loop). All are
Dantzig–Fulkerson–Johnson's cut-set (subtour elimination) inequalities and their forms for optional
vertices: with `on` empty, x(δ(S)) >= 2 when S holds a required vertex and misses one (every answer
crosses δ(S), an even number of times); with `on` = (v,), x(δ(S)) >= 2·y_v for v in S when S holds no
required vertex while some exist (an answer through v leaves S to reach them); with `on` = (v, w),
x(δ(S)) >= 2·(y_v + y_w - 1) for v in S and w out of it (an answer through both crosses δ(S)), for
problems without required vertices. What none covers (a lone loop holding every required vertex
but missing a `hits` group) gets `loop.cuts`' clause forbidding that loop, as `cuts=loop`.
`integral_cuts` reads one set of loops (the answer or its sub-loops); `fractional_cuts` reads an LP
point: first the components of its support (edges above EPS), then, when the support is one piece,
the minimum cuts between required vertices on the support with its 1-edges shrunk (a path of edges
at 1 is one node, Padberg and Rinaldi's first shrinking rule; a heuristic, so a cut it misses is
left to the integral check): Stoer–Wagner's global minimum cut when every vertex is required (a
Hamiltonian cycle), else a maximum flow from the first required vertex to each other one (networkx).
"""

from __future__ import annotations

from typing import NamedTuple

from loopbench_encodings.loop.arrays import Clause, LoopArrays

EPS = 1e-6  # an edge value above this is in the support
VIOLATION = 1e-4  # a cut is added when the point misses it by more than this
MAX_FLOWS = 64  # maximum flows computed in one separation round (problems with optional vertices)


class Cut(NamedTuple):
    """x(δ(S)) - 2·Σ_{v in on} y_v >= 2 - 2·len(on), over the boundary edges of S."""

    edges: list[int]
    on: tuple[int, ...] = ()


def integral_cuts(arrays: LoopArrays, chosen: list[int]) -> tuple[list[Cut], list[Clause]]:
    """The cuts and clauses an integral point of chosen edges (degree 0 or 2 everywhere) violates;
    neither means it is one complete loop. Raises ValueError when a degree is not 0 or 2."""
    if not chosen:
        return [], [list(range(1, arrays.num_edges + 1))]
    loops = arrays.walk(chosen)
    complete = [arrays.complete(vertices, edges) for vertices, edges in loops]
    if len(loops) == 1 and complete[0]:
        return [], []
    cuts: list[Cut] = []
    clauses: list[Clause] = []
    for k, (vertices, edges) in enumerate(loops):
        if arrays.separates(vertices):
            cuts.append(Cut(arrays.boundary(vertices)))
        elif arrays.required and not arrays.holds(vertices):
            cuts.append(Cut(arrays.boundary(vertices), (min(vertices),)))
        elif len(loops) > 1:  # this loop holds every required vertex, or there are none
            if not arrays.required:
                other = loops[k - 1][0]  # a vertex of another loop
                cuts.append(Cut(arrays.boundary(vertices), (min(vertices), min(other))))
        elif not complete[k]:
            clauses.append([-i - 1 for i in edges])
    return cuts, clauses


class _Sets:
    """Union-find over 0..n-1."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, v: int) -> int:
        parent = self.parent
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    def join(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def fractional_cuts(arrays: LoopArrays, x: list[float], y: list[float]) -> list[Cut]:
    """The cut-set inequalities found violated by the LP point (`x` per edge, `y` per vertex)."""
    ends = arrays.ends
    support = [i for i, value in enumerate(x) if value > EPS]
    sets = _Sets(arrays.num_vertices)
    for i in support:
        sets.join(*ends[i])
    groups: dict[int, list[int]] = {}
    for v in range(arrays.num_vertices):
        if y[v] > EPS:
            groups.setdefault(sets.find(v), []).append(v)
    pieces = list(groups.values())
    tops = [max(piece, key=y.__getitem__) for piece in pieces]
    cuts = []
    for k, piece in enumerate(pieces):
        other = max((tops[j] for j in range(len(pieces)) if j != k), key=y.__getitem__, default=-1)
        if (cut := _violated(arrays, piece, tops[k], other, x, y)) is not None:
            cuts.append(cut)
    if cuts or len(arrays.required) < 2:
        return cuts
    return _min_cuts(arrays, support, x, y)


def _violated(arrays: LoopArrays, vertices: list[int], top: int, other: int, x: list[float],
              y: list[float]) -> Cut | None:
    """The cut-set inequality of S = `vertices` (`top`: its vertex of largest y; `other`: the one
    outside it, or -1) if the point violates it, else None."""
    held = arrays.holds(vertices)
    if held and held == len(arrays.required):
        return None  # the pieces outside, holding no required vertex, get the cut
    boundary = arrays.boundary(vertices)
    crossing = sum(x[i] for i in boundary)
    if held:
        return Cut(boundary) if crossing < 2 - VIOLATION else None
    if arrays.required:
        return Cut(boundary, (top,)) if crossing < 2 * y[top] - VIOLATION else None
    if other < 0:
        return None
    return Cut(boundary, (top, other)) if crossing < 2 * (y[top] + y[other] - 1) - VIOLATION else None


def _min_cuts(arrays: LoopArrays, support: list[int], x: list[float], y: list[float]) -> list[Cut]:
    """Minimum cuts between required vertices on the support with its 1-edges shrunk."""
    import networkx as nx

    ends = arrays.ends
    shrunk = _Sets(arrays.num_vertices)
    for i in support:
        if x[i] >= 1 - EPS:
            shrunk.join(*ends[i])
    graph = nx.Graph()
    for i in support:
        a, b = shrunk.find(ends[i][0]), shrunk.find(ends[i][1])
        if a != b:
            if graph.has_edge(a, b):
                graph[a][b]["weight"] += x[i]
            else:
                graph.add_edge(a, b, weight=x[i])
    if graph.number_of_nodes() < 2:
        return []
    members: dict[int, list[int]] = {}
    for v in range(arrays.num_vertices):
        if y[v] > EPS:
            members.setdefault(shrunk.find(v), []).append(v)

    def expand(nodes) -> list[int]:
        return [v for node in nodes for v in members.get(node, ())]

    cuts: list[Cut] = []
    if len(arrays.required) == arrays.num_vertices:
        value, (side, _) = nx.stoer_wagner(graph)
        if value < 2 - VIOLATION:
            cuts.append(Cut(arrays.boundary(expand(side))))
        return cuts
    root = shrunk.find(arrays.required[0])
    separated, flows = {root}, 0
    for t in arrays.required[1:]:
        node = shrunk.find(t)
        if node in separated or node not in graph or flows == MAX_FLOWS:
            continue
        value, (_, far) = nx.minimum_cut(graph, root, node, capacity="weight")
        flows += 1
        separated.add(node)
        if value < 2 - VIOLATION:
            separated.update(far)
            cuts.append(Cut(arrays.boundary(expand(far))))
    return cuts
