"""The loop watch: an IPASIR-UP propagator (`pysat.engines.Propagator`) for the loop constraint in search.

It keeps the true edges as paths: each path end knows the other end, the required vertices on the
path and its length (undone on backtrack, fixed literals kept). A true edge joining a path's two ends
closes a cycle, cut in `propagate()` by a clause the assignment falsifies (`cuts=loop|cutset` as in
`loop.cuts`); `eager` chooses which (`pearlfree`: cycles without a required vertex; `all`: every wrong
one; `propagate`: as pearlfree, and the edge between a grown path's two ends is set false when that
loop would be wrong, with the reason [-edge, -path edges]). `check_model` cuts every wrong complete
model and always hands over a clause when it rejects one. Out of time (the CPU clock, read every
CLOCK_EVERY propagate() calls, past the deadline) it hands over the empty clause, which ends the
solve() call (answer False, `out_of_time()` True), and keeps answering reasons until then. It never
raises out of a callback: PySAT 1.9.dev17's glue then lets CaDiCaL search on, answers every later
callback for it (check_model: accept; provide_reason: the empty clause) and raises only when solve()
returns, and an empty reason is a SIGSEGV in conflict analysis (`shrink_block`) on FHCP graph329.
ROOT: at decision level 0 no literal is propagated; its reason goes over as a clause instead, which
CaDiCaL makes a unit. CaDiCaL 1.9.5 assigns an external propagation at level 0 with no reason and
never marks it fixed nor tells the propagator (3.0 learns the reason clause there instead): a level-0
variable left active breaks `protect_reasons` (its debug assertion `v.level > 0`), and in release
builds a later `reduce` died in `unprotect_reasons` (connect on the 70x70 grid of graph-hard, whose
first search propagates at the root).
"""

from __future__ import annotations

import time

from harness.encoding import cpu_time

CLOCK_EVERY = 64  # propagate() calls between readings of the clock
# on_assignment, propagate and on_backtrack calls per one timed for callback_cpu_s: at 16, the two
# readings a timed call takes cost propagator 8 % of its CPU on Masyu (results/graph/README.md)
SAMPLE = 128
EAGER = ("propagate", "pearlfree", "all")


def loop_watch(problem, family, deadline=float("inf"), eager="propagate", components="array", strict=False,
               cpu_clock=time.process_time):
    """The propagator for `problem`; `strict` checks every reason against its own view when asked.

    `cpu_clock` is what `deadline` is read against: the runner's CPU time (a test gives a counter, so
    that the solve stops at the same point of its search every time).

    Its state lives in this function's locals, read by the callbacks as closure cells: one
    on_assignment per observed literal is the hot path, and a cell is cheaper to read than an attribute.
    """
    from pysat.engines import Propagator as Base

    arrays = problem.arrays
    ends, between, total, hits = arrays.ends, arrays.between, len(arrays.required), arrays.hits
    n, m = arrays.num_vertices, arrays.num_edges
    groups: list[list[int]] = [[] for _ in range(m)]  # the hits groups of each edge
    for g, group in enumerate(hits):
        for i in group:
            groups[i].append(g)
    value = bytearray(m + 1)  # by variable: 0 unassigned, 1 true, 2 false
    partner = list(range(n))  # at a path end: the other end (a lone vertex is its own)
    held = list(arrays.is_required)  # at a path end: required vertices on the path
    length = [0] * n  # at a path end: edges on the path
    one, two = [0] * n, [0] * n  # the true edge variables at each vertex (0: none)
    trail: list[int] = []  # literals applied, in order
    undo: list[tuple | None] = []  # per true literal on the trail: what to restore
    levels: list[int] = []  # trail length at each decision level
    fixed_vars: set[int] = set()
    closing: list[int] = []  # true edges that closed a cycle, to cut
    check: list[tuple[int, int]] = []  # ends of grown paths, to look at the edge between them
    reasons: dict[int, list[int]] = {}  # by propagated literal (the latest propagation of it)
    pending: list[list[int]] = []  # clauses for the solver
    counts = {"cuts": 0, "propagations": 0, "reasons": 0, "check_model_calls": 0, "cycles_seen": 0}
    # CPU time (`cpu_time`, ~1 us a reading, about a short callback's body): the frequent callbacks
    # are timed 1 call in SAMPLE, check_model (rare) every time
    clock = cpu_time
    true = broken = assignments = calls = backtracks = 0  # true edges; third true edges at a vertex; counts
    callback_s = sampled_s = 0.0  # CPU in check_model; in the frequent callbacks' calls timed
    stopped = False  # the deadline has passed: the empty clause is due, and nothing else

    def apply(lit: int) -> None:
        nonlocal true, broken
        trail.append(lit)
        if lit < 0:
            value[-lit] = 2
            return
        value[lit] = 1
        true += 1
        a, b = ends[lit - 1]
        if two[a] or two[b]:
            broken += 1
            undo.append(None)
            return
        if one[a]:
            two[a] = lit
        else:
            one[a] = lit
        if one[b]:
            two[b] = lit
        else:
            one[b] = lit
        pa, pb = partner[a], partner[b]
        if pa == b:  # a and b were the two ends of one path: a cycle, holding held[a] required vertices
            undo.append(())
            if eager == "all" or not held[a]:  # the others are left to propagation and check_model
                closing.append(lit)
            return
        undo.append((pa, held[pa], length[pa], pb, held[pb], length[pb]))
        partner[pa], partner[pb] = pb, pa
        held[pa] = held[pb] = held[pa] + held[pb]
        length[pa] = length[pb] = length[pa] + length[pb] + 1
        if eager == "propagate":
            check.append((pa, pb))

    def retract(lit: int) -> None:
        nonlocal true, broken
        if lit < 0:
            value[-lit] = 0
            return
        value[lit] = 0
        true -= 1
        entry = undo.pop()
        if entry is None:
            broken -= 1
            return
        a, b = ends[lit - 1]
        if two[a] == lit:  # undone last in, first out: lit is the newer edge at both ends
            two[a] = 0
        else:
            one[a] = 0
        if two[b] == lit:
            two[b] = 0
        else:
            one[b] = 0
        if entry:
            pa, held[pa], length[pa], pb, held[pb], length[pb] = entry
            partner[pa], partner[pb] = a, b

    def walk(u: int, v: int, came: int = 0) -> tuple[list[int], list[int]] | None:
        """The edge variables and vertices of the path from end u to end v, or None if there is none."""
        edges, vertices, x = [], [u], u
        for _ in range(length[u]):
            nxt = one[x] if one[x] != came else two[x]
            if not nxt:
                return None
            edges.append(nxt)
            a, b = ends[nxt - 1]
            x = b if a == x else a
            vertices.append(x)
            came = nxt
        return (edges, vertices) if x == v else None

    def covers(edges: list[int]) -> bool:
        """Whether these edge variables use an edge of every hits group."""
        return len({g for var in edges for g in groups[var - 1]}) == len(hits)

    def company(edges: list[int]) -> int:
        """A true edge variable off these edges."""
        own = set(edges)
        return next(lit for lit in trail if lit > 0 and value[lit] == 1 and lit not in own)

    def closing_reason(u: int, v: int, var: int) -> list[int] | None:
        """The reason to set `var` (between path ends u, v) false, or None if that loop may be the answer."""
        path = walk(u, v)
        if path is None:
            return None
        wrong = held[u] < total or (hits and not covers([*path[0], var]))
        if wrong:
            return [-var] + [-e for e in path[0]]
        if true == length[u]:
            return None  # the path is every true edge: closing it may give the answer
        return [-var] + [-e for e in path[0]] + [-company(path[0])]

    def cut_for(var: int) -> list[int] | None:
        """The clause against the cycle that `var` closed, or None if it may be the answer."""
        if value[var] != 1:
            return None
        a, b = ends[var - 1]
        found = walk(a, b, came=var)
        if found is None:
            return None
        counts["cycles_seen"] += 1
        edges, vertices = found
        cycle = [*edges, var]
        holds = held[a]
        if holds == total and (not hits or covers(cycle)):
            return None if true == len(cycle) else [-e for e in cycle] + [-company(cycle)]
        if family == "cutset" and holds and holds != total:
            return [i + 1 for i in arrays.boundary(vertices)]
        return [-e for e in cycle]

    def backtrack(to: int) -> None:
        if len(levels) > to:
            start = levels[to]
            del levels[to:]
            undone = trail[start:]
            del trail[start:]
            for lit in reversed(undone):
                retract(lit)
            if fixed_vars:
                for lit in undone:
                    if abs(lit) in fixed_vars:
                        apply(lit)
            closing[:] = [var for var in closing if value[var] == 1]
            check[:] = [(u, v) for u, v in check if partner[u] == v]

    def proposed() -> list[int]:
        """Cuts for the cycles closed, and the edges a grown path's ends rule out (propagate's work)."""
        out = []
        if not broken and not stopped:
            while closing:
                clause = cut_for(closing.pop())
                if clause is not None:
                    pending.append(clause)
                    counts["cuts"] += 1
            while check:
                u, v = check.pop()
                if partner[u] != v or (i := between(u, v)) < 0 or value[i + 1]:
                    continue
                reason = closing_reason(u, v, i + 1)
                if reason is not None:
                    reasons[-i - 1] = reason
                    out.append(-i - 1)
            counts["propagations"] += len(out)
            if out and not levels:  # at the root a propagation is handed over as its reason, a unit (ROOT)
                pending.extend(reasons[lit] for lit in out)
                return []
        return out  # the solver skips a literal already true, so one proposed twice does no harm

    class LoopWatch(Base):
        """Paths of true edges, cuts and propagations; see the module docstring."""

        def stats(self) -> dict:
            return {**counts, "assignments": assignments, "callback_cpu_s": callback_s + SAMPLE * sampled_s}

        def out_of_time(self) -> bool:
            """Whether this watch stopped the solve at its deadline (its False is no answer)."""
            return stopped

        def on_assignment(self, lit: int, fixed: bool = False) -> None:
            nonlocal assignments, sampled_s
            assignments += 1
            if assignments % SAMPLE:
                if fixed:
                    fixed_vars.add(abs(lit))
                if not value[abs(lit)]:
                    apply(lit)
                return
            t0 = clock()
            if fixed:
                fixed_vars.add(abs(lit))
            if not value[abs(lit)]:
                apply(lit)
            sampled_s += clock() - t0

        def on_new_level(self) -> None:
            levels.append(len(trail))

        def on_backtrack(self, to: int) -> None:
            nonlocal backtracks, sampled_s
            backtracks += 1
            if backtracks % SAMPLE:
                backtrack(to)
                return
            t0 = clock()
            backtrack(to)
            sampled_s += clock() - t0

        def decide(self) -> int:
            return 0

        def propagate(self) -> list[int]:
            nonlocal calls, sampled_s, stopped
            calls += 1
            # conflict budgets do not bound the work done through our clauses: the clock stops the solve
            if not stopped and calls % CLOCK_EVERY == 0 and cpu_clock() > deadline:
                stopped = True  # has_clause() now offers the empty clause, which CaDiCaL asks for next
            if calls % SAMPLE:
                return proposed()
            t0 = clock()
            out = proposed()
            sampled_s += clock() - t0
            return out

        def provide_reason(self, lit: int) -> list[int]:
            counts["reasons"] += 1
            reason = reasons[lit]
            if strict:
                unfalsified = [x for x in reason if x != lit and value[abs(x)] != (2 if x > 0 else 1)]
                assert not unfalsified and value[abs(lit)] == (1 if lit > 0 else 2), (lit, reason)
            return reason

        def check_model(self, model: list[int]) -> bool:
            nonlocal callback_s
            t0 = clock()
            counts["check_model_calls"] += 1
            if stopped:
                return False  # with the empty clause to hand over
            cuts = arrays.cut_clauses(arrays.chosen(model), family, components)
            pending.extend(cuts)
            counts["cuts"] += len(cuts)
            callback_s += clock() - t0
            return not cuts

        def has_clause(self) -> bool:
            return stopped or bool(pending)

        def add_clause(self) -> list[int]:
            return [] if stopped else pending.pop()  # with has_clause() defined, [] is the empty clause

    return LoopWatch()
