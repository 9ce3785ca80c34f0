"""Frontier-based search for a Hamiltonian cycle: every choice of edges kept only as what its future can see.

The method is Knuth's SIMPATH (The Art of Computer Programming 4A, 7.1.4) as generalised by
Kawahara, Inoue, Iwashita and Minato ("Frontier-based search for enumerating all constrained
subgraphs with compressed representation", IEICE Trans. Fundamentals E100-A(9), 2017). No solver:
the edges are decided one at a time, in an order of small width (each edge at its later end in a
vertex order: `order=greedy` (default), from a far vertex always the one that adds least to the
frontier, `greedy_order`; `order=rcm`, reverse Cuthill-McKee; `order=given`, the file's numbering:
results/fhcp/README.md has greedy against RCM). A
vertex is on the frontier from its first edge to its last. Of a partial choice only its frontier
state is kept: per frontier vertex, degree 2 so far, or degree 0, or the far end of the path it ends
(its mate). Two choices with the same state have the same completions, so they are one node, and
the nodes with their two children (the edge off, the edge on) make a DAG whose paths to the answer
are exactly the Hamiltonian cycles. A vertex leaving the frontier below degree 2, or an edge that
closes a cycle missing a vertex, ends its path at no answer.
The cycles are counted bottom-up (stats `cycles`: uniqueness for free), and the first not
`exclude`d is read off the DAG. Complete: no path to the answer is `unsat`.
Its cost is the DAG's size, which grows with the graph's path-width, not its order: GP(n,2) and the
flower snarks (a frontier of about ten vertices) take about a second at a thousand vertices, and so
do many FHCP graphs, while grids, random cubic graphs and the other FHCP graphs outgrow any memory;
a layer wider than `width` states ends the run `unknown`, saying so. It shares no model code with
the other loop strategies (the graph's numbering only), so an unsat answer of either is confirmed by
the other (docs/FORMATS.md, model families).
Stats: `states` (nodes made), `widest` (the widest layer) and `frontier` (the most vertices on the
frontier at once), `cycles`.
"""

from __future__ import annotations

import heapq
from array import array
from collections import deque
from dataclasses import dataclass
from typing import Any

from harness.encoding import SAT, UNKNOWN, UNSAT, Clock, Encoding, Limits, Outcome, cpu_time
from harness.kinds.graph.model import Edge, Graph, degree_problem, solution_edges, solution_string
from harness.options import Option

DONE = -1  # a frontier vertex of degree 2 (a path's inner vertex); degree 0 is the vertex itself
NO, YES = -1, -2  # child codes beside node indices: no answer below, the answer reached
ORDERS = ("greedy", "rcm", "given")
CLOCK_EVERY = 4096  # states between readings of the CPU clock within a layer


@dataclass
class Plan:
    """The edges in the order decided, and at each step the vertices that enter before it and leave after."""

    ends: list[Edge]  # the edges in the order decided
    entering: list[list[int]]
    leaving: list[list[int]]
    last_but_one: list[list[int]]  # the ends of the step's edge with one edge left after it
    all_in: int  # the first step at which every vertex has entered: no cycle closes before it


def far_vertex(graph: Graph, start: int = 0) -> int:
    """The last vertex a breadth-first search from `start` reaches: one end of a long shortest path."""
    seen, queue = {start}, deque([start])
    last = start
    while queue:
        last = queue.popleft()
        for u in graph.neighbours[last]:
            if u not in seen:
                seen.add(u)
                queue.append(u)
    return last


def greedy_order(graph: Graph, most: int | None = None) -> list[int]:
    """The vertices in a greedy order of small vertex separation (the most vertices at once that are
    placed and have a neighbour not placed: the frontier). With `most`, raises Wider as soon as the
    frontier holds more vertices than that (a dense graph's order is not made to the end).

    From a far vertex, the next vertex is always one next to those placed that adds the fewest to
    the frontier (it joins it if it has a neighbour not placed; each placed neighbour whose last
    neighbour not placed it is leaves it), ties to the one with the most placed neighbours, then the
    smallest. A hub joins the frontier once and stays until its neighbours are placed, so the order
    places them together where RCM's breadth-first layers would spread them.
    """
    n, adjacent = graph.n, graph.neighbours
    outside = [len(a) for a in adjacent]  # neighbours not placed
    placed_next = [0] * n  # placed neighbours
    leaves = [0] * n  # placed neighbours whose only neighbour not placed is this vertex
    placed = bytearray(n)
    order: list[int] = []
    heap: list[tuple[int, int, int]] = []

    def key(v: int) -> tuple[int, int, int]:
        return ((1 if outside[v] > 0 else 0) - leaves[v], -placed_next[v], v)

    start = far_vertex(graph)
    heapq.heappush(heap, key(start))
    size = 0  # the frontier now: placed vertices with a neighbour not placed
    while len(order) < n:
        if not heap:
            heapq.heappush(heap, key(placed.index(0)))  # a new component
        entry = heapq.heappop(heap)
        v = entry[2]
        if placed[v] or entry != key(v):  # stale: every change of a key pushed the new one
            continue
        placed[v] = 1
        order.append(v)
        size += outside[v] > 0
        if outside[v] == 1:
            w = next(u for u in adjacent[v] if not placed[u])
            leaves[w] += 1
            heapq.heappush(heap, key(w))
        for u in adjacent[v]:
            outside[u] -= 1
            if placed[u]:
                size -= outside[u] == 0
                if outside[u] == 1:  # u's last neighbour not placed would take it off the frontier
                    w = next(x for x in adjacent[u] if not placed[x])
                    leaves[w] += 1
                    heapq.heappush(heap, key(w))
            else:
                placed_next[u] += 1
                heapq.heappush(heap, key(u))
        if most is not None and size > most:
            raise Wider(f"the greedy order's frontier passed {most} vertices after {len(order):,} of {n:,}")
    return order


def plan(graph: Graph, order: str, most: int | None = None) -> Plan:
    """Each edge at the later of its two ends in the vertex order, ties by the earlier end (`most`: the
    greedy order's bound, `greedy_order`)."""
    n = graph.n
    if order == "greedy":
        vertices = greedy_order(graph, most)
    elif order == "rcm":
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(range(n))
        g.add_edges_from(graph.edges)
        vertices = list(nx.utils.reverse_cuthill_mckee_ordering(g))
    else:
        vertices = list(range(n))
    rank = [0] * n
    for r, v in enumerate(vertices):
        rank[v] = r
    edges = sorted(graph.edges, key=lambda e: (max(rank[e[0]], rank[e[1]]), min(rank[e[0]], rank[e[1]])))
    entering: list[list[int]] = [[] for _ in edges]
    leaving: list[list[int]] = [[] for _ in edges]
    last_but_one: list[list[int]] = [[] for _ in edges]
    seen, all_in = [0] * n, 0
    for k, edge in enumerate(edges):
        for v in edge:
            seen[v] += 1
            left = len(graph.neighbours[v]) - seen[v]
            if seen[v] == 1:
                entering[k].append(v)
                all_in = k
            if left == 1:
                last_but_one[k].append(v)
            elif left == 0:
                leaving[k].append(v)
    return Plan(edges, entering, leaving, last_but_one, all_in)


class Dag:
    """Each layer's children (`lo`: edge off, `hi`: edge on; node 0 of layer 0 the root) and its sizes."""

    def __init__(self) -> None:
        self.lo: list[array] = []
        self.hi: list[array] = []
        self.states = 0
        self.widest = 0
        self.frontier = 0

    def count(self) -> list[list[int]]:
        """The cycles below each node of each layer, bottom-up (a layer past the last edge holds none)."""
        counts: list[list[int]] = [[] for _ in self.lo]
        below: list[int] = []
        for k in range(len(self.lo) - 1, -1, -1):
            def of(c: int, below: list[int] = below) -> int:
                return 1 if c == YES else 0 if c == NO else below[c] if c < len(below) else 0

            counts[k] = below = [of(lo) + of(hi) for lo, hi in zip(self.lo[k], self.hi[k], strict=True)]
        return counts

    def nth(self, j: int, counts: list[list[int]]) -> list[int]:
        """The steps taken on (edge on) by the j-th cycle, in the order lo before hi."""
        taken, node = [], 0
        for k in range(len(self.lo)):
            lo, hi = self.lo[k][node], self.hi[k][node]
            below_lo = 0 if lo < 0 or k + 1 == len(counts) else counts[k + 1][lo]
            if j < below_lo:
                node = lo  # never YES: an edge left off closes nothing
            else:
                j -= below_lo
                taken.append(k)
                if hi == YES:
                    return taken
                node = hi
        raise AssertionError("the DAG's counts lead to no answer")


class Wider(Exception):
    pass


def build(plan: Plan, width: int, clock: Clock, limits: Limits | None = None,
          most_states: int | None = None) -> Dag:
    """The DAG of the module docstring, layer by layer (the stats so far to `limits.report`).

    Raises Wider past `width` states in a layer or `most_states` in all, TimeoutError (the step) once
    the CPU budget is spent.
    """
    dag = Dag()
    states: list[tuple[int, ...]] = [()]
    frontier: list[int] = []
    for k in range(len(plan.ends)):
        here = frontier + plan.entering[k]
        dag.frontier = max(dag.frontier, len(here))
        made, frontier = _layer(plan, k, here, states, dag, clock)
        dag.states += len(states)
        dag.widest = max(dag.widest, len(states))
        if len(made) > width:
            raise Wider(f"the frontier took {len(made):,} states after {k + 1:,} of {len(plan.ends):,} "
                        f"edges, more than width={width:,}")
        if most_states is not None and dag.states > most_states:
            raise Wider(f"the search made {dag.states:,} states by edge {k + 1:,} of {len(plan.ends):,}, "
                        f"more than {most_states:,}")
        states = list(made)
        if clock.expired():
            raise TimeoutError(k)
        if limits is not None:
            limits.report({"states": dag.states, "widest": dag.widest, "frontier": dag.frontier})
    return dag


def _layer(plan: Plan, k: int, here: list[int], states: list[tuple[int, ...]], dag: Dag,
           clock: Clock) -> tuple[dict[tuple[int, ...], int], list[int]]:
    """Step k: each state's two children appended to the DAG; the next layer's states, numbered, and
    its frontier (`here` without the vertices leaving)."""
    a, b = plan.ends[k]
    at = {v: i for i, v in enumerate(here)}
    gone = set(plan.leaving[k])
    kept = [i for i, v in enumerate(here) if v not in gone]
    leaving = [at[v] for v in plan.leaving[k]]
    lonely = [(at[v], v) for v in plan.last_but_one[k]]  # at degree 0 now, degree 2 is out of reach
    ia, ib = at[a], at[b]
    others = [i for i in range(len(here)) if i not in (ia, ib)]
    may_close = k >= plan.all_in
    extra = tuple(plan.entering[k])  # each entering vertex has degree 0: its own mate
    made: dict[tuple[int, ...], int] = {}
    lo, hi = array("i"), array("i")

    def child(t: list[int] | tuple[int, ...]) -> int:
        for i in leaving:
            if t[i] != DONE:
                return NO
        for i, v in lonely:
            if t[i] == v:
                return NO
        key = tuple([t[i] for i in kept])
        node = made.get(key)
        if node is None:
            node = made[key] = len(made)
        return node

    for count, s in enumerate(states):
        if count % CLOCK_EVERY == CLOCK_EVERY - 1 and clock.expired():
            raise TimeoutError(k)
        t = s + extra
        lo.append(child(t))
        ma, mb = t[ia], t[ib]
        if ma == DONE or mb == DONE:
            hi.append(NO)
        elif ma == b:  # the edge joins a path's two ends: a cycle, the answer only through every vertex
            hi.append(YES if may_close and all(t[i] == DONE for i in others) else NO)
        else:
            u = list(t)
            u[at[ma]], u[at[mb]] = mb, ma  # the two far ends now end one path
            if ma != a:
                u[ia] = DONE
            if mb != b:
                u[ib] = DONE
            hi.append(child(u))
    dag.lo.append(lo)
    dag.hi.append(hi)
    return made, [here[i] for i in kept]


# `sat`'s `prepass=frontier`: the search on counted bounds (the same on any machine) and a CPU budget. The
# frontier and layer bounds are several times what the fhcp-sample graphs it solves at width=200,000 need
# (a greedy frontier of 9 vertices, 116 states in a layer: results/fhcp/README.md); the states in all are
# past what the budget allows, so on the widest of the graphs it can solve the budget ends it first, and
# there, as for `loop.rotations`, a slower machine may miss what a faster one finds.
PREPASS_FRONTIER = 12  # vertices on the greedy order's frontier
PREPASS_WIDTH = 1_000  # states in a layer
PREPASS_STATES = 500_000  # states in all (about 5 us each in CPython)
PREPASS_SECONDS, PREPASS_SHARE = 1.0, 1 / 60  # CPU: a second, at most a sixtieth of the run's limit


def prepass_seconds(time_limit_s: float) -> float:
    """The pre-pass's CPU budget for a run of this limit."""
    return min(PREPASS_SECONDS, time_limit_s * PREPASS_SHARE)


def prepass_cycle(graph: Graph, deadline: float) -> tuple[list[Edge] | None, str]:
    """A Hamiltonian cycle's edges found by the search within the pre-pass's bounds, or None; and what
    happened, in words. Never an unsat: a search that ends with no cycle says so and the caller goes on,
    so `sat`'s unsat answers stay its own model family's (docs/FORMATS.md).

    A graph with more than PREPASS_FRONTIER edges per vertex is not searched: its degeneracy is at least
    its edges per vertex, and its path-width (the narrowest frontier of any order) at least that."""
    if len(graph.edges) > PREPASS_FRONTIER * graph.n:
        return None, f"not searched: {len(graph.edges) / graph.n:.1f} edges a vertex"
    if reason := degree_problem(graph):
        return None, reason
    try:
        order = plan(graph, "greedy", PREPASS_FRONTIER)
        dag = build(order, PREPASS_WIDTH, Clock(deadline), most_states=PREPASS_STATES)
    except Wider as why:
        return None, str(why)
    except TimeoutError as at:
        return None, f"its CPU budget ran out at edge {at} of {len(order.ends):,}"
    counts = dag.count()
    if not counts or not counts[0][0]:
        return None, "no cycle (left to the solver to prove)"
    return [order.ends[k] for k in dag.nth(0, counts)], f"a cycle ({dag.states:,} states)"


def _width(width: int) -> int:
    if width < 1:
        raise ValueError(f"width={width}: a layer holds at least one state")
    return width


class Frontier(Encoding):
    name = "frontier"
    puzzles = ("graph",)
    excludes = True
    declared = (
        Option("order", "greedy", "the edge order: greedy, rcm (reverse Cuthill-McKee) or as given", ORDERS),
        Option("width", 200_000, "the most states a layer may hold (at least 1)", check=_width),
    )
    imports = ("networkx",)

    def solve(self, puzzle: Graph, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        start = cpu_time()
        if reason := degree_problem(puzzle):
            return Outcome(UNSAT, stats={"build_s": cpu_time() - start, "iterations": 0, "cuts": 0,
                                         "reason": reason})
        order = plan(puzzle, self.options["order"])
        stats: dict[str, Any] = {"build_s": cpu_time() - start, "iterations": 0, "cuts": 0}
        try:
            dag = build(order, self.options["width"], limits.clock(), limits)
        except Wider as why:
            return Outcome(UNKNOWN, stats={**stats, "reason": str(why)})
        except TimeoutError as at:
            return Outcome(UNKNOWN, stats={**stats, "reason": f"time limit reached at edge {at} of "
                                                              f"{len(order.ends):,}"})
        counts = dag.count()
        total = counts[0][0] if counts else 0
        stats.update(states=dag.states, widest=dag.widest, frontier=dag.frontier,
                     cycles=total if total < 2**63 else str(total))
        excluded = {frozenset(solution_edges(puzzle, text)) for text in exclude}
        for j in range(total):  # at most len(exclude) + 1 cycles are read
            edges = [order.ends[k] for k in dag.nth(j, counts)]
            if frozenset(edges) not in excluded:
                return Outcome(SAT, solution_string(puzzle.n, edges), stats)
        return Outcome(UNSAT, stats=stats)
