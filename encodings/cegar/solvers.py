"""PySAT solvers for the loop search: made with their clauses and phases, and asked about one loop alone."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from itertools import repeat

ALONE_BUDGET = 1000  # conflicts for a complete loop tried alone: every edge is assumed, so it propagates


def new_solver(name: str, clauses: Iterable[list[int]], cadical_options: dict[str, int] | None = None,
               with_proof: bool = False):
    """A PySAT solver `name` holding these clauses (any iterable, read once), as `Solver(name,
    bootstrap_with=clauses)` makes it.

    For CaDiCaL 1.9.5 the clauses go straight to the C function PySAT's own `add_clause` calls, without
    PySAT's loop around it (a type check and two method calls per clause; what it cost:
    results/performance/README.md). That function always answers True, so PySAT's `status`, which
    `add_clause` sets only on False, stays right; `cadical_options` are set first (CaDiCaL takes them only
    before any clause). Other solvers are bootstrapped by PySAT (some set options after the bootstrap).
    `with_proof`: CaDiCaL traces DRAT from its start, so clauses added by that C function are in the proof
    as with PySAT's `add_clause`.
    """
    from pysat.solvers import Solver

    if name != "cadical195":
        return Solver(name=name, bootstrap_with=clauses, with_proof=with_proof)
    from pysolvers import cadical195_add_cl as add

    solver = Solver(name=name, with_proof=with_proof)
    if cadical_options:
        solver.solver.configure(cadical_options)
    # map() rather than a loop: the Python around each call is a tenth of the hand-over
    deque(map(add, repeat(solver.solver.cadical), clauses), maxlen=0)
    return solver


def start_solver(options: dict, clauses: Iterable[list[int]], num_edges: int, logging: bool, stats: dict,
                 cadical_options: dict[str, int], faces: range = range(0)):
    """A solver of `options["solver"]` holding `clauses` (`new_solver`), its edges tried off first unless
    `phase=solver`, and so its `faces` (variables) outside: the empty drawing, which agrees with edges
    off (CaDiCaL's own phase, inside, puts the rim's edges on at once)."""
    solver = new_solver(options["solver"], clauses, cadical_options, logging)
    if options["phase"] == "false":
        try:
            solver.set_phases([*range(-1, -num_edges - 1, -1), *(-f for f in faces)])
        except NotImplementedError:  # cadical103
            stats["phase"] = "solver"
    return solver


def model_alone(solver, num_edges: int, whole: list[list[int]]) -> list[int] | None:
    """The first of these complete loops (each its edges) that is a model by itself, or None.

    Each is tried by a solve assuming its edges on and every other edge off, so propagation decides
    it; the learnt clauses such a solve leaves follow from the clauses alone, as every learnt clause does.
    """
    for edges in whole:
        assumptions = list(range(-1, -num_edges - 1, -1))
        for i in edges:
            assumptions[i] = i + 1
        solver.conf_budget(ALONE_BUDGET)
        if solver.solve_limited(assumptions=assumptions):
            return sorted(edges)
    return None


def edge_names(problem) -> list[tuple[int, int]]:
    """Each edge variable's ends as the kind numbers its vertices (a grid: row-major index from 0; a
    graph: its 1-based vertex numbers): what a proof's `c edge` lines say, and `harness.proof.cuts` reads."""
    number = problem.graph.number
    return [(number(u), number(v)) for u, v in problem.arrays.ends]
