"""The PySAT encodings `sat` and `propagator`: real instances, solver choice, limits, and loop counts.

The counts enumerate every answer the CNF plus the loop cuts admit (blocking each answer found)
and compare them with brute force judged by the independent checker, so a wrong clause or an
unsound cut shows up as a wrong number.
"""

from __future__ import annotations

import itertools
import json
import random
from types import SimpleNamespace

import networkx as nx
import pytest
from helpers import bundled
from pysat.solvers import Solver

from harness import kinds, registry
from harness.encoding import Limits
from harness.grid import Grid, edge, solution_string
from harness.instances import Instance
from harness.kinds import read_text
from harness.kinds.masyu.model import Masyu, Pearl
from harness.kinds.slitherlink.generate import rim
from harness.run.execute import execute
from loopbench_encodings import loop
from loopbench_encodings.cegar.solvers import model_alone
from loopbench_encodings.loop.cnf import loop_clauses
from loopbench_encodings.loop.cuts import find_cuts
from loopbench_encodings.loop.grid import on_grid
from loopbench_encodings.loop.watch import loop_watch

# Bundled janko-java puzzles (6x6 to 16x16, 10x18), each with its known solution.
FILES = ["janko001", "janko080", "janko002", "janko009", "janko012", "janko033", "janko017"]
VARIANTS = [
    ("sat", {}),
    ("sat", {"cuts": "cutset"}),
    ("sat", {"cuts": "disc"}),
    ("sat", {"solver": "glucose4"}),
    ("sat", {"components": "networkx"}),
    ("sat", {"implied": "false"}),
    ("sat", {"alone": "false"}),
    ("sat", {"colour": "on"}),
    ("propagator", {}),
    ("propagator", {"implied": "false"}),
    ("propagator", {"cuts": "cutset"}),
    ("propagator", {"eager": "all"}),
    ("propagator", {"eager": "pearlfree"}),
    ("propagator", {"components": "networkx"}),
    ("propagator", {"colour": "on"}),
]
PROPAGATING = [i for i, (enc, _) in enumerate(VARIANTS) if enc == "propagator"]
EAGER = ("propagate", "pearlfree", "all")
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
    assert len({row["solution"] for row in rows}) == 1  # each instance has one answer
    assert all(rows[i]["iterations"] == 1 for i in PROPAGATING)  # the propagator cut every loop


def test_edges_are_tried_off_first():
    # CaDiCaL's own phase (on) fills this sparse 10x10's empty rows with small loops, cut one
    # per round for over 20 000 rounds; trying edges off first needs one round.
    row = execute(instance("janko803"), "sat", {}, 0, LIMITS)
    assert (row["status"], row["verified"]) == ("solved", 1) and row["iterations"] <= 5


def test_the_propagator_clock_stops_a_solve_in_progress():
    puz = instance(FILES[1]).puzzle
    problem = loop.problem(puz)
    with Solver(name="cadical195", bootstrap_with=loop_clauses(puz, problem)) as solver:
        watch = loop_watch(problem, "loop", deadline=0.0)
        solver.connect_propagator(watch)
        for var in range(1, problem.arrays.num_edges + 1):
            solver.observe(var)
        # the empty clause ends the call: False, which the watch says is its stop (tests/test_watch_stop.py)
        assert solver.solve() is False and watch.out_of_time()


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


@pytest.mark.parametrize("enc, option", [("sat", "cuts"), ("sat", "phase"), ("sat", "components"),
                                         ("propagator", "eager")])
def test_unknown_option_values_are_errors(enc, option):
    row = execute(instance(FILES[0]), enc, {option: "star"}, 0, LIMITS)
    assert row["status"] == "error" and "'star'" in row["detail"]


@pytest.mark.parametrize("enc, opts", [("sat", {}), ("sat", {"components": "networkx"})]
                         + [("propagator", {"eager": eager}) for eager in EAGER])
def test_unsat_by_local_rules_and_by_the_loop_alone(enc, opts):
    black_in_2x2 = execute(puzzle("2 2\nb -\n- -\n"), enc, opts, 0, LIMITS)
    assert black_in_2x2["status"] == "unsat"
    # Three whites in the middle row force columns 0-1 into a closed loop that misses (1,3):
    # every cell's local rule can be met, so only the loop cuts find the contradiction.
    two_loops = puzzle("3 4\n- - - -\nw w - w\n- - - -\n")
    row = execute(two_loops, enc, opts, 0, LIMITS)
    assert row["status"] == "unsat" and row["cuts"] + json.loads(row["extra"]).get("propagations", 0) >= 1
    assert brute_force(two_loops.puzzle) == set()


@pytest.mark.parametrize("enc", ["sat", "propagator"])
def test_a_tiny_time_limit_gives_unknown(enc):
    row = execute(instance("janko760"), enc, {}, 0, Limits(time_s=0.001))
    assert row["status"] == "unknown" and "time limit" in row["detail"]


# --- counting loops ------------------------------------------------------------------------


def count(puz, family: str, propagate: str | None = None, components: str = "array",
          implied: bool = False) -> int:
    """Answers admitted by the CNF plus the loop cuts (lazily added, or from the propagator).

    `propagate` is the propagator's `eager` mode, or None for no propagator; the propagator checks
    each reason it gives against its own view of the assignment (`strict`).
    """
    problem = loop.problem(puz)
    arrays = problem.arrays
    found = set()
    with Solver(name="cadical195", bootstrap_with=loop_clauses(puz, problem, implied)) as solver:
        if propagate:
            watch = loop_watch(problem, family, eager=propagate, components=components, strict=True)
            solver.connect_propagator(watch)
            for var in range(1, arrays.num_edges + 1):
                solver.observe(var)
        while solver.solve():
            model = solver.get_model()
            chosen = arrays.chosen(model)
            cuts = arrays.cut_clauses(chosen, family, components)
            assert not (propagate and cuts), "the propagator let a wrong loop through"
            for cut in cuts:
                solver.add_clause(cut)
            if not cuts:
                answer = problem.solution(chosen)
                assert answer not in found and (puz.kind != "masyu" or not kinds.check(puz, answer))
                found.add(answer)
                solver.add_clause([-lit for lit in model[: arrays.num_edges]])
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


@pytest.mark.parametrize("family", ["loop", "cutset", "disc"])
@pytest.mark.parametrize("propagate", [None, *EAGER])
@pytest.mark.parametrize("size, loops", [(3, 13), (4, 213)])  # OEIS A140517: cycles of the n x n grid
def test_every_loop_of_an_empty_grid_once(size, loops, family, propagate):
    assert count(Masyu(Grid(size, size)), family, propagate) == loops
    assert count(Masyu(Grid(size, size)), family, propagate, components="networkx") == loops


@pytest.mark.parametrize("size, tours", [(2, 1), (4, 6), (3, 0)])  # OEIS A003763 (0: odd cell count)
def test_full_puzzles_count_hamiltonian_cycles(size, tours):
    for propagate in EAGER:
        assert count(Masyu(Grid(size, size), full=True), "loop", propagate) == tours
    assert count(Masyu(Grid(size, size), full=True), "cutset") == tours
    assert count(Masyu(Grid(size, size), full=True), "disc") == tours


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
    for family, propagate in itertools.product(("loop", "cutset", "disc"), (None, *EAGER)):
        assert count(puz, family, propagate) == expected, (family, propagate)
        assert count(puz, family, propagate, implied=True) == expected, (family, propagate, "implied")


@pytest.mark.parametrize("seed", range(6))
def test_the_implied_pearl_clauses_follow_from_the_rules_and_the_degrees(seed):
    """Each implied clause, negated, contradicts the plain CNF (no loop cut needed): it adds no rule."""
    from harness.kinds.masyu import rules as masyu_rules

    grids = [Grid(3, 3), Grid(4, 5), Grid(2, 6), Grid(6, 6)]
    puzzles = [Masyu(grid, {c: p}) for grid in grids for c in grid.cells for p in Pearl] if seed == 0 else []
    puzzles += random_puzzles(20, 6, 7, seed)
    for puz in puzzles:
        problem = loop.problem(puz)
        implied = masyu_rules.cnf_implied(puz, problem.arrays)
        assert len(implied) == sum(1 if p is Pearl.WHITE else 2 for p in puz.pearls.values())
        with Solver(name="cadical195", bootstrap_with=loop_clauses(puz, problem)) as solver:
            for clause in implied:
                assert solver.solve(assumptions=[-lit for lit in clause]) is False, (puz, clause)


# --- every variant, answer by answer --------------------------------------------------------


def random_puzzles(count: int, rows: int, cols: int, seed: int) -> list[Masyu]:
    rng = random.Random(seed)
    grid = Grid(rows, cols)
    out = []
    for _ in range(count):
        cells = rng.sample(grid.cells, rng.randint(1, 4))
        out.append(Masyu(grid, {c: rng.choice(list(Pearl)) for c in cells}, full=rng.random() < 0.15))
    return out


@pytest.mark.parametrize("enc, opts", VARIANTS, ids=lambda v: v if isinstance(v, str) else
                         ",".join(f"{k}={x}" for k, x in v.items()) or "defaults")
def test_excluding_each_answer_enumerates_exactly_the_brute_force_answers(enc, opts):
    solver = registry.create(enc, **opts)
    puzzles = [Masyu(Grid(3, 3)), Masyu(Grid(3, 4), {(1, 1): Pearl.WHITE}), Masyu(Grid(4, 4), full=True)]
    for puz in puzzles + random_puzzles(8, 4, 4, seed=11):
        found: list[str] = []
        while (outcome := solver.solve(puz, LIMITS, 0, exclude=tuple(found))).status == "sat":
            assert outcome.solution not in found
            found.append(outcome.solution)
        assert outcome.status == "unsat"
        assert sorted(found) == sorted(brute_force(puz)), kinds.write_text(puz)


# --- hits: Slitherlink's clue rules, through the loop problem alone ---------------------------


def slitherlink(rows: int, cols: int, clues: dict) -> SimpleNamespace:
    """A Slitherlink puzzle as the loop rules read it (the kind's harness side lives on another branch)."""
    vertices = Grid(rows + 1, cols + 1)
    return SimpleNamespace(kind="slitherlink", rows=rows, cols=cols, clues=clues, full=False,
                           vertices=vertices)


def slitherlink_answers(puz) -> int:
    """Loops of the vertex grid whose count of sides around every clue matches it."""
    graph = nx.Graph(Grid(puz.rows + 1, puz.cols + 1).edges)
    total = 0
    for cycle in nx.simple_cycles(graph):
        on = {edge(cycle[i], cycle[i - 1]) for i in range(len(cycle))}
        sides = {cell: [((r, c), (r, c + 1)), ((r + 1, c), (r + 1, c + 1)), ((r, c), (r + 1, c)),
                        ((r, c + 1), (r + 1, c + 1))] for cell in puz.clues for r, c in [cell]}
        total += all(sum(s in on for s in sides[cell]) == k for cell, k in puz.clues.items())
    return total


SLITHER = [slitherlink(2, 2, {(0, 0): 1}), slitherlink(2, 2, {(0, 0): 3}), slitherlink(2, 3, {(0, 1): 2}),
           slitherlink(2, 3, {(0, 0): 1, (1, 2): 1}), slitherlink(2, 3, {(1, 1): 3, (0, 0): 0}),
           slitherlink(3, 3, {(1, 1): 2, (0, 0): 1, (2, 2): 1}), slitherlink(3, 3, {(0, 0): 3, (2, 2): 3}),
           slitherlink(3, 3, {(1, 1): 1, (0, 2): 2}), slitherlink(3, 3, {(0, 0): 3, (2, 2): 3, (1, 1): 1})]


@pytest.mark.parametrize("puz", SLITHER, ids=lambda p:
                         "-".join(f"{r}{c}={k}" for (r, c), k in p.clues.items()))
def test_slitherlink_clues_count_like_brute_force(puz):
    expected = slitherlink_answers(puz)  # 0 for the last one: two 3s with a 1 between them
    for family, propagate in itertools.product(("loop", "cutset", "disc"), (None, *EAGER)):
        for components in ("array", "networkx"):
            assert count(puz, family, propagate, components) == expected, (family, propagate, components)


def test_a_complete_loop_is_tried_alone_and_found_only_if_it_is_a_model():
    # a 3 in the top-left cell: the rim of the two left cells uses three of its sides, a loop around
    # the clueless right-hand cell uses none, so it is a model beside that rim but never alone
    puz = slitherlink(2, 4, {(0, 0): 3})
    problem = loop.problem(puz)
    arrays = problem.arrays
    grid = Grid(2, 4)
    answer, stray = (problem.edge_ids(rim(grid, cells)) for cells in ({(0, 0), (0, 1)}, {(1, 3)}))
    with Solver(name="cadical195", bootstrap_with=loop_clauses(puz, problem)) as solver:
        assert model_alone(solver, arrays.num_edges, [stray]) is None
        assert model_alone(solver, arrays.num_edges, [stray, answer]) == answer
        assert solver.solve(assumptions=[i + 1 for i in answer + stray])  # the two together are a model
        cuts, whole = arrays.split(answer + stray, "loop")
        assert [sorted(edges) for edges in whole] == [answer]
        assert len(cuts) == 1 and sorted(cuts[0]) == sorted(-i - 1 for i in stray)


# --- the two component searches, and the stats -----------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_array_and_networkx_loops_give_the_same_cuts(seed):
    rng = random.Random(seed)
    grid = Grid(4, 5)
    cycles = [[edge(c[i], c[i - 1]) for i in range(len(c))] for c in nx.simple_cycles(nx.Graph(grid.edges))]
    chosen, used = [], set()
    for cyc in rng.sample(cycles, 12):
        cells = {v for e in cyc for v in e}
        if not cells & used:
            chosen += cyc
            used |= cells
    required = frozenset(rng.sample(grid.cells, rng.randint(0, 3)))
    hits = tuple(tuple(rng.sample(grid.edges, 2)) for _ in range(rng.randint(0, 2)))
    problem = on_grid(grid, required, hits)
    arrays = problem.arrays
    ids = sorted(arrays.edge_id(*e) for e in chosen)
    for family in ("loop", "cutset", "disc"):
        by_array = arrays.cut_clauses(ids, family, "array")
        by_networkx = arrays.cut_clauses(ids, family, "networkx")
        assert sorted(map(sorted, by_array)) == sorted(map(sorted, by_networkx))
        assert find_cuts(problem, ids, family) == by_networkx  # lazy's view: the same


@pytest.mark.parametrize("seed", range(20))
def test_the_array_solution_string_is_the_grid_one(seed):
    rng = random.Random(seed)
    grid = Grid(rng.randint(1, 7), rng.randint(1, 7))
    arrays = on_grid(grid).arrays
    ids = sorted(rng.sample(range(arrays.num_edges), rng.randint(0, arrays.num_edges)))
    assert arrays.solution(ids) == solution_string(grid, [grid.edges[i] for i in ids])


def test_a_grid_shape_is_made_once_and_shared_unchanged():
    from loopbench_encodings.loop.cnf import _degree_clauses, degree_clauses
    from loopbench_encodings.loop.grid import GridShape

    puzzle = Masyu(Grid(7, 9), {(0, 1): Pearl.WHITE})
    problem = loop.problem(puzzle)
    first, second = problem.arrays, on_grid(Grid(7, 9), {(0, 2)}).arrays
    assert second.cache is first.cache and second.shape_reused
    assert first.required != second.required
    clauses = degree_clauses(first)
    size = len(clauses)
    loop_clauses(puzzle, problem)  # must copy, not extend, the shared list
    assert len(clauses) == size
    assert degree_clauses(second) is clauses
    fresh = GridShape(7, 9)
    assert (fresh.ends, fresh.incident) == (first.ends, first.incident)
    assert (clauses, first.num_edges) == _degree_clauses(fresh.incident_vars, fresh.num_edges)
    assert degree_clauses(second, keep=False) == clauses and degree_clauses(second, keep=False) is not clauses


def test_a_dense_graphs_degree_clauses_reach_the_solver_a_batch_at_a_time():
    """The degree clauses come in batches, each made as the one before is read (a dense FHCP graph's
    millions never all held, issue 28), the same clauses in the same order as `loop_clauses`' one
    list; `sat` keeps a list of them only where it reads them again (here: a seed's shuffle)."""
    import time

    from harness.kinds.graph.model import Graph
    from loopbench_encodings.cegar.model import Strategy, build
    from loopbench_encodings.loop import cnf
    from loopbench_encodings.sat import Sat

    n = 40  # the complete graph: degree 39 at every vertex, past DIRECT_MAX (`_zero_or_two`)
    puzzle = Graph(n, tuple(itertools.combinations(range(n), 2)))
    whole = loop_clauses(puzzle, loop.problem(puzzle), keep=False)
    problem = loop.problem(puzzle)
    arrays = problem.arrays
    batches = cnf._degree_batches(arrays.incident_vars, arrays.num_edges, batch=1000)
    assert 1000 <= len(next(batches)) < 1000 + 8 * (n - 1)  # a vertex's clauses at most past the batch
    degree, rest = cnf.loop_clause_parts(puzzle, problem, keep=False)
    assert cnf.num_variables(arrays) == cnf._degree_clauses(arrays.incident_vars, arrays.num_edges)[1]
    assert [*itertools.chain.from_iterable(degree), *rest] == whole
    sat = Sat()
    strategy = Strategy(sat.options, sat.cadical_options)
    streamed = build(strategy, puzzle, problem, 0, (), time.perf_counter())
    shuffled = build(strategy, puzzle, loop.problem(puzzle), 1, (), time.perf_counter())
    try:
        assert streamed.clauses is None and shuffled.clauses != whole
        assert sorted(map(sorted, shuffled.clauses)) == sorted(map(sorted, whole))
        assert streamed.solver.nof_clauses() == shuffled.solver.nof_clauses() > 0
    finally:
        streamed.solver.delete()
        shuffled.solver.delete()


def test_stats_say_where_the_time_went():
    sat = execute(instance(FILES[1]), "sat", {}, 0, LIMITS)
    extra = json.loads(sat["extra"])
    assert sat["build_s"] > 0 and extra["solver_cpu_s"] > 0 and extra["outside_cpu_s"] > 0
    assert len(extra["rounds"]) == sat["iterations"] and sum(r[2] for r in extra["rounds"]) == sat["cuts"]
    # One clock: the phases are CPU time within the solve's, so they add up to no more than it
    assert extra["build_clock"] == "cpu"
    assert sat["build_s"] + extra["solver_cpu_s"] + extra["outside_cpu_s"] <= sat["solve_cpu_s"]
    prop = execute(instance("janko017"), "propagator", {}, 0, LIMITS)
    extra = json.loads(prop["extra"])
    assert prop["status"] == "solved" and extra["callback_cpu_s"] > 0 and extra["solver_cpu_s"] > 0
    assert prop["build_s"] + extra["solver_cpu_s"] <= prop["solve_cpu_s"]
    assert extra["propagations"] > 0 and extra["reasons"] <= extra["propagations"]
    assert extra["assignments"] > 0 and extra["check_model_calls"] >= 1


@pytest.mark.parametrize(("name", "implied"), [("masyu-100x100-s2026-002", "false"),
                                              ("masyu-200x200-s2026-001", "true")])
def test_the_propagator_solves_the_puzzles_cadicals_inprocessing_looped_on(name, implied):
    """With vivification (100x100) or probing (200x200) on, CaDiCaL 1.9.5 looped here without
    calling propagate() (no clock reading, memory growing ~20 MB/s); a real worker under a CPU
    limit turns a relapse into a timeout row rather than a hang."""
    from harness.run.supervise import Supervisor
    from harness.run.sweep import Sweep, make_spec

    x = bundled(name, "masyu-generated" if "100x100" in name else "masyu-generated-200")
    sweep = Sweep(instances=[x], encodings=["propagator"], time_s=40, memory_mb=2048)
    supervisor = Supervisor()
    try:
        options = registry.create("propagator", implied=implied).options  # as the sweeps that met it
        row = supervisor.run(make_spec(sweep, x, "propagator", options, 0))
    finally:
        supervisor.close()
    assert (row["status"], row["verified"]) == ("solved", 1), row.get("detail")
