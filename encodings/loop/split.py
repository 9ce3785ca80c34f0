"""Hub-joined parts solved one by one (`split=hubs`): a Hamiltonian cycle found on two levels.

Some hard graphs (the FHCP set's 30-hub family: five near-cubic components of 397 vertices, each
joined to its own six hubs, a few edges between these blocks) are easy piece by piece and hard whole:
a model of the whole graph leaves sub-cycles in every block at once, and a cut-set through a hub
that meets every vertex of its block asks little. So:
- **Parts** (`parts`): the graph without its hubs (`hubs`: degree at least HUB_FACTOR times the mean
  and HUB_MIN) falls into components; each one of PART_MIN vertices or more, with the hubs that have
  most of their neighbours in it, is a part, kept when at most BOUNDARY_MAX edges leave it. The other
  vertices (small components, hubs of no part) are the top level's own, at most LOOSE_MAX of them;
  without two parts the graph is not split, and `sat` solves it whole.
- **Top level** (`Split.run`): a small SAT problem over the edges between parts and top vertices: each
  top vertex on two of them, each part on an even number, at least two, at most two at one vertex.
- **Routes**: a part on 2k boundary edges holds k paths of the cycle; which boundary vertices each
  path joins is its pairing (a vertex on two boundary edges is a path of its own, alone). For each
  combination of pairings that makes the top level one cycle, the parts are solved in turn, each a
  Hamiltonian cycle problem on the part with one new vertex for each path outside it (`outside`: the
  top edges and the other parts' pairings, the answers' own for the parts solved already), by `sat`
  with the run's own options (cached by part and outside). The last part's cycle closes the whole.
- A top model whose every combination fails is blocked; a part's edge set that no outside lets it
  hold (`matchings`) is blocked for good. A sub-solve stopped by its budget (SUB_BUDGET_S CPU seconds,
  times 4 each pass) leaves its model for a later pass; `unsat` only when no pass left one undecided.
  The sub-solve stopped so is kept (at most LIVE_MAX of them, the least recently asked closed first)
  and a later pass resumes it with the difference, up to the time left, instead of starting it again:
  the ladder's passes then cost their budget once, not the sum of every rung, and the last pass gets
  whatever time is left (a restarted search given less than it had before could only stop sooner).
The joined cycle is judged by the harness's checker as every answer is. It is the idea of the fork's
hub partition (wizardap/HCP, docs/superpowers/plans/2026-08-16-hub-sub-hcp.md), written anew on the
loop problem; docs/CEGAR.md has the measurements.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.encoding import SAT, UNKNOWN, UNSAT, cpu_time

HUB_FACTOR, HUB_MIN = 3, 20  # a hub: degree at least 3 times the mean and at least 20 (no grid's vertex)
PART_MIN = 20  # a component of the graph without its hubs smaller than this stays on the top level
BOUNDARY_MAX = 8  # a part with more edges leaving it has too many interfaces (2^(b-1) edge sets)
LOOSE_MAX = 64  # more top vertices than this make the top level a hard problem of its own
SUB_BUDGET_S = 2.0  # CPU seconds a part's sub-solve gets in the first pass (times 4 each pass)
PAIRINGS_MAX = 256  # pairing combinations tried for one top model
LIVE_MAX = 8  # undecided sub-solves kept for a later pass (each holds a solver: a part's formula and more)


def hubs(degrees: Sequence[int]) -> set[int]:
    """The vertices (by index into `degrees`) of degree at least HUB_FACTOR times the mean and at least
    HUB_MIN; bench_fhcp_published groups the FHCP graphs by their number."""
    floor = max(HUB_MIN, HUB_FACTOR * sum(degrees) / len(degrees))
    return {v for v, d in enumerate(degrees) if d >= floor}


@dataclass
class Part:
    """A part's vertices and the edges leaving it, each (inside vertex, outside vertex)."""

    vertices: frozenset[int]
    boundary: tuple[tuple[int, int], ...]


def components(vertices: set[int], neighbours) -> list[set[int]]:
    """The connected components of the graph on `vertices`."""
    seen: set[int] = set()
    found = []
    for s in sorted(vertices):
        if s in seen:
            continue
        seen.add(s)
        comp, stack = {s}, [s]
        while stack:
            for w in neighbours[stack.pop()]:
                if w in vertices and w not in seen:
                    seen.add(w)
                    comp.add(w)
                    stack.append(w)
        found.append(comp)
    return found


def parts(neighbours: tuple[tuple[int, ...], ...]) -> list[Part]:
    """The parts of the module docstring, or [] when the graph is not split."""
    hub = hubs([len(a) for a in neighbours])
    if not hub:
        return []
    big = [c for c in components(set(range(len(neighbours))) - hub, neighbours) if len(c) >= PART_MIN]
    owner = {v: i for i, c in enumerate(big) for v in c}
    for h in sorted(hub):
        counts = [0] * len(big)
        for w in neighbours[h]:
            if w in owner and w not in hub:
                counts[owner[w]] += 1
        if any(counts):
            big[counts.index(max(counts))].add(h)
    kept = []
    for c in big:
        boundary = tuple((v, w) for v in sorted(c) for w in neighbours[v] if w not in c)
        if len(boundary) <= BOUNDARY_MAX:
            kept.append(Part(frozenset(c), boundary))
    loose = len(neighbours) - sum(len(p.vertices) for p in kept)
    return kept if len(kept) >= 2 and loose <= LOOSE_MAX else []


def pairings(ends: list[int]) -> Iterator[tuple[tuple[int, int], ...]]:
    """The ways the boundary vertices `ends` (one per boundary edge used) pair up as path ends: a vertex
    named twice is a path alone, (v, v); a vertex named three times or more, none."""
    twice = sorted({v for v in ends if ends.count(v) == 2})
    if any(ends.count(v) > 2 for v in ends):
        return
    once = sorted(v for v in ends if ends.count(v) == 1)  # sorted: each pairing one key (`Split.known`)

    def match(rest: list[int]) -> Iterator[list[tuple[int, int]]]:
        if not rest:
            yield []
            return
        a = rest[0]
        for i in range(1, len(rest)):
            for more in match(rest[1:i] + rest[i + 1:]):
                yield [(a, rest[i]), *more]

    for m in match(once):
        yield tuple(sorted([*m, *((v, v) for v in twice)]))


@dataclass
class Split:
    """One split run: the graph's edges, its parts, the top level, and the sub-solves made so far."""

    edges: tuple[tuple[int, int], ...]
    found: list[Part]
    # (Graph) -> its sub-solve: `advance(CPU seconds) -> Outcome` goes on from where the last one stopped
    # when `resumes` (`cegar.driver.Resumable`), else starts again; `close()` frees it
    start_part: Callable[[Any], Any]
    stats: dict[str, Any] = field(default_factory=dict)
    # (part, outside) -> (sub-solve status, the part's path edges and its pairing when sat); `tried`: the
    # CPU seconds an unknown one's search has had (a resumed one: all its instalments); `live`: the
    # unknown ones' searches kept for a later pass, least recently asked first
    known: dict[tuple[int, tuple], tuple[str, list[tuple[int, int]], tuple]] = field(default_factory=dict)
    tried: dict[tuple[int, tuple], float] = field(default_factory=dict)
    live: dict[tuple[int, tuple], Any] = field(default_factory=dict)
    part_of: dict[int, int] = field(init=False)  # a part's vertex -> the part's index
    # the edges not inside a part, in the graph's order -> their top-level variables (from 1)
    top_var: dict[tuple[int, int], int] = field(init=False)

    def __post_init__(self) -> None:
        self.part_of = {v: k for k, p in enumerate(self.found) for v in p.vertices}
        inside = self.part_of
        top = [(u, v) for u, v in self.edges if u not in inside or inside.get(v) != inside[u]]
        self.top_var = {e: i + 1 for i, e in enumerate(top)}

    def top_clauses(self) -> list[list[int]]:
        """Each top vertex on two top edges, each part on an even number (two at least, two at one vertex
        at most), over the variables of `top_var`."""
        from pysat.card import CardEnc, EncType

        var, inside = self.top_var, self.part_of
        at: dict[int, list[int]] = {}
        for (u, v), x in var.items():
            at.setdefault(u, []).append(x)
            at.setdefault(v, []).append(x)
        clauses: list[list[int]] = []
        fresh = len(var)
        for v, xs in sorted(at.items()):
            if v in inside and len(xs) <= 2:  # a part's vertex: at most two, which it has anyway
                continue
            make = CardEnc.atmost if v in inside else CardEnc.equals  # a top vertex: exactly two
            card = make(xs, 2, top_id=fresh, encoding=EncType.seqcounter)
            fresh = max(fresh, card.nv)
            clauses += card.clauses
        for p in self.found:
            xs = [var[min(e), max(e)] for e in p.boundary]
            for size in range(len(xs) + 1):
                if size % 2 == 0 and size:
                    continue
                for chosen in itertools.combinations(range(len(xs)), size):
                    clauses.append([-xs[i] if i in chosen else xs[i] for i in range(len(xs))])
        return clauses

    def interface(self, k: int, outside: tuple[tuple[int, int], ...], budget: float, left: float) -> str:
        """Whether part k holds paths that make one cycle with the paths outside it joining these pairs of
        its boundary vertices (`sat`, `unsat` or `unknown` within `budget` CPU seconds in all, of which
        at most `left` now): a Hamiltonian cycle on the part with a new vertex on each outside path. For
        a `sat` one its path edges and its own pairing (`ends_of`) are kept; cached. An unknown one's
        search kept (`live`) is resumed with what it has not had; another is started again, when it
        would get more than it had."""
        key = (k, outside)
        if key in self.known and self.known[key][0] != UNKNOWN:
            return self.known[key][0]
        had = self.tried.get(key, 0.0)
        search = self.live.pop(key, None)
        give = min(budget - had, left) if search is not None else min(budget, left)
        if give <= 0 or (search is None and give <= had):
            if search is not None:
                self.live[key] = search  # asked again: the most recent
            return UNKNOWN
        resumed = search is not None
        if search is None:
            search = self.start_part(self.part_graph(k, outside))
        else:
            self.stats["sub_resumed"] = self.stats.get("sub_resumed", 0) + 1
        t0 = cpu_time()
        outcome = search.advance(give)
        self.stats["sub_solves"] += 1
        self.stats["sub_cpu_s"] += cpu_time() - t0
        self.stats[f"sub_{outcome.status}"] = self.stats.get(f"sub_{outcome.status}", 0) + 1
        if outcome.status == SAT:
            graph = self.part_graph(k, outside)
            from . import problem

            vertices = sorted(self.found[k].vertices)
            chosen = problem(graph).edge_ids(outcome.solution)
            paths = [(vertices[u], vertices[v]) for i in chosen for u, v in [graph.edges[i]]
                     if u < len(vertices) and v < len(vertices)]
            self.known[key] = (SAT, paths, ends_of(paths, [a for pair in outside for a in pair]))
            return SAT
        self.known[key] = (outcome.status, [], ())
        if outcome.status == UNKNOWN:
            self.tried[key] = had + give if resumed else give
            self.keep(key, search)
        else:
            search.close()
        return outcome.status

    def part_graph(self, k: int, outside: tuple[tuple[int, int], ...]):
        """Part k as a graph of its own (vertices renumbered from 0 in order), with one new vertex on each
        outside path, joined to the path's two ends."""
        from harness.kinds.graph.model import Graph

        vertices = sorted(self.found[k].vertices)
        index = {v: i for i, v in enumerate(vertices)}
        sub = [(index[u], index[v]) for u, v in self.edges if u in index and v in index]
        for j, (a, b) in enumerate(outside):
            sub += [(index[a], len(vertices) + j), (index[b], len(vertices) + j)]
        return Graph(len(vertices) + len(outside), tuple(sub))

    def keep(self, key: tuple[int, tuple], search: Any) -> None:
        """An undecided sub-solve kept for a later pass, the least recently asked closed past LIVE_MAX
        (its `tried` stays: started again, it must get more than it had)."""
        if not search.resumes:
            search.close()
            return
        self.live[key] = search
        while len(self.live) > LIVE_MAX:
            oldest = next(iter(self.live))
            self.live.pop(oldest).close()

    def close(self) -> None:
        """Every kept sub-solve freed."""
        for search in self.live.values():
            search.close()
        self.live.clear()

    def outside(self, at: dict[int, list[tuple[int, int]]], combo: list, k: int
                ) -> tuple[tuple[int, int], ...]:
        """The paths outside part k, as the pairs of its boundary vertices they join: walked along the
        top edges used (`at`: each vertex's) and through the other parts by their pairings in `combo`."""
        joined, done = [], set()
        for x, w in self.found[k].boundary:
            e = (min(x, w), max(x, w))
            if e not in at.get(x, ()) or e in done:
                continue
            start = x
            while True:
                done.add(e)
                w = e[0] if e[1] == x else e[1]
                j = self.part_of.get(w)
                if j == k:
                    break
                if j is None:  # a top vertex: on by its other edge
                    x, e = w, next(f for f in at[w] if f != e)
                    continue
                y = next(b if a == w else a for a, b in combo[j] if w in (a, b))  # through part j
                x, e = y, next(f for f in at[y] if f != e)
            done.add(e)
            joined.append((min(start, w), max(start, w)))
        return tuple(sorted(joined))

    def run(self, deadline: float, report: Callable[[dict], None]) -> tuple[str, list[tuple[int, int]]]:
        """The two levels until a cycle (`sat`, its edges), none (`unsat`) or the deadline (`unknown`); the
        sub-solves kept are freed at the end."""
        try:
            return self.passes(deadline, report)
        finally:
            self.close()

    def passes(self, deadline: float, report: Callable[[dict], None]) -> tuple[str, list[tuple[int, int]]]:
        """`run`'s passes: every top model in turn, each part's sub-solves on the pass's budget."""
        from pysat.solvers import Solver

        top = list(self.top_var)
        base = self.top_clauses()
        lasting: list[list[int]] = []  # part edge sets proved impossible: blocked in every pass
        budget = SUB_BUDGET_S
        while True:
            undecided, solves = False, self.stats["sub_solves"]
            with Solver(name="cadical195", bootstrap_with=base + lasting) as solver:
                while solver.solve():
                    if time.process_time() >= deadline:
                        return UNKNOWN, []
                    self.stats["top_models"] += 1
                    report(self.stats)
                    used = [e for e, x in zip(top, solver.get_model(), strict=False) if x > 0]
                    status, answer, blocks = self.try_model(used, deadline, budget)
                    if status == SAT:
                        return SAT, answer
                    undecided |= status == UNKNOWN
                    lasting += blocks
                    for clause in blocks:
                        solver.add_clause(clause)
                    on = set(used)  # this model itself, whatever the reason it failed
                    solver.add_clause([-self.top_var[e] if e in on else self.top_var[e] for e in top])
            if not undecided:
                return UNSAT, []
            if self.stats["sub_solves"] == solves:  # every undecided one had its time already: no more
                return UNKNOWN, []
            budget *= 4
            self.stats["passes"] += 1

    def try_model(self, used: list[tuple[int, int]], deadline: float, budget: float
                  ) -> tuple[str, list[tuple[int, int]], list[list[int]]]:
        """One top model: (sat, the cycle's edges, []) when the parts hold paths that make one cycle with
        it; else (unsat: proved that none do; unknown: a sub-solve ran out of its budget, or a route
        below left it open, or PAIRINGS_MAX cut the pairings short, [], clauses blocking the part edge
        sets proved to hold no paths whatever the outside).

        Each pairing combination (`pairings` of every part) that makes one cycle is a route: the parts
        are solved in turn, each against the outside that the top edges, the earlier parts' own pairings
        (what their answers joined) and the later parts' pairings in `combo` make. The last part sees
        only answers, so its cycle closes the whole. A part with no paths against the outside of the
        combination alone refutes it: any answer's own pairings are a combination its parts hold."""
        on = set(used)
        at: dict[int, list[tuple[int, int]]] = {}
        for e in used:
            at.setdefault(e[0], []).append(e)
            at.setdefault(e[1], []).append(e)
        ends = [[v for v, w in p.boundary if (min(v, w), max(v, w)) in on] for p in self.found]
        combos = list(itertools.islice(itertools.product(*map(pairings, ends)), PAIRINGS_MAX + 1))
        status = UNKNOWN if len(combos) > PAIRINGS_MAX else UNSAT
        for combo in combos[:PAIRINGS_MAX]:
            if not one_cycle(used, combo):
                continue
            result, actual, keys = SAT, list(combo), []
            for k in range(len(self.found)):
                if (left := deadline - time.process_time()) <= 0:
                    return UNKNOWN, [], []
                keys.append((k, self.outside(at, actual, k)))
                result = self.interface(*keys[-1], budget, left)
                if result != SAT:
                    break
                actual[k] = self.known[keys[-1]][2]
            if result == SAT:
                assert one_cycle(used, actual)  # the last part's cycle went through every other's answer
                return SAT, [*used, *(e for key in keys for e in self.known[key][1])], []
            if result == UNSAT and actual[:k] != list(combo[:k]):  # against the route's answers only
                if (left := deadline - time.process_time()) <= 0:
                    return UNKNOWN, [], []
                if self.interface(k, self.outside(at, list(combo), k), budget, left) != UNSAT:
                    result = UNKNOWN  # the combination is not refuted
            if result == UNKNOWN:
                status = UNKNOWN
        blocks = [self.block(k, on) for k, e in enumerate(ends)
                  if all(self.known.get((k, o), (UNKNOWN,))[0] == UNSAT for o in matchings(e))]
        return status, [], blocks

    def block(self, k: int, on: set[tuple[int, int]]) -> list[int]:
        """The clause forbidding part k's boundary edges to be used exactly as in `on`."""
        edges = {(min(v, w), max(v, w)) for v, w in self.found[k].boundary}
        return [-self.top_var[e] if e in on else self.top_var[e] for e in sorted(edges)]


def matchings(ends: list[int]) -> set[tuple[tuple[int, int], ...]]:
    """The ways paths outside a part can join its boundary vertices `ends` (one per boundary edge used):
    perfect matchings, none joining a vertex to itself (the outside would close a cycle on it)."""
    if not ends:
        return {()}
    a, found = ends[0], set()
    for i in range(1, len(ends)):
        if ends[i] != a:
            for more in matchings(ends[1:i] + ends[i + 1:]):
                found.add(tuple(sorted([(min(a, ends[i]), max(a, ends[i])), *more])))
    return found


def ends_of(paths: list[tuple[int, int]], ports: list[int]) -> tuple[tuple[int, int], ...]:
    """The pairing a part's answer makes: its paths (`paths`, edges) joining the boundary vertices `ports`
    (each named once per outside path it ends), a vertex on no edge of `paths` a path alone (v, v)."""
    nxt: dict[int, list[int]] = {}
    for u, v in paths:
        nxt.setdefault(u, []).append(v)
        nxt.setdefault(v, []).append(u)
    pairs, seen = [], set()
    for v in sorted(set(ports)):
        if v in seen:
            continue
        seen.add(v)
        if v not in nxt:
            pairs.append((v, v))
            continue
        previous, here = v, nxt[v][0]
        while len(nxt[here]) == 2:
            previous, here = here, next(w for w in nxt[here] if w != previous)
        seen.add(here)
        pairs.append((min(v, here), max(v, here)))
    return tuple(sorted(pairs))


def one_cycle(used: list[tuple[int, int]], combo: tuple[tuple[tuple[int, int], ...], ...]) -> bool:
    """Whether the top edges and each part's paths (as edges between their ends) make one cycle."""
    parent: dict[int, int] = {}

    def find(v: int) -> int:
        parent.setdefault(v, v)
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for u, v in [*used, *(pair for pairs in combo for pair in pairs)]:
        parent[find(u)] = find(v)
    return len({find(v) for v in parent}) == 1
