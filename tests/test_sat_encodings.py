"""The PySAT encodings `sat` and `propagator`: real instances, solver choice, limits, and loop counts.

The counts enumerate every answer the CNF plus the loop cuts admit (blocking each answer found)
and compare them with brute force judged by the independent checker, so a wrong clause or an
unsound cut shows up as a wrong number.
"""

from __future__ import annotations

import itertools

import networkx as nx
import pytest
from helpers import bundled
from pysat.formula import IDPool
from pysat.solvers import Solver

from harness import kinds, registry
from harness.encoding import Limits
from harness.grid import Grid, edge, solution_string
from harness.instances import Instance
from harness.kinds import read_text
from harness.kinds.masyu.model import Masyu, Pearl
from harness.run.execute import execute
from loopbench_encodings import loop
from loopbench_encodings.loop.cnf import chosen_edges, cut_clause, edge_var, loop_clauses
from loopbench_encodings.loop.cuts import find_cuts
from loopbench_encodings.propagator import _loop_watch
from loopbench_encodings.sat import OutOfTime

# Bundled janko-java puzzles (6x6 to 16x16, 10x18), each with its known solution.
FILES = ["janko001", "janko080", "janko002", "janko009", "janko012", "janko033", "janko017"]
VARIANTS = [
    ("sat", {}),
    ("sat", {"cuts": "cutset"}),
    ("sat", {"solver": "glucose4"}),
    ("propagator", {}),
    ("propagator", {"cuts": "cutset"}),
    ("propagator", {"eager": "all"}),
]
LIMITS = Limits(time_s=30.0)


def instance(name: str) -> Instance:
    return bundled(name)


def puzzle(text: str) -> Instance:
    return Instance(name="tiny", source="<tiny>", puzzle=read_text(text))


@pytest.mark.parametrize("name", FILES)
def test_instances_are_solved_and_verified_alike(name):
    rows = [execute(instance(name), enc, opts, 0, LIMITS) for enc, opts in VARIANTS]
    for (enc, opts), row in zip(VARIANTS, rows, strict=True):
        assert (row["status"], row["verified"]) == ("solved", 1), (enc, opts, row["detail"])
        assert row["matches_known"] == 1 and row["solution"] == instance(name).known_solution, (enc, opts)
    assert all(row["iterations"] == 1 for row in rows[3:])  # the propagator cut every loop


def test_edges_are_tried_off_first():
    # CaDiCaL's own phase (on) fills this sparse 10x10's empty rows with small loops, cut one
    # per round for over 20 000 rounds; trying edges off first needs one round.
    row = execute(instance("janko803"), "sat", {}, 0, LIMITS)
    assert (row["status"], row["verified"]) == ("solved", 1) and row["iterations"] <= 5


def test_the_propagator_clock_stops_a_solve_in_progress():
    puz = instance(FILES[1]).puzzle
    pool, problem = IDPool(), loop.problem(puz)
    with Solver(name="cadical195", bootstrap_with=loop_clauses(puz, problem, pool)) as solver:
        watch = _loop_watch(problem, pool, "loop", deadline=0.0)
        solver.connect_propagator(watch)
        for var in watch.ends:
            solver.observe(var)
        with pytest.raises(OutOfTime):
            solver.solve()


def test_a_seed_shuffles_the_clauses_and_still_solves():
    row = execute(instance(FILES[1]), "sat", {}, 7, LIMITS)
    assert (row["status"], row["verified"]) == ("solved", 1)


@pytest.mark.parametrize("enc, solver, says", [
    ("sat", "kissat404", "not incremental"),
    ("sat", "ks", "cannot use kissat404"),  # aliases resolve to the solver they name
    ("sat", "lingeling", "no solve_limited"),
    ("propagator", "glucose4", "external propagators"),
    ("sat", "nosuchsat", "unknown PySAT solver"),
])
def test_unusable_solvers_are_clear_errors_before_any_solver_exists(enc, solver, says):
    row = execute(instance(FILES[0]), enc, {"solver": solver}, 0, LIMITS)
    assert row["status"] == "error" and says in row["detail"]


@pytest.mark.parametrize("enc", ["sat", "propagator"])
def test_every_pysat_solver_is_known_by_its_own_name(enc):
    from pysat.solvers import SolverNames

    for name in (n for n in vars(SolverNames) if not n.startswith("_")):
        try:
            chosen = registry.create(enc, solver=name).options["solver"]
        except ValueError as exc:  # refused for a reason (not incremental, no propagators), never "unknown"
            assert "unknown PySAT solver" not in str(exc), str(exc)
        else:
            assert chosen == name


@pytest.mark.parametrize("enc, option", [("sat", "cuts"), ("sat", "phase"), ("propagator", "eager")])
def test_unknown_option_values_are_errors(enc, option):
    row = execute(instance(FILES[0]), enc, {option: "star"}, 0, LIMITS)
    assert row["status"] == "error" and "'star'" in row["detail"]


@pytest.mark.parametrize("enc, opts", [("sat", {}), ("propagator", {}), ("propagator", {"eager": "all"})])
def test_unsat_by_local_rules_and_by_the_loop_alone(enc, opts):
    black_in_2x2 = execute(puzzle("2 2\nb -\n- -\n"), enc, opts, 0, LIMITS)
    assert black_in_2x2["status"] == "unsat"
    # Three whites in the middle row force columns 0-1 into a closed loop that misses (1,3):
    # every cell's local rule can be met, so only the loop cuts find the contradiction.
    two_loops = puzzle("3 4\n- - - -\nw w - w\n- - - -\n")
    row = execute(two_loops, enc, opts, 0, LIMITS)
    assert row["status"] == "unsat" and row["cuts"] >= 1
    assert brute_force(two_loops.puzzle) == set()


@pytest.mark.parametrize("enc", ["sat", "propagator"])
def test_a_tiny_time_limit_gives_unknown(enc):
    row = execute(instance("janko760"), enc, {}, 0, Limits(time_s=0.001))
    assert row["status"] == "unknown" and "time limit" in row["detail"]


# --- counting loops ------------------------------------------------------------------------


def count(puz: Masyu, family: str, propagate: str | None = None) -> int:
    """Answers admitted by the CNF plus the loop cuts (lazily added, or from the propagator).

    `propagate` is the propagator's `eager` mode, or None for no propagator.
    """
    pool, problem = IDPool(), loop.problem(puz)
    found = set()
    with Solver(name="cadical195", bootstrap_with=loop_clauses(puz, problem, pool)) as solver:
        if propagate:
            watch = _loop_watch(problem, pool, family, eager=propagate)
            solver.connect_propagator(watch)
            for var in watch.ends:
                solver.observe(var)
        while solver.solve():
            chosen = chosen_edges(problem, pool, solver.get_model())
            cuts = find_cuts(problem, chosen, family)
            assert not (propagate and cuts), "the propagator let a wrong loop through"
            for cut in cuts:
                solver.add_clause(cut_clause(pool, cut))
            if not cuts:
                answer = solution_string(puz.grid, chosen)
                assert answer not in found and not kinds.check(puz, answer)
                found.add(answer)
                on = set(chosen)
                solver.add_clause([-edge_var(pool, *e) if e in on else edge_var(pool, *e)
                                   for e in puz.grid.edges])
    return len(found)


def brute_force(puz: Masyu) -> set[str]:
    """Every answer the checker accepts, over all edge subsets (3x3) or all cycles (larger)."""
    grid = puz.grid
    if len(grid.edges) <= 12:
        subsets = (itertools.compress(grid.edges, bits)
                   for bits in itertools.product((0, 1), repeat=len(grid.edges)))
    else:
        graph = nx.Graph(grid.edges)
        subsets = ([edge(c[i], c[i - 1]) for i in range(len(c))] for c in nx.simple_cycles(graph))
    answers = (solution_string(grid, chosen) for chosen in subsets)
    return {a for a in answers if not kinds.check(puz, a)}


@pytest.mark.parametrize("family", ["loop", "cutset"])
@pytest.mark.parametrize("propagate", [None, "pearlfree", "all"])
@pytest.mark.parametrize("size, loops", [(3, 13), (4, 213)])  # OEIS A140517: cycles of the n x n grid
def test_every_loop_of_an_empty_grid_once(size, loops, family, propagate):
    assert count(Masyu(Grid(size, size)), family, propagate) == loops


@pytest.mark.parametrize("size, tours", [(2, 1), (4, 6), (3, 0)])  # OEIS A003763 (0: odd cell count)
def test_full_puzzles_count_hamiltonian_cycles(size, tours):
    assert count(Masyu(Grid(size, size), full=True), "loop", propagate="all") == tours
    assert count(Masyu(Grid(size, size), full=True), "cutset") == tours


GRID3 = Grid(3, 3)
ONE_PEARL = [{cell: pearl} for cell in GRID3.cells for pearl in Pearl]
TWO_PEARLS = [{(0, 1): Pearl.WHITE, (2, 1): Pearl.WHITE}, {(0, 0): Pearl.BLACK, (2, 2): Pearl.BLACK},
              {(1, 0): Pearl.WHITE, (1, 2): Pearl.BLACK}, {(0, 1): Pearl.WHITE, (1, 1): Pearl.WHITE},
              {(0, 0): Pearl.BLACK, (1, 1): Pearl.WHITE}]


@pytest.mark.parametrize("pearls", ONE_PEARL + TWO_PEARLS,
                         ids=lambda p: "+".join(f"{v.value}{r}{c}" for (r, c), v in p.items()))
def test_pearl_puzzles_count_like_brute_force(pearls):
    puz = Masyu(GRID3, pearls)
    expected = len(brute_force(puz))
    for family, propagate in itertools.product(("loop", "cutset"), (None, "pearlfree", "all")):
        assert count(puz, family, propagate) == expected, (family, propagate)
