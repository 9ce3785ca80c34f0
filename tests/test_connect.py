"""The connectivity propagator `connect`: counts against brute force, proofs certified, the parity cut check.

Answers are enumerated with every one found excluded, judged by the kind's checker, and compared
with brute force (graphs: every vertex order; Masyu 3x3: every edge subset), with the watch checking
each reason and conflict, the loop watch's too, against its own view of the assignment (`strict`);
a wrong cut or a wrong propagation shows up as a missing answer. Unsat runs log a proof whose
every clause the cut check must accept, the parity clauses (a cut less one edge) among them.
"""

from __future__ import annotations

import itertools
import json

import pytest
from helpers import bundled
from pysat.solvers import Solver
from test_graph_loop import GRAPHS, brute_force, graph, petersen_like

from harness import kinds, registry, sets
from harness.encoding import Limits
from harness.grid import Grid, solution_string
from harness.instances import Instance
from harness.kinds.masyu.model import Masyu, Pearl
from harness.proof.certify import CERTIFIED
from harness.proof.cuts import check_cuts
from harness.proof.drat import read_cnf
from harness.run.execute import execute
from loopbench_encodings import loop
from loopbench_encodings.loop.cnf import loop_clauses
from loopbench_encodings.loop.connect import connect_watch
from loopbench_encodings.loop.watch import loop_watch

LIMITS = Limits(time_s=60.0)
RATIOS = ("all", "1")


def answers(puzzle, eager: str = "propagate", ratio: float = float("inf")) -> set[str]:
    """Every answer the CNF and the connectivity propagator admit, each found once and then blocked."""
    problem = loop.problem(puzzle)
    arrays = problem.arrays
    found: set[str] = set()
    with Solver(name="cadical195", bootstrap_with=loop_clauses(puzzle, problem)) as solver:
        watch = connect_watch(problem, loop_watch(problem, "loop", eager=eager), ratio, strict=True)
        solver.connect_propagator(watch)
        for var in range(1, arrays.num_edges + 1):
            solver.observe(var)
        while solver.solve():
            model = solver.get_model()
            chosen = arrays.chosen(model)
            assert not arrays.cut_clauses(chosen, "loop"), "the propagator let a wrong loop through"
            answer = problem.solution(chosen)
            assert answer not in found and not kinds.check(puzzle, answer)
            found.add(answer)
            solver.add_clause([-lit for lit in model[: arrays.num_edges]])
    return found


def flower(k: int):
    """The flower snark J_k (k odd: non-Hamiltonian): stars a_i-b_i, a_i-c_i, a_i-d_i, the b's a
    k-cycle, the c's and d's one 2k-cycle (c_k joined to d_1, d_k to c_1)."""
    a, b, c, d = (lambda i: 4 * i), (lambda i: 4 * i + 1), (lambda i: 4 * i + 2), (lambda i: 4 * i + 3)
    edges = [(a(i), x(i)) for i in range(k) for x in (b, c, d)]
    edges += [(b(i), b((i + 1) % k)) for i in range(k)]
    edges += [(c(i), c(i + 1)) for i in range(k - 1)] + [(d(i), d(i + 1)) for i in range(k - 1)]
    edges += [(c(k - 1), d(0)), (d(k - 1), c(0))]
    return graph(4 * k, edges)


@pytest.mark.parametrize("label", [k for k, g in GRAPHS.items() if g.n <= 10])
@pytest.mark.parametrize("eager", ["propagate", "pearlfree"])
@pytest.mark.parametrize("ratio", [float("inf"), 1.0])
def test_every_hamiltonian_cycle_of_small_graphs_once(label, eager, ratio):
    g = GRAPHS[label]
    assert answers(g, eager, ratio) == brute_force(g)


def test_grid4x4_and_the_wheels_as_the_strategy_enumerates_them():
    for label in ("grid4x4", "wheel10", "GP(6,2)"):
        g = GRAPHS[label]
        assert answers(g) == answers(g, "pearlfree", 1.0)
        assert len(answers(g)) == {"grid4x4": 6, "wheel10": 10, "GP(6,2)": len(answers(g, "all"))}[label]


def masyu_brute_force(puzzle: Masyu) -> set[str]:
    grid = puzzle.grid
    bits = itertools.product((0, 1), repeat=len(grid.edges))
    subsets = (itertools.compress(grid.edges, chosen) for chosen in bits)
    return {a for a in (solution_string(grid, chosen) for chosen in subsets) if not kinds.check(puzzle, a)}


TWO_PEARLS = [{(0, 1): Pearl.WHITE, (2, 1): Pearl.WHITE}, {(0, 0): Pearl.BLACK, (2, 2): Pearl.BLACK},
              {(1, 0): Pearl.WHITE, (1, 2): Pearl.BLACK}, {(0, 1): Pearl.WHITE, (1, 1): Pearl.WHITE},
              {(0, 0): Pearl.BLACK, (1, 1): Pearl.WHITE}, {(0, 0): Pearl.WHITE, (2, 2): Pearl.WHITE}]


@pytest.mark.parametrize("pearls", TWO_PEARLS,
                         ids=lambda p: "+".join(f"{v.value}{r}{c}" for (r, c), v in p.items()))
def test_pearl_puzzles_with_optional_cells_count_like_brute_force(pearls):
    puzzle = Masyu(Grid(3, 3), pearls)  # two required cells, the other seven of degree 0 or 2
    expected = masyu_brute_force(puzzle)
    for eager, ratio in itertools.product(("propagate", "pearlfree"), (float("inf"), 1.0)):
        assert answers(puzzle, eager, ratio) == expected, (eager, ratio)


@pytest.mark.parametrize("name", ["janko001", "janko080", "janko017"])
def test_bundled_masyu_solved_and_verified(name):
    row = execute(bundled(name), "connect", {}, 0, LIMITS)
    assert row["status"] == "solved" and row["verified"] == 1, row["detail"]


def test_bundled_graphs_agree_with_their_known_answers():
    for inst in sets.resolve("graph-smoke"):
        for ratio in RATIOS:
            row = execute(inst, "connect", {"ratio": ratio}, 0, LIMITS)
            assert row["status"] == {"sat": "solved", "unsat": "unsat"}[inst.known_answer], (inst.name, ratio)


def proved(puzzle, options: dict) -> dict:
    row = execute(Instance("x", "<x>", puzzle), "connect", {"proof": "true", **options}, 0, LIMITS)
    assert row["status"] == "unsat", row["detail"]
    return json.loads(row["extra"])


@pytest.mark.parametrize("ratio", RATIOS)
@pytest.mark.parametrize("g", [petersen_like(5, 2), petersen_like(11, 2), flower(5), flower(7),
                               GRAPHS["grid3x3"]], ids=["petersen", "GP(11,2)", "J5", "J7", "grid3x3"])
def test_non_hamiltonian_graphs_are_proved_with_every_cut_checked(g, ratio):
    extra = proved(g, {"ratio": ratio})
    assert extra["proof"] == CERTIFIED, extra["proof"]
    assert extra["proof_cuts"] > 0 and extra["connect_searches"] > 0


def test_parity_reasons_and_bridges_are_among_the_certified_clauses():
    extra = proved(flower(7), {"eager": "pearlfree"})
    assert extra["proof"] == CERTIFIED and extra["connect_reasons"] > 0 and extra["connect_conflicts"] > 0
    # two squares joined by one edge: a bridge of the graph itself, answered before any solver
    bridged = graph(8, [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (2, 4)])
    row = execute(Instance("bridged", "<bridged>", bridged), "connect", {"proof": "true"}, 0, LIMITS)
    assert row["status"] == "unsat" and "joined by a bridge only" in row["detail"]


def test_a_uniqueness_proof_on_a_puzzle_is_certified():
    instance = bundled("janko071")
    row = execute(instance, "connect", {"proof": "true"}, 0, LIMITS, unique=True)
    extra = json.loads(row["extra"])
    assert row["unique"] == 1 and extra["unique_proof"] == CERTIFIED


def cnf_with(clauses: list[list[int]], g) -> object:
    """A CNF naming g's edges (variable i + 1 is edge i), holding these clauses marked `c cut`."""
    lines = [f"c edge {i + 1} {u + 1} {v + 1}" for i, (u, v) in enumerate(g.edges)]
    lines.append(f"p cnf {len(g.edges)} {len(clauses)}")
    for clause in clauses:
        lines += ["c cut", " ".join(map(str, [*clause, 0]))]
    return read_cnf("x.cnf", "\n".join(lines) + "\n")


def test_the_cut_check_takes_a_cut_less_one_edge_and_refuses_less_two():
    # a 6-cycle 0..5 with chords 0-3 and 1-4; S = {0, 1, 2}: δ(S) = {2-3, 5-0, 0-3, 1-4}
    g = graph(6, [(i, (i + 1) % 6) for i in range(6)] + [(0, 3), (1, 4)])
    var = {e: i + 1 for i, e in enumerate(g.edges)}
    cut = [var[(2, 3)], var[(0, 5)], var[(0, 3)], var[(1, 4)]]
    assert check_cuts(cnf_with([cut, cut[1:], cut[:3]], g), g).ok
    result = check_cuts(cnf_with([cut[2:]], g), g)  # the loop 0-1-2-3-4-5 uses 2-3 and 5-0 only
    assert not result.ok and "not even with one edge more" in result.problems[0]


def test_the_strategy_is_found_and_refuses_a_bad_ratio():
    assert registry.create("connect").options["ratio"] == "1"
    for bad in ("0", "-1", "often"):
        with pytest.raises(ValueError, match="option ratio"):
            registry.create("connect", ratio=bad)
