"""The independent Masyu checker: hand-made loops, one crafted violation per rule, and brute-force counts."""

from __future__ import annotations

from itertools import combinations

import pytest

from harness.grid import Grid, solution_string
from harness.kinds.masyu.check import check
from harness.kinds.masyu.model import Masyu, Pearl

W, B = Pearl.WHITE, Pearl.BLACK


def puzzle(rows: int, cols: int, pearls: dict | None = None, full: bool = False) -> Masyu:
    return Masyu(Grid(rows, cols), pearls or {}, full=full)


def rectangle(grid: Grid, top: int, left: int, bottom: int, right: int) -> str:
    """The solution string of the loop around the rectangle of cells (top, left)..(bottom, right)."""
    ring = [(top, c) for c in range(left, right)] + [(r, right) for r in range(top, bottom)]
    ring += [(bottom, c) for c in range(right, left, -1)] + [(r, left) for r in range(bottom, top, -1)]
    return solution_string(grid, zip(ring, ring[1:] + ring[:1], strict=True))


def test_smallest_loop_is_accepted():
    assert check(puzzle(2, 2), "9c/36") == []
    assert rectangle(Grid(2, 2), 0, 0, 1, 1) == "9c/36"


def test_pearls_satisfied_on_a_rectangle():
    # 3x4 border loop: corners are turns, (0,1) is straight next to the corner (0,0).
    grid = Grid(3, 4)
    solution = rectangle(grid, 0, 0, 2, 3)
    assert check(puzzle(3, 4, {(0, 0): B, (0, 1): W, (1, 3): W, (2, 3): B}), solution) == []


@pytest.mark.parametrize(
    ("rows", "cols", "solution", "complaint"),
    [
        (2, 4, "9c9c/3636", "more than one loop"),
        (1, 3, "154", "has 1 loop ends"),
        (2, 3, "9dc/376", "has 3 loop ends"),
        (2, 2, "9c/34", "does not come back"),
        (1, 1, "1", "leaves the grid"),
        (2, 2, "00/00", "draws no loop"),
        (2, 2, "9c", "shape"),
        (2, 2, "9c/3g", "not lower-case hex digits"),
    ],
)
def test_malformed_lines_are_reported(rows, cols, solution, complaint):
    problems = check(puzzle(rows, cols), solution)
    assert any(complaint in p for p in problems), problems


@pytest.mark.parametrize(
    ("pearls", "complaint"),
    [
        ({(0, 2): W}, "white pearl at (0, 2) has no turn on either side"),
        ({(0, 0): W}, "white pearl at (0, 0) is not passed straight"),
        ({(0, 2): B}, "black pearl at (0, 2) is passed straight"),
        ({(0, 4): B}, "black pearl at (0, 4) is not followed straight"),  # (1,4) bends at once
        ({(1, 2): W}, "white pearl at (1, 2) is not on the loop"),
    ],
)
def test_pearl_violations_are_reported(pearls, complaint):
    # Loop around the 3x5 border, except that its right side is only two cells tall.
    grid = Grid(3, 5)
    ring = [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 4), (1, 3), (2, 3), (2, 2), (2, 1), (2, 0), (1, 0)]
    solution = solution_string(grid, zip(ring, ring[1:] + ring[:1], strict=True))
    assert any(complaint in p for p in check(Masyu(grid, pearls), solution))


def test_black_pearl_needs_both_neighbours_straight():
    # Black at a corner of the 2x2 loop: both neighbours are corners as well.
    problems = check(puzzle(2, 2, {(0, 0): B}), "9c/36")
    assert len([p for p in problems if "not followed straight" in p]) == 2


def test_full_flag_wants_every_cell():
    grid = Grid(3, 3)
    assert check(puzzle(3, 3, full=True), rectangle(grid, 0, 0, 2, 2)) == ["cell (1, 1) is not on the loop"]
    assert check(puzzle(2, 2, full=True), "9c/36") == []


def count_accepted(rows: int, cols: int) -> int:
    """How many of the 2^|E| edge subsets of an empty rows x cols puzzle the checker accepts."""
    grid, empty = Grid(rows, cols), puzzle(rows, cols)
    edges = grid.edges
    return sum(
        not check(empty, solution_string(grid, chosen))
        for k in range(len(edges) + 1)
        for chosen in combinations(edges, k)
    )


@pytest.mark.parametrize(("rows", "cols", "cycles"), [(2, 2, 1), (2, 3, 3), (2, 4, 6), (3, 3, 13)])
def test_accepted_subsets_are_exactly_the_cycles(rows, cols, cycles):
    # Cycles of the grid graph: a 2xn ladder has n(n-1)/2, the 3x3 grid 13 (OEIS A140517).
    assert count_accepted(rows, cols) == cycles
