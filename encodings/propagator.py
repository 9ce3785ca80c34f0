"""A loop kind's CNF on CaDiCaL with an IPASIR-UP external propagator that cuts sub-loops during search.

Model: the edge variables and clauses of `loop.cnf`, as in `sat`. Single loop: a
`pysat.engines.Propagator` observes every edge variable and keeps the true edges in a
union-find (with a count of required vertices per part) and an undo trail (undone on backtrack,
fixed literals kept). A true edge whose ends were already joined closes a cycle; `propagate()` walks
it and hands the solver a cut clause the assignment falsifies (`has_clause`/`add_clause`,
families `cuts=loop|cutset` as in `sat`). `eager=pearlfree` (default) cuts only cycles without
a required vertex (a pearl) there, leaving the others to `check_model`; `eager=all` cuts every wrong cycle as
it closes (the notes' "prop eager"), which on janko puzzles gets lost in 10^5 near-copies of one
long loop that misses a pearl. `check_model` runs `loop.cuts.find_cuts` on each complete model
and always hands over a clause when it rejects one; the `sat` loop around the one solve() call
would catch any loop let through (iterations > 1). Solvers: cadical195, cadical300, minisatep,
ergo. Time limit: `sat`'s conflict-budget chunks plus a clock check in `propagate()` raising
OutOfTime, since the solver settles most such clauses by backjumping, with no conflict counted.
"""

from __future__ import annotations

import time

from . import loop
from .loop.cnf import chosen_edges, cut_clause, edge_var
from .loop.cuts import find_cuts
from .sat import OutOfTime, Sat

CLOCK_EVERY = 64  # propagate() calls between readings of the clock
EAGER = ("pearlfree", "all")


class Propagator(Sat):
    name = "propagator"
    puzzles = loop.kinds()
    defaults = {"solver": "cadical195", "cuts": "loop", "phase": "false", "eager": "pearlfree"}
    imports = (*Sat.imports, "pysat.engines")
    allowed_solvers = ("cadical195", "cadical300", "minisatep", "ergo")
    choices = {**Sat.choices, "eager": EAGER}

    def attach(self, solver, problem, pool, deadline):
        watch = _loop_watch(problem, pool, self.options["cuts"], deadline, self.options["eager"])
        solver.connect_propagator(watch)
        for var in watch.ends:
            solver.observe(var)
        return watch


def _loop_watch(problem, pool, family, deadline=float("inf"), eager="pearlfree"):
    from pysat.engines import Propagator as Base

    class LoopWatch(Base):
        """Sub-loop cuts in partial assignments; see the module docstring."""

        def __init__(self) -> None:
            super().__init__()
            grid = problem.graph
            self.edge = {edge_var(pool, *e): e for e in grid.edges}
            self.ends = {v: (grid.index(a), grid.index(b)) for v, (a, b) in self.edge.items()}
            self.incident: list[list[tuple[int, int]]] = [[] for _ in grid.cells]  # (var, other end)
            for v, (a, b) in self.ends.items():
                self.incident[a].append((v, b))
                self.incident[b].append((v, a))
            self.required = {grid.index(c) for c in problem.required}
            self.hits = [{edge_var(pool, *e) for e in group} for group in problem.hits]
            self.parent = list(range(grid.num_cells))
            self.size = [1] * grid.num_cells
            self.held = [int(i in self.required) for i in range(grid.num_cells)]  # required cells per root
            self.adj: list[dict[int, int]] = [{} for _ in grid.cells]  # cell -> {true edge var: other end}
            self.on: set[int] = set()  # true edge vars applied to the structures
            self.fixed: set[int] = set()
            self.trail: list[tuple[int, int | None]] = []  # (var, root joined under another, or None)
            self.levels: list[int] = []
            self.closing: list[int] = []  # true edges whose ends were connected already
            self.pending: list[list[int]] = []
            self.counts = {"cuts": 0, "check_model_calls": 0, "cycles_seen": 0}
            self.calls = 0

        def stats(self) -> dict:
            return dict(self.counts)

        def find(self, x: int) -> int:
            while self.parent[x] != x:  # no path compression, so unions can be undone
                x = self.parent[x]
            return x

        def apply(self, var: int) -> None:
            a, b = self.ends[var]
            ra, rb = self.find(a), self.find(b)
            if ra == rb:
                if eager == "all" or not self.held[ra]:
                    self.closing.append(var)
                joined = None
            else:
                if self.size[ra] < self.size[rb]:
                    ra, rb = rb, ra
                self.parent[rb] = ra
                self.size[ra] += self.size[rb]
                self.held[ra] += self.held[rb]
                joined = rb
            self.adj[a][var], self.adj[b][var] = b, a
            self.on.add(var)
            self.trail.append((var, joined))

        def on_assignment(self, lit: int, fixed: bool = False) -> None:
            if lit < 0:
                return
            if fixed:
                self.fixed.add(lit)
            if lit not in self.on:
                self.apply(lit)

        def on_new_level(self) -> None:
            self.levels.append(len(self.trail))

        def on_backtrack(self, to: int) -> None:
            if len(self.levels) <= to:
                return
            start = self.levels[to]
            del self.levels[to:]
            keep = []
            while len(self.trail) > start:
                var, joined = self.trail.pop()
                if joined is not None:
                    root = self.parent[joined]
                    self.size[root] -= self.size[joined]
                    self.held[root] -= self.held[joined]
                    self.parent[joined] = joined
                a, b = self.ends[var]
                del self.adj[a][var], self.adj[b][var]
                self.on.discard(var)
                if var in self.fixed:
                    keep.append(var)
            for var in reversed(keep):
                self.apply(var)
            self.closing = [v for v in self.closing if v in self.on]

        def decide(self) -> int:
            return 0

        def propagate(self) -> list[int]:
            self.calls += 1
            if self.calls % CLOCK_EVERY == 0 and time.perf_counter() > deadline:
                raise OutOfTime  # conflict budgets do not bound the work done through our clauses
            while self.closing:
                clause = self.cut_for(self.closing.pop())
                if clause is not None:
                    self.pending.append(clause)
                    self.counts["cuts"] += 1
            return []

        def cut_for(self, var: int) -> list[int] | None:
            """The clause against the cycle that `var` closed, or None if it may be the answer."""
            start, cur = self.ends[var]
            cycle, cells, came = [var], {start, cur}, var
            while cur != start:
                onward = [(v, w) for v, w in self.adj[cur].items() if v != came]
                if len(onward) != 1 or len(cycle) > len(self.on):
                    return None  # not a simple cycle (mid-propagation); check_model still judges
                came, cur = onward[0]
                cycle.append(came)
                cells.add(cur)
            self.counts["cycles_seen"] += 1
            holds = self.required & cells
            used = set(cycle)
            if holds == self.required and all(group & used for group in self.hits):
                company = next(iter(self.on.difference(cycle)), None)
                return None if company is None else [-v for v in cycle] + [-company]
            if family == "cutset" and holds and holds != self.required:
                return [v for i in cells for v, j in self.incident[i] if j not in cells]
            return [-v for v in cycle]

        def provide_reason(self, lit: int) -> list[int]:
            raise AssertionError("the loop watch propagates no literals, so it owes no reasons")

        def check_model(self, model: list[int]) -> bool:
            self.counts["check_model_calls"] += 1
            chosen = chosen_edges(problem, pool, model)
            cuts = find_cuts(problem, chosen, family)
            self.pending += [cut_clause(pool, cut) for cut in cuts]
            self.counts["cuts"] += len(cuts)
            return not cuts

        def has_clause(self) -> bool:
            return bool(self.pending)

        def add_clause(self) -> list[int]:
            return self.pending.pop()

    return LoopWatch()
