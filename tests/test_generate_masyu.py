"""The Masyu generator: the same seed gives the same text; each puzzle has its loop as its one solution."""

from __future__ import annotations

import random

from harness import generate, kinds
from harness.grid import Grid, parse_solution
from harness.kinds.masyu import generate as masyu_generate
from harness.unique import is_unique


def test_the_same_seed_gives_the_same_text():
    first = generate.generate("masyu", [(8, 8)], 2, seed=5)
    again = generate.generate("masyu", [(8, 8)], 2, seed=5)
    assert [kinds.write_text(e.puzzle) for e in first] == [kinds.write_text(e.puzzle) for e in again]
    assert [e.solution for e in first] == [e.solution for e in again]
    assert [e.name for e in first] == ["masyu-8x8-s5-000", "masyu-8x8-s5-001"]
    assert first[0].meta["encoding"] == "sat"  # masyu's default, not the framework's cpsat
    other = generate.generate("masyu", [(8, 8)], 1, seed=6)
    assert kinds.write_text(other[0].puzzle) != kinds.write_text(first[0].puzzle)


def test_every_puzzle_is_checked_and_unique():
    for entry in generate.generate("masyu", [(10, 10), (6, 9)], 2, seed=3):
        assert (entry.puzzle.rows, entry.puzzle.cols) in {(10, 10), (6, 9)}
        assert entry.puzzle.pearls
        assert kinds.check(entry.puzzle, entry.solution) == []
        assert is_unique(entry.puzzle, entry.solution, "sat").unique == 1  # a second solve is unsat


def test_uniqueness_holds_for_other_encodings_too():
    # the generator asks sat; clingo (asp) and CP-SAT (circuit) exclude the loop and find nothing else
    for entry in generate.generate("masyu", [(16, 16)], 1, seed=11):
        assert kinds.check(entry.puzzle, entry.solution) == []
        assert is_unique(entry.puzzle, entry.solution, "asp").unique == 1
        assert is_unique(entry.puzzle, entry.solution, "circuit").unique == 1


def test_the_check_budget_is_a_count_that_shrinks_past_50x50():
    assert masyu_generate.max_checks(100) == masyu_generate.max_checks(2500) == 60
    assert masyu_generate.max_checks(10_000) == 15
    assert masyu_generate.max_checks(4900) == 30
    assert masyu_generate.max_checks(40_000) == 3


def test_the_loop_is_simple_and_covers_most_of_the_grid():
    grid = Grid(12, 15)
    solution = masyu_generate.random_loop(grid, random.Random(1), coverage=0.9)
    bits = parse_solution(grid, solution)
    on = [cell for cell in grid.cells if bits[cell]]
    assert len(on) >= 0.85 * grid.num_cells
    # every allowed pearl is one the checker accepts on this loop
    pearls = masyu_generate.allowed_pearls(grid, solution)
    from harness.kinds.masyu.model import Masyu

    assert kinds.check(Masyu(grid, pearls), solution) == []


def test_the_same_seed_gives_the_bundled_puzzles_again():
    # instances/masyu/generated.tsv.gz came from seed 2026 (its PROVENANCE note has the command)
    from harness import sets

    again = generate.generate("masyu", [(10, 10)], 3, seed=2026, time_s=20)
    bundled = {inst.name: inst for inst in sets.instances("masyu-generated")}
    for entry in again:
        assert entry.puzzle == bundled[entry.name].puzzle, entry.name
        assert entry.solution == bundled[entry.name].known_solution, entry.name
