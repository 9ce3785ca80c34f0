"""A graph's small cuts (every vertex required): what every Hamiltonian cycle meets there (`smallcuts`).

Made once per problem, after `loop.fix` (its forced paths are the degree-2 chains, its forbidden edges
are left out of the graph searched here; nothing it says is said again), on counted work (WORK_MAX edge
visits, PAIRS_MAX label pairs: the same constraints on any machine under any load):
- **Cut vertices** (Hopcroft and Tarjan's depth-first low points): a graph with one, or disconnected,
  holds no Hamiltonian cycle.
- **2-vertex cuts** {u, v} (articulation points of G - u, for every u of degree 3 or more; a pair with
  an end of degree 2 is found from its other end): removing them leaves k parts. A Hamiltonian graph is
  1-tough (Chvatal, "Tough graphs and hamiltonian circuits", Discrete Math. 5, 1973): k >= 3 is no
  cycle, with the reason. With k = 2 the cycle is two u-v paths, one through each part, so the edge
  uv is off and u (and v) has an edge into each part: with degree 2, exactly one (a clause a part; a
  part reached by one edge, a unit). A part made only of degree-2 vertices is a chain `fix` forced.
- **2- and 3-edge cuts** (cycle-space sampling: Pritchard and Thurimella, "Fast computation of small
  cuts via cycle space sampling", ACM TALG 7(4), 2011: a random label a non-tree edge, a tree edge the
  XOR of the labels of the non-tree edges over it; a set of edges is a cut, some delta(S), where its
  labels XOR to 0, and each one found is checked exactly, by a search on both sides): a cycle crosses
  delta(S) an even number of times, and at least twice (the subtour cuts of Dantzig, Fulkerson and
  Johnson, 1954), so both edges of a 2-edge cut are on, and exactly two of a 3-edge cut's three (4
  clauses; Eppstein, "The traveling salesman problem for cubic graphs", JGAA 11(1), 2007, splits a
  cubic graph at its 3-edge cuts on the same count). The three edges of one vertex are its degree.
None of this is unit propagation in `loop.cnf`'s clauses (so no DRAT step: `proof=true` refuses it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from harness.encoding import cpu_time
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.fix import fixed_edges

WORK_MAX = 3_000_000  # edge visits for the 2-vertex cuts' searches (G - u, one per u) and the exact checks
PAIRS_MAX = 20_000_000  # edge pairs whose labels are looked up for 3-edge cuts
LABEL_SEED = 47  # the labels' random source: fixed, so the same cuts on every run
MASK = (1 << 64) - 1


@dataclass
class Implied:
    """What the small cuts imply: clauses over the edge variables (edge i is variable i + 1), the counts
    behind them, whether every search finished within its budget, and `reason` when no cycle exists."""

    clauses: list[list[int]] = field(default_factory=list)
    reason: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    complete: bool = True
    seconds: float = 0.0  # the CPU time it took

    def stats(self) -> dict[str, object]:
        return {f"smallcuts_{k}": v for k, v in self.counts.items()} | {"smallcuts_complete": self.complete,
                                                                       "smallcuts_s": round(self.seconds, 4)}


def small_cuts(problem: LoopProblem) -> Implied:
    """The constraints of the module docstring for `problem` (made once per problem); none unless every
    vertex is required."""
    arrays = problem.arrays
    made = arrays.own.get("smallcuts")
    if made is None:
        start = cpu_time()
        made = arrays.own["smallcuts"] = _Cuts(problem).run()
        made.seconds = cpu_time() - start
    return made  # type: ignore[return-value]


class _NoCycle(Exception):
    pass


class _Cuts:
    def __init__(self, problem: LoopProblem) -> None:
        graph = self.graph = problem.graph
        self.n, self.ends = graph.num_vertices, graph.ends
        self.everyone = len(problem.required) == self.n
        self.fixed = fixed_edges(problem)
        off = set(self.fixed.off)
        self.on = set(self.fixed.on)
        self.live = [i for i in range(graph.num_edges) if i not in off]
        # each vertex's (neighbour, edge) pairs over the edges not off
        self.adj: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]
        for i in self.live:
            u, v = self.ends[i]
            self.adj[u].append((v, i))
            self.adj[v].append((u, i))
        self.nbrs = [[w for w, _ in here] for here in self.adj]
        self.work = 0
        self.clauses: dict[tuple[int, ...], None] = {}  # in the order made, each once
        self.counts = {"vertex_cuts": 0, "edge_cuts2": 0, "edge_cuts3": 0, "units": 0, "clauses": 0}
        self.complete = True

    def run(self) -> Implied:
        if not self.everyone or self.n < 4:
            return Implied(counts=self.counts)
        if self.fixed.reason:
            return Implied(reason=self.fixed.reason, counts=self.counts)
        try:
            self._cut_vertices()
            self._vertex_pairs()
            self._edge_cuts()
        except _NoCycle as why:
            return Implied(reason=str(why), counts=self.counts)
        clauses = [list(c) for c in self.clauses]
        self.counts["units"] = sum(len(c) == 1 for c in clauses)
        self.counts["clauses"] = len(clauses)
        return Implied(clauses, counts=self.counts, complete=self.complete)

    def _add(self, clause: list[int]) -> None:
        self.clauses.setdefault(tuple(sorted(set(clause))), None)

    # -- cut vertices and 2-vertex cuts: depth-first low points on G - skip ---------------------------

    def _dfs(self, root: int, skip: int):
        """Depth-first search of G - skip from root: preorder numbers (-1 unreached), subtree sizes, the
        order, and each vertex's children whose subtrees only it joins to the rest."""
        n, nbrs = self.n, self.nbrs
        pre, low, size, parent = [-1] * n, [0] * n, [1] * n, [-1] * n
        if skip >= 0:
            pre[skip] = -2
        pre[root], order, count = 0, [root], 1
        apart: dict[int, list[int]] = {}
        stack = [(root, iter(nbrs[root]))]
        while stack:
            v, it = stack[-1]
            for w in it:
                p = pre[w]
                if p == -1:
                    parent[w], pre[w], low[w] = v, count, count
                    count += 1
                    order.append(w)
                    stack.append((w, iter(nbrs[w])))
                    break
                if 0 <= p < low[v] and w != parent[v]:
                    low[v] = p
            else:
                stack.pop()
                if stack:
                    q = parent[v]
                    size[q] += size[v]
                    if low[v] < low[q]:
                        low[q] = low[v]
                    if low[v] >= pre[q]:
                        apart.setdefault(q, []).append(v)
        self.work += sum(len(nbrs[v]) for v in order)
        return pre, size, order, apart

    def _cut_vertices(self) -> None:
        pre, _, order, apart = self._dfs(0, -1)
        if len(order) < self.n:
            raise _NoCycle(f"the graph is not connected: vertex {self.graph.label(pre.index(-1))} "
                           f"is not reached from vertex {self.graph.label(0)}")
        for v, children in apart.items():
            if v != 0 or len(children) >= 2:
                raise _NoCycle(f"vertex {self.graph.label(v)} is a cut vertex: a cycle through every "
                               "vertex would pass it twice")

    def _vertex_pairs(self) -> None:
        degree = [len(a) for a in self.adj]
        seen: set[tuple[int, int]] = set()
        # hubs first: where `split=hubs` leaves its cuts
        for u in sorted((v for v in range(self.n) if degree[v] >= 3), key=lambda v: (-degree[v], v)):
            if self.work >= WORK_MAX:
                self.complete = False
                return
            root = self.nbrs[u][0]
            pre, size, order, apart = self._dfs(root, u)
            two = [0]  # degree-2 vertices among order[:i]
            for w in order:
                two.append(two[-1] + (degree[w] == 2))
            for v, children in sorted(apart.items()):
                if v == root and len(children) < 2:
                    continue
                key = (min(u, v), max(u, v))
                parts = len(children) + (v != root)
                if parts >= 3:
                    a, b = self.graph.label(key[0]), self.graph.label(key[1])
                    raise _NoCycle(f"removing vertices {a} and {b} leaves {parts} parts: a cycle through "
                                   "both can visit two")
                if key in seen:
                    continue
                seen.add(key)
                c = children[0]
                lo, hi = pre[c], pre[c] + size[c]  # the part below c, as preorder numbers
                rest = len(order) - 1 - size[c]  # the other part's size
                if two[hi] - two[lo] == size[c] or (two[-1] - (degree[v] == 2) - (two[hi] - two[lo])) == rest:
                    continue  # a chain of degree-2 vertices: `fix` forced its paths and closing edge
                self.counts["vertex_cuts"] += 1
                self._pair(u, v, lambda w, lo=lo, hi=hi, pre=pre: lo <= pre[w] < hi)

    def _pair(self, u: int, v: int, inside) -> None:
        """The clauses of a 2-vertex cut {u, v} whose two parts `inside` tells apart."""
        between = self.graph.between(u, v)
        if between >= 0 and between in {i for _, i in self.adj[u]}:
            self._add([-between - 1])
        for x in (u, v):
            here = [(w, i) for w, i in self.adj[x] if w not in (u, v)]
            self._add([i + 1 for w, i in here if inside(w)])
            self._add([i + 1 for w, i in here if not inside(w)])

    # -- 2- and 3-edge cuts: cycle-space labels, each cut checked -------------------------------------

    def _labels(self) -> dict[int, int]:
        """Each live edge's label (module docstring): a breadth-first spanning tree from vertex 0."""
        rng = random.Random(LABEL_SEED)
        parent_edge, order, seen = [-1] * self.n, [0], [False] * self.n
        seen[0] = True
        for v in order:
            for w, i in self.adj[v]:
                if not seen[w]:
                    seen[w], parent_edge[w] = True, i
                    order.append(w)
        tree = set(parent_edge[1:]) if self.n > 1 else set()
        label: dict[int, int] = {}
        acc = [0] * self.n
        for i in self.live:
            if i not in tree:
                label[i] = r = rng.getrandbits(128)
                a, b = self.ends[i]
                acc[a] ^= r
                acc[b] ^= r
        for v in reversed(order[1:]):
            i = parent_edge[v]
            label[i] = acc[v]
            u = self.ends[i][0] + self.ends[i][1] - v
            acc[u] ^= acc[v]
        return label

    def _separates(self, cut: tuple[int, ...]) -> bool:
        """Whether removing these edges disconnects the graph: a search from each end of the first,
        a step each in turn, until one side is used up (a cut) or they meet (none)."""
        removed = set(cut)
        a, b = self.ends[cut[0]]
        side = {a: 0, b: 1}
        queues, heads = [[a], [b]], [0, 0]
        while True:
            for s in (0, 1):
                queue = queues[s]
                if heads[s] == len(queue):
                    return True
                v = queue[heads[s]]
                heads[s] += 1
                self.work += len(self.adj[v])
                for w, i in self.adj[v]:
                    if i in removed:
                        continue
                    got = side.get(w)
                    if got is None:
                        side[w] = s
                        queue.append(w)
                    elif got != s:
                        return False

    def _edge_cuts(self) -> None:
        import numpy as np

        label = self._labels()
        if any(x == 0 for x in label.values()):  # a bridge: a cut vertex found it first unless n = 2
            raise _NoCycle("an edge is a bridge: a cycle cannot cross it")
        groups: dict[int, list[int]] = {}
        for i in self.live:
            groups.setdefault(label[i], []).append(i)
        for same in groups.values():
            if len(same) < 2 or all(i in self.on for i in same):
                continue
            if self.work >= WORK_MAX:
                self.complete = False
                break
            # {e1, ej} cuts for every j make every pair one (a sum of two cuts is a cut)
            if all(self._separates((same[0], j)) for j in same[1:]):
                self.counts["edge_cuts2"] += 1
                for i in same:
                    self._add([i + 1])
        edges = self.live
        m = len(edges)
        labels = np.array([label[i] & MASK for i in edges], dtype=np.uint64)
        # a hash table of the labels by their low bits, 16 slots an edge: a label whose slot is taken (one
        # in 32 or so) is not looked up, which loses a cut, never makes one (each is checked)
        bits = max(4, (16 * m).bit_length())
        slot = np.uint64((1 << bits) - 1)
        table = np.zeros(1 << bits, dtype=np.uint64)
        where = np.full(1 << bits, -1, dtype=np.int64)
        keys = labels & slot
        free = np.unique(keys, return_index=True)[1]
        table[keys[free]], where[keys[free]] = labels[free], free
        rows = max(1, 2_000_000 // max(m, 1))
        pairs = 0
        for i0 in range(0, m, rows):
            i1 = min(m, i0 + rows)
            if pairs >= PAIRS_MAX:
                self.complete = False
                return
            block = labels[i0:i1, None] ^ labels[None, i0 + 1:]
            pairs += block.size
            found = where[block & slot]
            for r, c in zip(*np.nonzero(table[block & slot] == block), strict=True):
                i, j, k = i0 + int(r), i0 + 1 + int(c), int(found[r, c])
                if i < j < k:
                    self._triple(edges[i], edges[j], edges[k], label)

    def _triple(self, a: int, b: int, c: int, label: dict[int, int]) -> None:
        """The clauses of a 3-edge cut {a, b, c}, once its 128-bit labels and a search confirm it."""
        if label[a] ^ label[b] ^ label[c]:
            return
        shared = set(self.ends[a]) & set(self.ends[b]) & set(self.ends[c])
        if shared:  # the edges of one vertex: its degree says it
            return
        if self.work >= WORK_MAX:
            self.complete = False
            return
        if not self._separates((a, b, c)):
            return
        self.counts["edge_cuts3"] += 1
        x, y, z = a + 1, b + 1, c + 1
        for clause in ([x, y], [x, z], [y, z], [-x, -y, -z]):
            self._add(clause)
