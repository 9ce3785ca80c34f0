"""An eager SAT encoding of "one loop": the whole constraint in CNF up front, one solve, no cuts.

Model: `loop.cnf`'s clauses (one Boolean per edge, degree 0 or 2, required vertices, `hits`
groups, the kind's rules and implied clauses), then an orientation and an order that no set of
two or more loops can satisfy. The orientation is `loop.arcs`'s (two arcs an edge, the edge on
iff one is, at most one arc out of and into each vertex, exactly one at a required vertex), so
the loop's two edges at a vertex point one in, one out (`amo=product`: its "at most one" above degree
6 by the 2-product encoding, about 2 sqrt(d) variables where the counter takes d - 1). At a required
vertex that already says degree 2, so the degree clauses are made at the other vertices only
(`free_only`: an FHCP graph's counters, two variables an edge end, are gone). One vertex is the
root: the first required vertex, or where the problem requires none, one chosen by a root variable
per vertex (exactly one root, on the loop). Every arc u->v into a vertex other than the root forces
v's position to follow u's:
- `order=adder` (default): positions are B-bit numbers (2^B >= vertices), the root's is 0 and
  an arc asks pos(v) = pos(u) + 1, which may not overflow: positions rise strictly along the loop
  away from the root, so a loop without the root cannot close. Per vertex u, pos(u) + 1 is made
  once by a ripple-carry incrementer (B-1 carries, B-1 sum bits, 7 clauses a bit); per arc u->v only
  "arc implies pos(v) = succ(u)" (2 clauses a bit) and "arc implies no carry out" (1): 2B+1 clauses
  an arc, where an incrementer per arc took 4B-1. The binary-adder ("position") encoding of
  N.-F. Zhou, "In Pursuit of an Efficient SAT Encoding for the Hamiltonian Cycle Problem", CP 2020,
  the `soh_existing:adder` column of the FHCP published times.
- `order=crt`: a position modulo each of a few pairwise coprime moduli (one-hot per modulus),
  the root's 0, an arc asks each residue to step by one: a clause per value of each modulus (the
  tail's residue plus one is its own one-hot variables shifted round, nothing to make per vertex),
  the sum of the moduli an arc. A loop without the root would need a
  length that every modulus divides; the moduli's product is at least the vertex count, so none
  fits: M. J. H. Heule, "Chinese Remainder Encoding for Hamiltonian Cycles", SAT 2021 (there with
  a fixed product, 420; here the smallest primes whose product covers the graph, so the encoding
  is complete on every graph).
The solver reads the large parts a batch at a time as they are made, after a tautology naming the
last variable (`sized`: CaDiCaL makes its tables once, not by doubling). No clause is added after the
solve begins, so `proof=true` logs a DRAT refutation of the formula as given (every clause base, none
a cut). The solver is CaDiCaL 1.9.5, or Glucose 4.2 (`solver=glucose42`: no proof, no seed, and
about 40 bytes a clause where CaDiCaL takes 100); `solver=auto` (default) takes Glucose only where
CaDiCaL's formula would fill half the run's memory limit (`solver_for`). Search: edges tried off
first, CaDiCaL's seed the run's seed, `conf_budget` chunks of fixed sizes (CHUNK_CONFLICTS doubling to
CHUNK_MAX), the CPU clock read only between them, so the search never depends on the machine's speed.
`exclude`d answers are forbidden as edge sets (`loop.cuts.exclusion`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any

from harness.encoding import SAT, UNKNOWN, UNSAT, Encoding, Limits, Outcome, cpu_time
from harness.options import Option
from harness.prooflog import PROOF_SOLVERS, Recorder

from . import loop
from ._options import GRAPH, implied
from .loop.arcs import AMO, PAIRWISE_MAX, arc_batches, arc_top
from .loop.cnf import BATCH, loop_clause_parts, num_variables
from .loop.cuts import exclusion

ORDERS = ("adder", "crt")
SOLVERS = ("auto", "cadical195", "glucose42")
# CaDiCaL's memory for the formula, measured on FHCP graphs (results/fhcp/README.md): about 100 bytes a
# clause and 182 a variable; the orientation takes about 8 clauses an arc beside the order's steps
CADICAL_CLAUSE_BYTES = 100
CADICAL_VARIABLE_BYTES = 182
ORIENTATION_PER_ARC = 8
CHUNK_CONFLICTS = 10_000  # the first chunk's conflict budget; each next chunk doubles it, up to CHUNK_MAX
CHUNK_MAX = 160_000  # so the clock is read every few seconds at most
Clauses = list[list[int]]
PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)


def position_bits(n: int) -> int:
    """The adder's B: bits enough for positions 0..n-1 (at least one)."""
    return max(1, (n - 1).bit_length())


def crt_moduli(n: int) -> tuple[int, ...]:
    """The smallest primes whose product is at least `n` (at least one)."""
    out, product = [], 1
    for p in PRIMES:
        out.append(p)
        product *= p
        if product >= n:
            return tuple(out)
    raise ValueError(f"{n} vertices need more moduli than {PRIMES}")


def counted(batches: Iterator[Clauses], sizes: list[int]) -> Iterator[Clauses]:
    """The batches as they come, each one's length appended to `sizes`."""
    for batch in batches:
        sizes.append(len(batch))
        yield batch


class Builder:
    """Variables past the loop CNF's, handed out in order, and the clauses that use them."""

    def __init__(self, top: int) -> None:
        self.top = top
        self.clauses: list[list[int]] = []

    def new(self, count: int = 1) -> list[int]:
        first = self.top + 1
        self.top += count
        return list(range(first, first + count))

    def at_most_one(self, lits: list[int]) -> None:
        """Pairwise up to PAIRWISE_MAX literals, a sequential counter above (linear in their number)."""
        if len(lits) <= PAIRWISE_MAX:
            self.clauses += [[-a, -b] for k, a in enumerate(lits) for b in lits[k + 1:]]
            return
        from pysat.card import CardEnc, EncType

        most = CardEnc.atmost(lits, bound=1, top_id=self.top, encoding=EncType.seqcounter)
        self.clauses += most.clauses
        self.top = max(self.top, most.nv)


Arc = tuple[int, int, int]  # tail, head, variable


def orientation(arrays: Any, b: Builder, amo: str) -> tuple[Iterator[Clauses], Iterator[Arc]]:
    """The arc model of `loop.arcs` (two arcs an edge, at most one arc out of and into each vertex), its
    variables from `b.top` on (after the call `b.top` is its last: no variable may be handed out after
    it): its clauses as batches and its arcs as (tail, head, variable), both made when read."""
    first = b.top
    b.top = arc_top(arrays, first, amo)
    arcs = (arc for i, (u, v) in enumerate(arrays.ends)
            for arc in ((u, v, first + 2 * i + 1), (v, u, first + 2 * i + 2)))
    return arc_batches(arrays, first, amo=amo), arcs


def sized(top: int) -> Clauses:
    """A clause naming the formula's last variable, given first, so that CaDiCaL makes its tables for
    every variable at once rather than doubling them as variables come (182 bytes a variable, not about
    300: 270 MB less on graph188). A tautology: CaDiCaL drops it, the search is the same."""
    return [[top, -top]]


def rooting(arrays: Any, b: Builder) -> tuple[int | None, list[int]]:
    """The root: (the first required vertex, []) or (None, a root variable per vertex, exactly one true,
    its vertex on the loop)."""
    if arrays.required:
        return arrays.required[0], []
    roots = b.new(arrays.num_vertices)
    b.clauses.append(list(roots))
    b.at_most_one(roots)
    b.clauses += [[-r, *arrays.incident_vars[v]] for v, r in enumerate(roots)]
    return None, roots


def guard(arc: int, head: int, root: int | None, roots: list[int]) -> list[int] | None:
    """The literals that switch a step constraint off: the arc unused, or its head the root (None: the
    head is the root, no constraint)."""
    if root is not None:
        return None if head == root else [-arc]
    return [-arc, roots[head]]


Step = Callable[[int, int, list[int]], Clauses]


def step_batches(arcs: Iterable[tuple[int, int, int]], root: int | None, roots: list[int],
                 step: Step) -> Iterator[Clauses]:
    """`step(tail, head, guard)`'s clauses for every arc `guard` keeps, a batch of about BATCH at a time
    (made as the solver reads them, never all held at once)."""
    out: Clauses = []
    for u, v, arc in arcs:
        g = guard(arc, v, root, roots)
        if g is None:
            continue
        out += step(u, v, g)
        if len(out) >= BATCH:
            yield out
            out = []
    yield out


def adder(arrays: Any, b: Builder, root: int | None, roots: list[int]) -> Step:
    """pos(head) = pos(tail) + 1 on every arc into a vertex other than the root, never overflowing.

    Per vertex (clauses to `b`): its position, and its successor pos + 1 through a ripple-carry
    incrementer. Per arc (`step`, by far the most): the head's position bit by bit equal to the tail's
    successor, 2 clauses a bit, and no overflow, 1 clause."""
    n = arrays.num_vertices
    width = position_bits(n)
    pos = [b.new(width) for _ in range(n)]
    # carry[v][k]: bits 0..k-1 of pos(v) are all 1 (the carry into bit k of pos(v) + 1); carry[v][0] unused.
    # succ[v][k]: bit k of pos(v) + 1 = pos_k xor carry_k (k >= 1; bit 0 is not pos_0, no variable)
    carry: list[list[int]] = []
    succ: list[list[int]] = []
    for v in range(n):
        p = pos[v]
        carries, bits = [0, p[0]], [0]
        for k in range(1, width + 1):
            if k >= 2:
                (c,) = b.new()
                prev = carries[k - 1]
                b.clauses += [[-c, prev], [-c, p[k - 1]], [c, -prev, -p[k - 1]]]
                carries.append(c)
            if k < width:
                (s,) = b.new()
                c = carries[k]
                b.clauses += [[-s, p[k], c], [-s, -p[k], -c], [s, -p[k], c], [s, p[k], -c]]
                bits.append(s)
        carry.append(carries)
        succ.append(bits)
    if root is not None:
        b.clauses += [[-x] for x in pos[root]]
    else:
        b.clauses += [[-r, -x] for v, r in enumerate(roots) for x in pos[v]]

    def step(u: int, v: int, g: list[int]) -> Clauses:
        p, q, s = pos[u], pos[v], succ[u]
        out = [[*g, q[0], p[0]], [*g, -q[0], -p[0]]]  # bit 0 flips
        for k in range(1, width):
            out += [[*g, -q[k], s[k]], [*g, q[k], -s[k]]]
        # no overflow: the models would be the same without it (a loop without the root is shorter than
        # 2^B, so it cannot wrap round), but then CDCL must find that a length is no multiple of 2^B:
        # graph-gp-2000 (graph-hard) went from 537 conflicts to none found in 20 s
        out.append([*g, -carry[u][width]])
        return out

    return step


def crt(arrays: Any, b: Builder, root: int | None, roots: list[int]) -> Step:
    """Each residue of pos(head) is the tail's plus one, on every arc into a vertex other than the root.

    Per vertex (clauses to `b`): its residues, one-hot. Per arc (`step`): each value of each residue
    followed by the next, one clause a value. Nothing per arc is shared per vertex here: the tail's
    residue plus one is its own one-hot variables shifted round, no new variable."""
    n = arrays.num_vertices
    moduli = crt_moduli(n)
    residue = [[b.new(m) for m in moduli] for _ in range(n)]  # residue[v][j][k]: pos(v) = k mod moduli[j]
    for v in range(n):
        for values in residue[v]:
            b.clauses.append(list(values))
            b.at_most_one(values)
        if root == v:
            b.clauses += [[values[0]] for values in residue[v]]
        elif root is None:
            b.clauses += [[-roots[v], values[0]] for values in residue[v]]

    def step(u: int, v: int, g: list[int]) -> Clauses:
        return [[*g, -residue[u][j][k], residue[v][j][(k + 1) % m]]
                for j, m in enumerate(moduli) for k in range(m)]

    return step


def clause_batches(puzzle: Any, problem: Any, options: dict[str, Any]) -> tuple[Iterator[Clauses], Builder]:
    """Every clause of the module docstring for this puzzle (exclusions apart) as batches, in order, and
    the builder whose `top` is their last variable. The large parts are made a
    batch at a time as they are read, so a dense graph's tens of millions are never all held at once:
    the orientation first, then `loop.cnf`'s degree clauses, the rest, and the order's steps."""
    arrays = problem.arrays
    degree, clauses = loop_clause_parts(puzzle, problem, implied=options["implied"] == "true", keep=False,
                                        free_only=True)
    b = Builder(num_variables(arrays))
    root, roots = rooting(arrays, b)
    step = (adder if options["order"] == "adder" else crt)(arrays, b, root, roots)
    clauses += b.clauses
    b.clauses = []
    # the orientation numbers its variables last (its counters' count is known before it is made)
    oriented, arcs = orientation(arrays, b, options["amo"])
    return chain(oriented, degree, [clauses], step_batches(arcs, root, roots, step)), b


def estimated_clauses(arrays: Any, order: str) -> int:
    """About how many clauses the formula has, before any is made: per arc, its steps (2B+1 for the
    adder, the moduli's sum for the residues) and ORIENTATION_PER_ARC."""
    n = arrays.num_vertices
    step = 2 * position_bits(n) + 1 if order == "adder" else sum(crt_moduli(n))
    return 2 * arrays.num_edges * (step + ORIENTATION_PER_ARC)


def cadical_mb(arrays: Any, top: int, order: str) -> float:
    """An estimate of the MB CaDiCaL takes to hold this formula, `top` its last variable."""
    return (estimated_clauses(arrays, order) * CADICAL_CLAUSE_BYTES + top * CADICAL_VARIABLE_BYTES) / 2**20


def solver_for(options: dict[str, Any], estimate_mb: float, limits: Limits) -> str:
    """`solver=auto`: CaDiCaL (it logs proofs, and is faster where both answer: Glucose took 1.61x its CPU
    time on the 42 fhcp-sample graphs both solved at 60 s, though it solved 46 to CaDiCaL's 43, and it
    finished 18 of graph-hard's 36 at 20 s to CaDiCaL's 20), unless CaDiCaL's formula alone would take
    more than half the run's memory, where Glucose holds a clause in about 40 bytes (graph188: 1.6 GB,
    not 2.5); CaDiCaL whenever a proof is asked for."""
    if options["solver"] != "auto":
        return options["solver"]
    if options["proof"] == "true" or estimate_mb <= limits.memory_mb / 2:
        return "cadical195"
    return "glucose42"


class Eager(Encoding):
    name = "eager"
    puzzles = loop.kinds()
    excludes = True
    declared = (
        Option("order", "adder", "the order's encoding: adder (binary counters) or crt", ORDERS),
        # a grid's vertices have at most four edges: no vertex there has more arcs than PAIRWISE_MAX
        Option("amo", "counter", "how at most one arc in and out is said above PAIRWISE_MAX arcs: counter "
               "or product", AMO, GRAPH),
        Option("implied", "true", "the kind's implied clauses (`cnf_implied`, `implied_clauses`)",
               ("false", "true"), implied("cnf_implied")),
        # auto proves with CaDiCaL
        Option("proof", "false", "log a DRAT proof, checked by harness.proof", ("false", "true"),
               requires={"true": {"solver": ("auto", *PROOF_SOLVERS)}}),
        Option("solver", "auto", "auto: CaDiCaL, Glucose where CaDiCaL's formula would take more than half "
               "the memory (`solver_for`)", SOLVERS),
    )
    imports = ("pysat.solvers",)

    @staticmethod
    def proof_clauses(puzzle: Any, options: dict[str, Any]) -> list[list[int]]:
        """What a run with `options` gives its solver before the solve, exclusions apart: the clauses a
        proof checker makes again (`harness.proof.base`)."""
        return [*chain.from_iterable(clause_batches(puzzle, loop.problem(puzzle), options)[0])]

    def solve(self, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        from .cegar.solvers import edge_names, new_solver

        start = cpu_time()
        deadline = limits.deadline()
        problem = loop.problem(puzzle)
        if refused := loop.refuse(problem, start):
            return refused
        arrays = problem.arrays
        batches, numbered = clause_batches(puzzle, problem, self.options)
        excluded = [exclusion(problem, solution) for solution in exclude]
        recorder = None
        sizes: list[int] = []  # the clauses given, counted as their batches go by
        given: Iterable[list[int]] = chain.from_iterable(counted(chain(batches, [excluded]), sizes))
        if self.options["proof"] == "true":  # the recorder keeps every clause
            given = [*given]
            recorder = Recorder(edge_names(problem))
            recorder.add(given, marked=excluded)
        estimate = cadical_mb(arrays, numbered.top, self.options["order"])
        name = solver_for(self.options, estimate, limits)
        cadical = name == "cadical195"
        if recorder is None and cadical:
            given = chain(sized(numbered.top), given)
        stats: dict[str, Any] = {"solver": name, "variables": 0, "clauses": 0, "iterations": 1, "cuts": 0,
                                 "chunks": 0, "cadical_mb_estimate": round(estimate, 1)}
        if cadical:  # Glucose takes no seed: its search is the same whatever the run's seed
            stats["cadical_seed"] = seed
        solver = new_solver(name, given, {"seed": seed} if seed and cadical else None, recorder is not None)
        stats["clauses"], stats["variables"] = sum(sizes), numbered.top
        del given, batches
        try:
            solver.set_phases(list(range(-1, -arrays.num_edges - 1, -1)))
            stats["build_s"] = cpu_time() - start
            answer, budget, t0 = None, CHUNK_CONFLICTS, cpu_time()
            while answer is None and time.process_time() < deadline:
                solver.conf_budget(budget)
                answer = solver.solve_limited()
                stats["chunks"] += 1
                budget = min(2 * budget, CHUNK_MAX)
            stats["solver_cpu_s"] = cpu_time() - t0
            stats["conflicts"] = solver.accum_stats()["conflicts"]
            if answer is None:
                stats["reason"] = f"time limit {limits.time_s:g} s reached"
                return Outcome(UNKNOWN, stats=stats)
            if answer is False:
                if recorder is not None:
                    stats["proof"] = recorder.proof(solver)
                return Outcome(UNSAT, stats=stats)
            return Outcome(SAT, problem.solution(arrays.chosen(solver.get_model())), stats)
        finally:
            solver.delete()
