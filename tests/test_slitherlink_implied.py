"""Slitherlink's clue clauses and implied clauses: the clue CNF says exactly "k of the four sides",
the implied clauses hold in every answer (checked against every single loop of small grids, brute
force), and every loop strategy with and without them finds the same unique solutions."""

from __future__ import annotations

import itertools
import math
import random
from functools import cache

import pytest

from harness import sets
from harness.encoding import Limits
from harness.grid import Grid, solution_edges
from harness.kinds import check
from harness.kinds.slitherlink import rules
from harness.kinds.slitherlink.generate import count_sides, random_region, rim
from harness.kinds.slitherlink.model import Slitherlink, sides
from harness.run.execute import execute
from loopbench_encodings import loop


@cache
def every_loop(rows: int, cols: int) -> list[tuple[frozenset, str, tuple[int, ...]]]:
    """Every single loop on a rows x cols Slitherlink (the rims of the cell sets whose rim is one
    loop), with every cell's count of sides on it."""
    grid = Grid(rows, cols)
    out = []
    for bits in range(1, 1 << grid.num_cells):
        region = {cell for i, cell in enumerate(grid.cells) if bits >> i & 1}
        solution = rim(grid, region)
        if not check(Slitherlink(grid, {}), solution):
            out.append((frozenset(region), solution, tuple(count_sides(grid, region, c) for c in grid.cells)))
    return out


def answers(puzzle: Slitherlink) -> list[str]:
    """Every solution of a small puzzle, by brute force."""
    index = {cell: i for i, cell in enumerate(puzzle.grid.cells)}
    return [s for _, s, counts in every_loop(puzzle.rows, puzzle.cols)
            if all(counts[index[cell]] == k for cell, k in puzzle.clues.items()) and not check(puzzle, s)]


def holds(puzzle: Slitherlink, solution: str) -> list[list[int]]:
    """The implied clauses that `solution` breaks."""
    arrays = loop.problem(puzzle).arrays
    on = {arrays.var(*e) for e in solution_edges(puzzle.vertices, solution)}
    return [clause for clause in rules.implied_clauses(puzzle)
            if not any((x > 0) == (abs(x) in on) for x in clause)]


def test_the_clue_clauses_allow_exactly_the_patterns_with_k_sides_on():
    puzzle = Slitherlink(Grid(2, 3), {(1, 1): 0})
    arrays = loop.problem(puzzle).arrays
    lits = [arrays.var(*e) for e in sides((1, 1))]
    for k in range(5):
        clauses = rules.cnf(Slitherlink(Grid(2, 3), {(1, 1): k}), arrays)
        assert {abs(x) for clause in clauses for x in clause} == set(lits)
        # the direct encoding: every k + 1 sides not all on, every 5 - k not all off
        assert len(clauses) == math.comb(4, k + 1) + (math.comb(4, 5 - k) if k else 0)
        for pattern in itertools.product((False, True), repeat=4):
            on = {x for x, bit in zip(lits, pattern, strict=True) if bit}
            kept = all(any((x > 0) == (abs(x) in on) for x in clause) for clause in clauses)
            assert kept == (sum(pattern) == k), (k, pattern)


def test_the_clue_clauses_hold_a_subset_of_every_demand_clause_they_stand_for():
    for puzzle in small_random_puzzles(30) + [x.puzzle for x in sets.instances("slither-smoke")]:
        arrays = loop.problem(puzzle).arrays
        demands = [[i + 1 for i in arrays.incident[v]] for v in arrays.required]
        demands += [[i + 1 for i in group] for group in arrays.hits]
        own = [set(clause) for clause in rules.cnf(puzzle, arrays)]
        if rules.cnf_covers_demands(puzzle):
            assert demands and all(any(c <= set(d) for c in own) for d in demands), puzzle
        else:
            assert puzzle.full


def test_side_vars_number_the_sides_as_the_loop_graph_does():
    for rows, cols in ((1, 1), (2, 5), (4, 3)):
        puzzle = Slitherlink(Grid(rows, cols), {})
        arrays = loop.problem(puzzle).arrays
        for cell in puzzle.grid.cells:
            assert rules.side_vars(rows, cols, *cell) == tuple(arrays.var(*e) for e in sides(cell))


@pytest.mark.parametrize(("rows", "cols"), [(1, 2), (2, 2), (2, 3), (3, 3), (3, 4), (2, 6)])
def test_every_answer_of_random_puzzles_keeps_every_implied_clause(rows, cols):
    grid = Grid(rows, cols)
    loops = every_loop(rows, cols)
    rng = random.Random(f"{rows}x{cols}")
    tried = 0
    for _ in range(150):
        region = rng.choice(loops)[0]
        share = rng.choice([1.0, 0.8, 0.5, 0.3])
        clues = {cell: count_sides(grid, region, cell) for cell in grid.cells if rng.random() < share}
        puzzle = Slitherlink(grid, clues, full=rng.random() < 0.05)
        found = answers(puzzle)
        for solution in found:
            assert holds(puzzle, solution) == [], (puzzle, solution)
        tried += len(found)
    assert tried >= 150


def test_the_two_threes_rule_steps_aside_when_their_rectangle_is_the_answer():
    # 1x2 with 3 3: the only loop is the rectangle, the shared side off
    puzzle = Slitherlink(Grid(1, 2), {(0, 0): 3, (0, 1): 3})
    (solution,) = answers(puzzle)
    assert holds(puzzle, solution) == []
    # with a clue it breaks, the rule applies and gives the shared side as a unit
    bigger = Slitherlink(Grid(2, 3), {(0, 0): 3, (0, 1): 3, (1, 2): 2})
    arrays = loop.problem(bigger).arrays
    assert [arrays.var((0, 1), (1, 1))] in rules.implied_clauses(bigger)


def small_random_puzzles(count: int) -> list[Slitherlink]:
    rng, out = random.Random(2026), []
    for rows, cols in itertools.islice(itertools.cycle([(4, 4), (5, 5), (5, 6), (6, 6)]), count):
        grid = Grid(rows, cols)
        region = random_region(grid, rng, share=rng.uniform(0.2, 0.6))
        clues = {cell: count_sides(grid, region, cell) for cell in grid.cells if rng.random() < 0.5}
        out.append(Slitherlink(grid, clues))
    return out


@pytest.mark.parametrize(("encoding", "count"), [("sat", 50), ("circuit", 20), ("asp", 20)])
def test_each_backend_with_and_without_them_agrees_on_smoke_and_random_puzzles(encoding, count):
    from harness.instances import Instance

    instances = list(sets.instances("slither-smoke"))
    instances += [Instance(f"random{i}", "random", p) for i, p in enumerate(small_random_puzzles(count))]
    for x in instances:
        rows = [execute(x, encoding, {"implied": implied}, 0, Limits(time_s=60), unique=True)
                for implied in ("false", "true")]
        assert rows[0]["status"] == rows[1]["status"], x.name
        assert rows[0]["unique"] == rows[1]["unique"], x.name
        if rows[0]["unique"] == 1:
            assert rows[0]["solution"] == rows[1]["solution"], x.name
