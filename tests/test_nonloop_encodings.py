"""Walls and Marupeke encodings: the rules modules' CNF straight on a PySAT solver, the plain CNF path
(`_plain_sat.solve_plain`) and `cpsat`, against the known solutions of the bundled sets and against
brute force on tiny puzzles (every solution, not just one)."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest
from pysat.formula import IDPool
from pysat.solvers import Solver

from harness import kinds, registry, sets
from harness.encoding import Limits
from harness.grid import Grid
from harness.kinds import read_text
from harness.kinds.marupeke.model import Mark, Marupeke
from harness.kinds.walls.model import Segment, Walls
from harness.run.execute import execute
from loopbench_encodings import rules
from loopbench_encodings._plain_sat import solve_plain

KINDS = ("walls", "marupeke")
SMOKE = {kind: f"{kind}-smoke" for kind in KINDS}
LIMITS = Limits(time_s=30.0)


def smoke(kind: str):
    return sets.instances(SMOKE[kind])


def test_cpsat_serves_exactly_the_kinds_with_a_whole_model():
    cls = registry.encodings()["cpsat"]
    assert cls.excludes and cls.serves("walls") and cls.serves("marupeke") and not cls.serves("masyu")


@pytest.mark.parametrize("kind", KINDS)
def test_cnf_on_a_pysat_solver_finds_the_known_solution_and_only_it(kind):
    module = rules.of(kind)
    for inst in smoke(kind):
        pool = IDPool()
        with Solver(name="cadical195", bootstrap_with=module.cnf(inst.puzzle, pool)) as solver:
            assert solver.solve(), inst.name
            answer = module.cnf_solution(inst.puzzle, pool, solver.get_model())
            assert kinds.check(inst.puzzle, answer) == [] and answer == inst.known_solution, inst.name
            solver.add_clause(module.cnf_exclude(inst.puzzle, pool, answer))
            assert not solver.solve(), f"{inst.name} has a second solution"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("encoding", ["cpsat"])
def test_encodings_solve_the_smoke_set_as_known_and_prove_it_unique(kind, encoding):
    for inst in smoke(kind):
        row = execute(inst, encoding, {}, seed=0, limits=LIMITS, unique=True)
        verdict = (row["status"], row["verified"], row["matches_known"])
        assert verdict == ("solved", 1, 1), (inst.name, row["detail"])
        assert row["unique"] == 1 and row["build_s"] > 0


@pytest.mark.parametrize("kind", KINDS)
def test_plain_sat_solves_the_smoke_set_as_known_and_honours_exclude(kind):
    module = rules.of(kind)
    for seed, inst in enumerate(smoke(kind)):
        first = solve_plain(module, inst.puzzle, LIMITS, seed)
        assert (first.status, first.solution) == ("sat", inst.known_solution), inst.name
        again = solve_plain(module, inst.puzzle, LIMITS, seed, exclude=(first.solution,))
        assert again.status == "unsat", inst.name
        assert first.stats["build_s"] > 0 and first.stats["variables"] > 0 and first.stats["chunks"] >= 1


def test_plain_sat_keeps_a_tiny_time_limit():
    inst = smoke("walls")[4]  # 10x10
    outcome = solve_plain(rules.of("walls"), inst.puzzle, Limits(time_s=1e-9), 0)
    assert outcome.status == "unknown" and "time limit" in outcome.stats["reason"] and not outcome.solution


def test_plain_sat_with_another_solver_and_with_nothing_left_to_choose():
    inst = smoke("marupeke")[0]
    assert solve_plain(rules.of("marupeke"), inst.puzzle, LIMITS, 0, solver_name="glucose4").solution == \
        inst.known_solution
    all_black = read_text("walls 1 2\n1 #\n")  # one solution, with no white cell to vary
    assert solve_plain(rules.of("walls"), all_black, LIMITS, 0).status == "unsat"  # the clue cannot be met
    solid = read_text("walls 1 2\n0 #\n")
    assert solve_plain(rules.of("walls"), solid, LIMITS, 0).solution == "##"
    assert solve_plain(rules.of("walls"), solid, LIMITS, 0, exclude=("##",)).status == "unsat"
    assert registry.create("cpsat").solve(solid, LIMITS, 0, exclude=("##",)).status == "unsat"


@pytest.mark.parametrize("kind", KINDS)
def test_excluding_a_malformed_solution_is_an_error(kind):
    inst = smoke(kind)[0]
    with pytest.raises(ValueError, match="shape"):
        rules.of(kind).cnf_exclude(inst.puzzle, IDPool(), "O")
    with pytest.raises(ValueError, match="white cell"):
        blacked = inst.known_solution.replace("X", "#").replace("-", "#")
        rules.of(kind).cnf_exclude(inst.puzzle, IDPool(), blacked)


# --- brute force: every solution of tiny puzzles ----------------------------------------------------

def tiny_walls(rng: random.Random) -> Walls:
    grid = Grid(rng.randint(1, 3), rng.randint(2, 4))
    black, given = {}, {}
    for cell in grid.cells:
        roll = rng.random()
        if roll < 0.4:
            black[cell] = None if rng.random() < 0.2 else rng.randint(0, 4)
        elif roll < 0.38:
            given[cell] = rng.choice(list(Segment))
    return Walls(grid, black, given)


def tiny_marupeke(rng: random.Random) -> Marupeke:
    grid = Grid(rng.randint(1, 3), rng.randint(3, 4))
    blocks = {cell for cell in grid.cells if rng.random() < 0.2}
    given = {cell: rng.choice(list(Mark)) for cell in grid.cells if cell not in blocks and rng.random() < 0.4}
    return Marupeke(grid, blocks, given)


TINY = {"walls": (tiny_walls, "-|", "#"), "marupeke": (tiny_marupeke, "OX", "#")}


@cache
def brute_force(puzzle) -> frozenset[str]:
    """Every string the checker accepts: each white cell tries both of its values."""
    _, values, black = TINY[puzzle.kind]
    black_cells = getattr(puzzle, "black", getattr(puzzle, "blocks", ()))
    white = [cell for cell in puzzle.grid.cells if cell not in black_cells]
    found = set()
    for choice in itertools.product(values, repeat=len(white)):
        at = dict(zip(white, choice, strict=True))
        text = "/".join("".join(at.get((r, c), black) for c in range(puzzle.cols))
                        for r in range(puzzle.rows))
        if not kinds.check(puzzle, text):
            found.add(text)
    return frozenset(found)


def every_solution(solve) -> frozenset[str]:
    """Ask `solve(exclude)` again and again, excluding what it found, until it says unsat."""
    found: list[str] = []
    while True:
        outcome = solve(tuple(found))
        if outcome.status == "unsat":
            return frozenset(found)
        assert outcome.status == "sat" and outcome.solution not in found
        found.append(outcome.solution)


@pytest.mark.parametrize("kind", KINDS)
def test_every_solution_of_tiny_puzzles_as_brute_force_says(kind):
    make = TINY[kind][0]
    rng = random.Random(f"tiny {kind}")
    cpsat = registry.create("cpsat")
    counts = []
    for i in range(40):
        puzzle = make(rng)
        expected = brute_force(puzzle)
        if len(expected) > 50:
            continue  # one solve per solution: keep the test quick
        counts.append(len(expected))
        def plain(ex, puzzle=puzzle, i=i):
            return solve_plain(rules.of(kind), puzzle, LIMITS, i, ex)

        def cp(ex, puzzle=puzzle, i=i):
            return cpsat.solve(puzzle, LIMITS, i, ex)

        assert every_solution(plain) == expected, kinds.write_text(puzzle)
        assert every_solution(cp) == expected, kinds.write_text(puzzle)
    # the sample holds unsolvable, unique and many-solution puzzles alike
    assert 0 in counts and 1 in counts and max(counts) >= 4
