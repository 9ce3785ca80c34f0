"""The loop problem as CNF over one Boolean per edge, shared by the PySAT strategies.

Variable i + 1 is true when the loop uses edge i of the graph (the numbering of `loop.graph`);
vertices of degree above DIRECT_MAX add auxiliary variables after the edges. The clauses say
everything but "one loop": every vertex has degree 0 or 2 (no edge alone: `[-e] + others` per
edge up to degree DIRECT_MAX, prefix and suffix ORs above it; no three edges: direct clauses up to
degree DIRECT_MAX, as on a grid, and a sequential counter from `pysat.card` above it; both linear
in the degree),
every required vertex lies on the loop, every `hits` group has an edge on it, and a problem with
neither asks for some edge, so the empty drawing is no answer; then the kind's local rules
(`rules.<kind>.cnf`, given the `LoopArrays`: `var` names an edge by its two cells, and the edge
numbering is plain index arithmetic). The degree clauses depend on the graph alone: with `keep`
they are kept in its `cache` (a grid's is shared by every puzzle of its shape in a process, a head
start no CP-SAT or clingo strategy gets, so `sat` keeps them only when asked: `cache=degree`);
never change a kept list. Otherwise `loop_clause_parts` makes them as a solver reads them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from loopbench_encodings import loop, rules
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.arrays import Clause, LoopArrays

DIRECT_MAX = 4  # up to this degree "no three edges" is a clause per triple (a grid's 4 at most)
BATCH = 1 << 16  # degree clauses made at a time when they go straight to a solver (`loop_clause_parts`)


def degree_clauses(arrays: LoopArrays, keep: bool = True) -> list[Clause]:
    """Degree 0 or 2 at every vertex: no edge alone (`[-e] + others`), and no three edges together.

    Made once per puzzle, or with `keep` once per graph (per shape, for a grid) and shared: the
    caller must not change it.
    """
    cache = arrays.cache if keep else arrays.own
    if "degree" not in cache:
        cache["degree"], cache["variables"] = _degree_clauses(arrays.incident_vars, arrays.num_edges)
    arrays.own["variables"] = cache["variables"]
    return cache["degree"]  # type: ignore[return-value]


def num_variables(arrays: LoopArrays) -> int:
    """The variables of the degree clauses (the edges, then the counters' auxiliaries), once made."""
    return arrays.own["variables"]  # type: ignore[return-value]


def _degree_clauses(incident_vars, num_edges: int) -> tuple[list[Clause], int]:
    out: list[Clause] = []
    for batch in _degree_batches(incident_vars, num_edges, batch=0):
        out += batch
    return out, _degree_top(incident_vars, num_edges)


def _degree_top(incident_vars, num_edges: int) -> int:
    """The last variable of the degree clauses: the edges, then `_zero_or_two`'s 2d - 2 at each vertex."""
    return num_edges + sum(2 * len(here) - 2 for here in incident_vars if len(here) > DIRECT_MAX)


def _degree_batches(incident_vars, num_edges: int, batch: int = BATCH):
    """The degree clauses in vertex order, as lists of about `batch` clauses (0: one list of them all),
    each made when the one before has been read: a dense graph's millions are never all held at once."""
    out: list[Clause] = []
    add = out.extend
    top = num_edges
    for here in incident_vars:  # the variables, not the edges: an expression per vertex cost a third
        degree = len(here)
        if degree == 4:
            a, b, c, d = here
            add(([-a, b, c, d], [-b, a, c, d], [-c, a, b, d], [-d, a, b, c],
                 [-a, -b, -c], [-a, -b, -d], [-a, -c, -d], [-b, -c, -d]))
        elif degree == 3:
            a, b, c = here
            add(([-a, b, c], [-b, a, c], [-c, a, b], [-a, -b, -c]))
        elif degree == 2:
            a, b = here
            add(([-a, b], [-b, a]))
        elif degree == 1:
            out.append([-here[0]])
        elif here:
            top = _zero_or_two(here, top, add)
        if batch and len(out) >= batch:
            yield out
            out = []
            add = out.extend
    yield out


def _zero_or_two(lits: tuple[int, ...], top: int, add) -> int:
    """Degree 0 or 2 at a vertex of degree d > DIRECT_MAX in about 7d clauses and 2d variables (not d
    clauses of d literals for "no edge alone": gigabytes on FHCP's vertices of degree 1,000).

    Registers over the prefixes, both ways: a_i "one of x_1..x_i is on", b_i "two are". Upwards
    (x_i -> a_i, a_(i-1) -> a_i, x_i & a_(i-1) -> b_i, b_(i-1) -> b_i) they are a sequential counter,
    with "no three" as -(x_i & b_(i-1)); downwards (a_i -> x_i | a_(i-1), b_i -> x_i | b_(i-1),
    b_i -> a_(i-1) | b_(i-1)) they are exact, so "no edge alone" is a_d -> b_d; unit propagation
    still turns an edge off when every other one is off. Returns the last variable used.
    """
    d = len(lits)
    a = [lits[0], *range(top + 1, top + d)]  # a[i] for x_1..x_(i+1); a[0] is x_1 itself
    b = [0, *range(top + d, top + 2 * d - 1)]  # b[i] for x_1..x_(i+1); b[0] (never two) unused
    # each negation made once: a fresh int per literal cost a third of the clauses' memory
    na, nb, nx = [-v for v in a], [-v for v in b], [-v for v in lits]
    clauses = [[na[-1], b[-1]], [nb[1], lits[1]], [nb[1], lits[0]], [nx[1], nx[0], b[1]]]
    for i in range(1, d):
        x, up, was = lits[i], a[i], a[i - 1]
        clauses += ([nx[i], up], [na[i - 1], up], [na[i], x, was])
        if i > 1:
            two, had = b[i], b[i - 1]
            clauses += ([nx[i], na[i - 1], two], [nb[i - 1], two], [nb[i], x, had], [nb[i], was, had],
                        [nx[i], nb[i - 1]])
    add(clauses)
    return top + 2 * d - 2


def loop_clauses(puzzle: Any, problem: LoopProblem, implied: bool = False, keep: bool = True) -> list[Clause]:
    """Every clause of the module docstring, the kind's local rules last; `implied`: then the
    clauses its rules module gives as implied by them (`cnf_implied` and `implied_clauses`, where
    it has them); `keep`: the degree clauses kept with the graph (`degree_clauses`).

    The clauses for the required vertices and the `hits` groups are left out when the rules module
    says its own clauses already contain a subset of each (`cnf_covers_demands(puzzle)`: a
    Slitherlink clue's direct encoding does), since a subsumed clause only costs its making and adding.
    """
    degree, rest = loop_clause_parts(puzzle, problem, implied, keep)
    out: list[Clause] = []  # a copy: a kept list stays as it is
    for batch in degree:
        out += batch
    out += rest
    return out


def loop_clause_parts(puzzle: Any, problem: LoopProblem, implied: bool = False, keep: bool = True,
                      free_only: bool = False) -> tuple[Iterator[list[Clause]], list[Clause]]:
    """`loop_clauses` in two parts, in its order: the degree clauses as batches (lists), each made as
    the one before is read unless `keep` (then the kept list, never to be changed), and the rest,
    made now, so `num_variables` is known at once. A solver fed the batches one by one never holds
    a dense graph's millions of degree clauses as Python lists.

    `free_only` (not with `keep`): degree clauses at the vertices not required only, their counters
    numbered after the edges without gaps, for a caller whose own clauses already give every
    required vertex degree 2 (`eager`'s arcs: exactly one in and one out).
    """
    arrays = problem.arrays
    if keep:
        if free_only:
            raise ValueError("free_only degree clauses are made per puzzle, never kept")
        degree: Iterator[list[Clause]] = iter([degree_clauses(arrays, keep)])
    else:
        incident = arrays.incident_vars
        if free_only:
            required = arrays.is_required
            incident = [() if required[v] else here for v, here in enumerate(incident)]
        arrays.own["variables"] = _degree_top(incident, arrays.num_edges)
        degree = _degree_batches(incident, arrays.num_edges)
    out: list[Clause] = []
    module = rules.of(puzzle.kind)
    covered = getattr(module, "cnf_covers_demands", None)
    if covered is None or not covered(puzzle):
        # `dead_end` refuses a required vertex without edges, so none of these is empty
        out += [list(arrays.incident_vars[v]) for v in arrays.required]
        out += [[i + 1 for i in group] for group in arrays.hits]
    if not arrays.required and not arrays.hits:
        out.append(list(range(1, arrays.num_edges + 1)))
    out += module.cnf(puzzle, arrays)
    if implied:
        if hasattr(module, "cnf_implied"):
            out += module.cnf_implied(puzzle, arrays)
        out += loop.implied_clauses(puzzle)
    return degree, out
