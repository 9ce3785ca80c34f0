"""The eager encoding: two loops never pass for one, on graphs and on grids without required vertices."""

from __future__ import annotations

import json
import math

import pytest
from helpers import bundled

from harness import registry
from harness.encoding import Limits
from harness.instances import Instance
from harness.kinds.graph.model import Graph
from harness.proof.certify import CERTIFIED
from harness.run.execute import execute
from loopbench_encodings import loop
from loopbench_encodings.eager import crt_moduli
from loopbench_encodings.loop.cnf import loop_clause_parts, num_variables

ORDERS = ["adder", "crt"]
LIMITS = Limits(time_s=30.0)


def two_triangles() -> Graph:
    """Two disjoint triangles: every vertex has degree 2 in a model of two loops, none of one."""
    return Graph(6, ((0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5)))


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 30, 31, 211, 9528])
def test_the_moduli_cover_the_vertices_and_no_fewer_would(n):
    moduli = crt_moduli(n)
    assert math.prod(moduli) >= n
    assert len(moduli) == 1 or math.prod(moduli[:-1]) < n


@pytest.mark.parametrize("order", ORDERS)
def test_two_loops_that_meet_every_degree_are_no_answer(order):
    encoding = registry.create("eager", order=order)
    encoding.prepare()
    out = encoding.solve(two_triangles(), LIMITS, 0)
    assert out.status == "unsat", out.stats
    assert out.stats["cuts"] == 0 and out.stats["iterations"] == 1


@pytest.mark.parametrize("order", ORDERS)
def test_a_non_hamiltonian_graphs_refutation_is_certified(order, tmp_path):
    graph = two_triangles()
    row = execute(Instance("triangles", "<two triangles>", graph), "eager", {"order": order, "proof": "true"},
                  0, LIMITS, proof_dir=str(tmp_path))
    assert row["status"] == "unsat"
    assert json.loads(row["extra"])["proof"] == CERTIFIED


@pytest.mark.parametrize("order", ORDERS)
def test_the_same_seed_gives_the_same_search(order):
    encoding = registry.create("eager", order=order)
    encoding.prepare()
    graph = Graph(8, ((0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (2, 6)))
    first, again = (encoding.solve(graph, LIMITS, 5) for _ in range(2))
    assert first.status == again.status
    assert first.solution == again.solution and first.stats["conflicts"] == again.stats["conflicts"]


def test_required_vertices_get_no_degree_counters():
    """eager's arcs give a required vertex degree 2 (one arc in, one out), so `loop.cnf` leaves its
    degree clauses out, counters and all: on K7 (degree 6, counters above 4) only the edges remain."""
    complete = Graph(7, tuple((u, v) for u in range(7) for v in range(u + 1, 7)))
    problem = loop.problem(complete)
    degree, _ = loop_clause_parts(complete, problem, keep=False)
    assert sum(map(len, degree)) > 0 and num_variables(problem.arrays) > 21  # counters at every vertex
    degree, _ = loop_clause_parts(complete, problem, keep=False, free_only=True)
    assert sum(map(len, degree)) == 0 and num_variables(problem.arrays) == 21
    with pytest.raises(ValueError):
        loop_clause_parts(complete, problem, keep=True, free_only=True)


@pytest.mark.parametrize("order", ORDERS)
def test_the_variables_counted_before_the_clauses_are_the_ones_they_use(order):
    """The orientation's variables are counted before its clauses are made (`loop.arcs.arc_top`), so
    the count given to the solver is the last variable of the formula; on K9 every counter is used."""
    from loopbench_encodings.eager import clause_batches

    complete = Graph(9, tuple((u, v) for u in range(9) for v in range(u + 1, 9)))
    options = registry.create("eager", order=order).options
    batches, numbered = clause_batches(complete, loop.problem(complete), options)
    top = numbered.top
    assert max(abs(lit) for batch in batches for clause in batch for lit in clause) == top == numbered.top


@pytest.mark.parametrize("name", ["graph-knight-36-s2026-000", "graph-grid-42-s2026-000",
                                  "graph-tutte-46-s2026-000"])
def test_the_sizing_clause_changes_no_search(name):
    """`sized`'s tautology, given first, only makes CaDiCaL's tables at once: the same conflicts and the
    same model (or unsat) as the formula without it, on graphs that take hundreds of conflicts."""
    from itertools import chain

    from loopbench_encodings.cegar.solvers import new_solver
    from loopbench_encodings.eager import clause_batches, sized

    puzzle = bundled(name, "graph-smoke").puzzle
    runs = []
    for first in ([], None):
        options = registry.create("eager").options
        batches, numbered = clause_batches(puzzle, loop.problem(puzzle), options)
        solver = new_solver("cadical195", chain(first if first is not None else sized(numbered.top),
                                                chain.from_iterable(batches)))
        answer = solver.solve()
        runs.append((answer, solver.accum_stats()["conflicts"], solver.get_model() if answer else None))
        solver.delete()
    assert runs[0][1] > 100 and runs[0] == runs[1]


@pytest.mark.parametrize("n", [7, 8, 12, 50])
def test_the_product_at_most_one_allows_exactly_the_sets_of_at_most_one(n):
    """Chen's 2-product (`amo=product`): every assignment of n literals with at most one on extends to a
    model, none with two does, and one literal on turns every other off by unit propagation alone."""
    from pysat.solvers import Solver

    from loopbench_encodings.loop.arcs import product_at_most_one, product_variables

    clauses: list[list[int]] = []
    top = product_at_most_one(list(range(1, n + 1)), n, clauses)
    assert top == n + product_variables(n) and top < n + 4 * math.isqrt(n) + 4
    assert max(abs(lit) for clause in clauses for lit in clause) == top
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        assert solver.solve(assumptions=[-x for x in range(1, n + 1)])
        for x in range(1, n + 1):
            others = [y for y in range(1, n + 1) if y != x]
            assert solver.solve(assumptions=[x, *(-y for y in others)])
            ok, implied = solver.propagate(assumptions=[x])
            assert ok and all(-y in implied for y in others)
            for y in others[:5]:
                assert not solver.solve(assumptions=[x, y])


def test_the_product_orientation_keeps_every_answer_and_takes_fewer_variables():
    """`amo=product` on a graph of degree above PAIRWISE_MAX: the same Hamiltonian verdicts as the counter,
    with fewer variables; the variables counted before the clauses are the ones they use."""
    from loopbench_encodings.eager import clause_batches

    complete = Graph(12, tuple((u, v) for u in range(12) for v in range(u + 1, 12)))
    tops = {}
    for amo in ("counter", "product"):
        encoding = registry.create("eager", amo=amo)
        batches, numbered = clause_batches(complete, loop.problem(complete), encoding.options)
        assert max(abs(lit) for batch in batches for clause in batch for lit in clause) == numbered.top
        tops[amo] = numbered.top
        encoding.prepare()
        assert encoding.solve(complete, LIMITS, 0).status == "sat"
        assert encoding.solve(two_triangles(), LIMITS, 0).status == "unsat"
    assert tops["product"] < tops["counter"]



def test_glucose_finds_the_answers_and_logs_no_proof():
    """`solver=glucose42`: the same verdicts on a Hamiltonian graph and two triangles; with it a proof is
    refused at once, naming the solver that logs one."""
    encoding = registry.create("eager", solver="glucose42")
    encoding.prepare()
    complete = Graph(12, tuple((u, v) for u in range(12) for v in range(u + 1, 12)))
    solved = encoding.solve(complete, LIMITS, 0)
    assert solved.status == "sat" and solved.stats["solver"] == "glucose42"
    assert "cadical_seed" not in solved.stats
    assert encoding.solve(two_triangles(), LIMITS, 0).status == "unsat"
    refused = "proof=true needs solver=auto or solver=cadical195, not solver=glucose42"
    with pytest.raises(ValueError, match=refused):
        registry.create("eager", solver="glucose42", proof="true")


def test_auto_takes_glucose_only_where_cadicals_formula_would_fill_half_the_memory():
    """`solver=auto`: CaDiCaL while its estimated formula fits in half the memory limit, Glucose beyond,
    CaDiCaL whenever a proof is asked for; a solver named is the solver used."""
    from loopbench_encodings.eager import solver_for

    auto = registry.create("eager").options
    assert auto["solver"] == "auto"
    assert solver_for(auto, 2000.0, Limits(memory_mb=4096)) == "cadical195"
    assert solver_for(auto, 2100.0, Limits(memory_mb=4096)) == "glucose42"
    assert solver_for({**auto, "proof": "true"}, 2100.0, Limits(memory_mb=4096)) == "cadical195"
    assert solver_for({**auto, "solver": "cadical195"}, 2100.0, Limits(memory_mb=4096)) == "cadical195"
    complete = Graph(40, tuple((u, v) for u in range(40) for v in range(u + 1, 40)))
    encoding = registry.create("eager")
    encoding.prepare()
    roomy = encoding.solve(complete, LIMITS, 0)
    tight = encoding.solve(complete, Limits(time_s=30.0, memory_mb=1), 0)  # K40's formula: about 2 MB
    assert roomy.stats["solver"] == "cadical195" and tight.stats["solver"] == "glucose42"
    assert roomy.status == tight.status == "sat" and tight.stats["cadical_mb_estimate"] > 0.5


@pytest.mark.parametrize("order", ORDERS)
def test_the_clause_estimate_is_within_a_tenth_on_a_dense_graph(order):
    from loopbench_encodings.eager import clause_batches, estimated_clauses

    complete = Graph(60, tuple((u, v) for u in range(60) for v in range(u + 1, 60)))
    problem = loop.problem(complete)
    batches, _ = clause_batches(complete, problem, registry.create("eager", order=order).options)
    made = sum(map(len, batches))
    assert abs(estimated_clauses(problem.arrays, order) - made) < made / 10
