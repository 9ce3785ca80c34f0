"""Conformance on Slitherlink: every loop strategy in the registry, judged by the checker and by brute force.

The same strategies that solve Masyu must solve Slitherlink with only its clue rules new: the
bundled smoke set solved, verified and equal to janko.at's solution; tiny random puzzles called
sat or unsat exactly as brute force over every loop of the vertex grid says (through the
independent checker); excluding each answer found enumerates exactly the brute-force answers.
"""

from __future__ import annotations

import random
from functools import cache

import networkx as nx
import pytest

from harness import kinds, registry
from harness.encoding import Limits
from harness.grid import Grid, edge, solution_string
from harness.instances import Instance
from harness.kinds.slitherlink.model import Slitherlink
from harness.run.execute import execute
from harness.sets import resolve

ENCODINGS = [name for name in registry.names("slitherlink") if name != "dummy"]
LIMITS = Limits(time_s=30.0)


def test_the_loop_strategies_serve_slitherlink() -> None:
    assert {"circuit", "lazy", "sat", "propagator"} <= set(ENCODINGS)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_smoke_set_is_solved_verified_and_matches_janko(encoding: str) -> None:
    smoke = resolve("slither-smoke")
    assert len(smoke) >= 10
    for instance in smoke:
        row = execute(instance, encoding, {}, seed=0, limits=LIMITS)
        assert (row["status"], row["verified"]) == ("solved", 1), (instance.name, row["detail"])
        assert row["matches_known"] == 1, instance.name


@cache
def vertex_loops(rows: int, cols: int) -> tuple[str, ...]:
    """Every simple cycle of a rows x cols vertex grid, as a solution string."""
    grid = Grid(rows, cols)
    out = []
    for cycle in nx.simple_cycles(nx.Graph(grid.edges)):
        steps = zip(cycle, cycle[1:] + cycle[:1], strict=True)
        out.append(solution_string(grid, [edge(a, b) for a, b in steps]))
    return tuple(out)


def brute_force(puzzle: Slitherlink) -> list[str]:
    return [s for s in vertex_loops(puzzle.rows + 1, puzzle.cols + 1) if not kinds.check(puzzle, s)]


def random_puzzles(count: int, rows: int, cols: int, seed: int) -> list[Slitherlink]:
    rng = random.Random(seed)
    grid = Grid(rows, cols)
    out = []
    for _ in range(count):
        cells = rng.sample(grid.cells, rng.randint(0, 4))
        out.append(Slitherlink(grid, {c: rng.randint(0, 3) for c in cells}, full=rng.random() < 0.1))
    return out


def test_brute_force_finds_answers_and_dead_ends() -> None:
    counts = [len(brute_force(p)) for p in random_puzzles(30, 3, 3, seed=5)]
    assert 0 in counts and max(counts) > 1  # both unsat and ambiguous puzzles are exercised


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_sat_or_unsat_as_brute_force_says(encoding: str) -> None:
    puzzles = random_puzzles(30, 3, 3, seed=5) + random_puzzles(6, 2, 4, seed=9)
    puzzles += [Slitherlink(Grid(1, 1), {(0, 0): 4}), Slitherlink(Grid(1, 1), {(0, 0): 3})]
    for i, puzzle in enumerate(puzzles):
        answers = brute_force(puzzle)
        instance = Instance(name=f"tiny-{i}", source="<tiny>", puzzle=puzzle)
        row = execute(instance, encoding, {}, seed=i, limits=LIMITS)
        assert row["status"] == ("solved" if answers else "unsat"), (kinds.write_text(puzzle), row["detail"])
        if answers:
            assert row["solution"] in answers


@pytest.mark.parametrize("encoding", [n for n in ENCODINGS if registry.encodings()[n].excludes])
def test_excluding_each_answer_found_enumerates_exactly_the_brute_force_answers(encoding: str) -> None:
    solver = registry.create(encoding)
    for puzzle in random_puzzles(8, 3, 3, seed=13):
        found: list[str] = []
        while (outcome := solver.solve(puzzle, LIMITS, 0, exclude=tuple(found))).status == "sat":
            assert outcome.solution not in found
            found.append(outcome.solution)
        assert outcome.status == "unsat"
        assert sorted(found) == sorted(brute_force(puzzle)), kinds.write_text(puzzle)
