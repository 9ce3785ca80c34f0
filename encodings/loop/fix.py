"""Forced edges: what the loop problem alone fixes before any search, for every strategy that asks (`fix`).

The published CEGAR for Hamiltonian cycles (Ohashi, Soh, Le Berre et al., SAT 2025, option `fix`)
fixes edges up front; here the same rules run on any `LoopProblem` (a graph, or a puzzle's loop
without its kind's rules), repeated until nothing changes:
- a vertex on the loop (required, or at a forced edge) with exactly two edges left uses both;
- a vertex with two forced edges uses no other;
- a vertex with one edge left cannot use it (degree 0 or 2); on the loop, that is no answer;
- a `hits` group with one edge left uses it; with none, no answer;
- forced edges make paths: the edge joining a path's two ends would close it into a loop, and is
  off unless that loop could be the answer (it holds every required vertex and every forced edge);
  a loop closed by forced edges is the answer only so, and then every other edge is off.
Each conclusion holds for every answer (degree 0 or 2, one loop through every required vertex), so
the edges it fixes may be given to any solver as unit clauses. The first three rules are what unit
propagation finds in `loop.cnf`'s degree clauses too; the closing rule is not.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from loopbench_encodings.loop import LoopProblem


@dataclass
class Fixed:
    """The edges (by index) every answer uses (`on`) and uses not (`off`); `reason`: why no answer exists."""

    on: list[int] = field(default_factory=list)
    off: list[int] = field(default_factory=list)
    reason: str = ""

    def units(self) -> list[list[int]]:
        """The fixed edges as unit clauses over the edge variables (edge i is variable i + 1)."""
        return [[i + 1] for i in self.on] + [[-i - 1] for i in self.off]


class _NoAnswer(Exception):
    pass


def fixed_edges(problem: LoopProblem) -> Fixed:
    """The forced edges of `problem` by the rules of the module docstring (made once per problem)."""
    arrays = problem.arrays
    made = arrays.own.get("fixed")
    if made is None:
        made = arrays.own["fixed"] = _Fixer(problem).run()
    return made  # type: ignore[return-value]


class _Fixer:
    def __init__(self, problem: LoopProblem) -> None:
        graph = problem.graph
        self.graph = graph
        self.ends, self.incident = graph.ends, graph.incident
        n, m = graph.num_vertices, graph.num_edges
        self.state = bytearray(m)  # 0 open, 1 on, 2 off
        self.live = [len(here) for here in self.incident]  # edges not off at each vertex
        self.forced = [0] * n  # edges on at each vertex
        self.required = bytearray(n)
        for v in problem.required:
            self.required[v] = 1
        self.num_required = len(problem.required)
        self.num_on = 0
        # forced paths, read at their ends: `other[v]` is the far end of the path v ends (v itself when
        # v is on none), `held[v]` the required vertices on it and `length[v]` its edges
        self.other = list(range(n))
        self.held = list(self.required)
        self.length = [0] * n
        self.hits = problem.hits
        self.groups_at: dict[int, list[int]] = {}
        for k, group in enumerate(problem.hits):
            for i in group:
                self.groups_at.setdefault(i, []).append(k)
        self.queue: deque[int] = deque()
        self.closed = False

    def run(self) -> Fixed:
        try:
            for k in range(len(self.hits)):
                self._group(k)
            self.queue.extend(range(self.graph.num_vertices))
            while self.queue:
                self._vertex(self.queue.popleft())
        except _NoAnswer as why:
            return Fixed(reason=str(why))
        state = self.state
        return Fixed([i for i, s in enumerate(state) if s == 1], [i for i, s in enumerate(state) if s == 2])

    def _vertex(self, v: int) -> None:
        forced, live = self.forced[v], self.live[v]
        on_loop = forced or self.required[v]
        if forced > 2:
            raise _NoAnswer(f"vertex {self.graph.label(v)} has {forced} forced edges")
        if forced == 2 and live > 2:
            for i in self.incident[v]:
                if self.state[i] == 0:
                    self._off(i)
        elif live == 1 or (live == 0 and on_loop):
            if on_loop:
                raise _NoAnswer(f"vertex {self.graph.label(v)} is on the loop with {live} edge left")
            self._off(next(i for i in self.incident[v] if self.state[i] != 2))
        elif live == 2 and on_loop and forced < 2:
            for i in self.incident[v]:
                if self.state[i] == 0:
                    self._on(i)

    def _off(self, i: int) -> None:
        if self.state[i] == 2:
            return
        if self.state[i] == 1:
            raise _NoAnswer(f"edge {self.graph.label(self.ends[i][0])}-{self.graph.label(self.ends[i][1])} "
                            "is forced on and off")
        self.state[i] = 2
        for v in self.ends[i]:
            self.live[v] -= 1
            self.queue.append(v)
        for k in self.groups_at.get(i, ()):
            self._group(k)

    def _group(self, k: int) -> None:
        group = self.hits[k]
        if any(self.state[i] == 1 for i in group):
            return
        open_ = [i for i in group if self.state[i] == 0]
        if not open_:
            raise _NoAnswer(f"every edge of demand group {k} is off")
        if len(open_) == 1:
            self._on(open_[0])

    def _on(self, i: int) -> None:
        if self.state[i] == 1:
            return
        if self.state[i] == 2:
            raise _NoAnswer(f"edge {self.graph.label(self.ends[i][0])}-{self.graph.label(self.ends[i][1])} "
                            "is forced off and on")
        if self.closed:
            raise _NoAnswer("a forced loop is closed, and another edge is forced")
        u, v = self.ends[i]
        if self.forced[u] == 2 or self.forced[v] == 2:
            w = u if self.forced[u] == 2 else v
            raise _NoAnswer(f"vertex {self.graph.label(w)} would have 3 forced edges")
        self.state[i] = 1
        self.num_on += 1
        self.forced[u] += 1
        self.forced[v] += 1
        self.queue.extend((u, v))
        a, b = self.other[u], self.other[v]  # u and v end paths (or are alone): the far ends
        if a == v:  # the edge closes a forced path into a loop
            if self.held[u] != self.num_required or self.length[u] + 1 != self.num_on:
                raise _NoAnswer("forced edges close a loop that is not the answer")
            self.closed = True
            for j, s in enumerate(self.state):
                if s == 0:
                    self._off(j)
            return
        held, length = self.held[a] + self.held[b], self.length[a] + self.length[b] + 1
        self.other[a], self.other[b] = b, a
        self.held[a] = self.held[b] = held
        self.length[a] = self.length[b] = length
        closing = self.graph.between(a, b)
        if closing >= 0 and self.state[closing] == 0 and (held != self.num_required or length != self.num_on):
            self._off(closing)
