"""The independent Slitherlink checker: a crafted violation per rule, loop counts against a brute force."""

from __future__ import annotations

from itertools import combinations, product

import pytest

from harness import sets
from harness.grid import Grid, solution_edges, solution_string
from harness.kinds.slitherlink.check import check, sides_used
from harness.kinds.slitherlink.formats import boundary
from harness.kinds.slitherlink.model import Slitherlink, sides


def puzzle(rows: int, cols: int, clues: dict | None = None, unknown=(), full: bool = False) -> Slitherlink:
    return Slitherlink(Grid(rows, cols), clues or {}, frozenset(unknown), full)


def around(p: Slitherlink, cells) -> str:
    """The solution string of the boundary of a set of cells."""
    return solution_string(p.vertices, boundary(p.grid, cells))


def test_loops_that_meet_every_clue_pass():
    assert check(puzzle(1, 1, {(0, 0): 4}), "9c/36") == []
    p = puzzle(2, 3, {(0, 0): 3, (0, 1): 3, (1, 2): 0, (1, 1): 1})
    assert around(p, {(0, 0), (0, 1)}) == "95c0/3560/0000"
    assert check(p, around(p, {(0, 0), (0, 1)})) == []


@pytest.mark.parametrize(
    ("rows", "cols", "solution", "complaint"),
    [
        (1, 1, "9c", "solution shape does not match a 2x2 grid"),
        (1, 1, "9c/3G", "not lower-case hex digits"),
        (1, 1, "9d/36", "vertex (0, 1) leaves the grid going right"),
        (1, 1, "9c/34", "vertex (0, 1) goes down but (1, 1) does not come back"),
        (1, 2, "154/000", "vertex (0, 0) has 1 loop ends (must be 0 or 2)"),
        (1, 2, "9dc/376", "vertex (0, 1) has 3 loop ends"),
        (1, 1, "00/00", "the solution draws no loop"),
        (1, 3, "9c9c/3636", "the lines form more than one loop (4 of 8 vertices connected)"),
    ],
)
def test_malformed_lines_are_reported(rows, cols, solution, complaint):
    assert any(complaint in problem for problem in check(puzzle(rows, cols), solution))


def test_a_loop_touching_itself_at_a_vertex_is_refused():
    # the boundary of two diagonal cells passes the centre vertex twice
    p = puzzle(2, 2)
    assert check(p, around(p, {(0, 0), (1, 1)})) == ["vertex (1, 1) has 4 loop ends (must be 0 or 2)"]


def test_wrong_clues_are_each_reported_with_the_count():
    p = puzzle(1, 3, {(0, 0): 3, (0, 1): 0, (0, 2): 2})
    assert check(p, around(p, {(0, 0), (0, 1)})) == [
        "clue 0 at cell (0, 1) has 3 sides on the loop", "clue 2 at cell (0, 2) has 1 side on the loop"]


def test_clues_are_judged_even_when_there_are_two_loops():
    p = puzzle(1, 3, {(0, 1): 1})
    assert check(p, "9c9c/3636") == ["the lines form more than one loop (4 of 8 vertices connected)",
                                     "clue 1 at cell (0, 1) has 2 sides on the loop"]


def test_unknown_clues_constrain_nothing():
    p = puzzle(1, 2, unknown={(0, 0), (0, 1)})
    assert check(p, around(p, {(0, 0)})) == [] and check(p, around(p, {(0, 0), (0, 1)})) == []


def test_every_vertex_flag():
    p = puzzle(2, 3, full=True)
    assert check(p, around(p, set(p.grid.cells))) == ["vertex (1, 1) is not on the loop",
                                                     "vertex (1, 2) is not on the loop"]
    # a U open at the bottom middle passes all twelve vertices
    assert check(p, around(p, set(p.grid.cells) - {(1, 1)})) == []


def test_sides_helper_agrees_with_the_checkers_count():
    p = puzzle(3, 3)
    for cells in ({(1, 1)}, {(0, 0), (0, 1), (1, 1)}, {(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)}):
        solution = around(p, cells)
        used = solution_edges(p.vertices, solution)
        bits = {(r, c): int(ch, 16) for r, row in enumerate(solution.split("/")) for c, ch in enumerate(row)}
        for cell in p.grid.cells:
            assert sides_used(bits, cell) == len(used & set(sides(cell))), (cells, cell)


# --- counts: the checker against an independent brute force over shadings ----------------------------

def checker_count(p: Slitherlink) -> int:
    """How many of the 2^|E| edge subsets of the vertex grid the checker accepts."""
    edges = p.vertices.edges
    return sum(not check(p, solution_string(p.vertices, chosen))
               for k in range(len(edges) + 1) for chosen in combinations(edges, k))


def shading_count(p: Slitherlink) -> int:
    """How many cell sets bound one simple loop meeting the clues (a loop read as the border of its inside).

    The border of a set of cells S is one simple loop exactly when S is non-empty and 4-connected, the
    cells outside S reach the grid's border through cells outside S, and no 2x2 block of cells is a
    checkerboard (the border would touch itself at the block's centre).
    """
    cells = p.grid.cells
    count = 0
    for pattern in product((False, True), repeat=len(cells)):
        inside = {cell for cell, x in zip(cells, pattern, strict=True) if x}
        outside = set(cells) - inside
        on_border = [c for c in outside if c[0] in (0, p.rows - 1) or c[1] in (0, p.cols - 1)]
        if (inside and _reach(p.grid, inside, [min(inside)]) == inside
                and _reach(p.grid, outside, on_border) == outside
                and not _checkerboard(p.grid, inside) and _clues_met(p, inside)):
            count += 1
    return count


def _reach(grid: Grid, group: set, starts: list) -> set:
    """The cells of `group` reachable from `starts` by steps between 4-neighbours in `group`."""
    seen, stack = set(starts), list(starts)
    while stack:
        for _, nxt in grid.neighbours(stack.pop()):
            if nxt in group and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def _checkerboard(grid: Grid, inside: set) -> bool:
    for r in range(grid.rows - 1):
        for c in range(grid.cols - 1):
            a, b = (r, c) in inside, (r + 1, c + 1) in inside
            x, y = (r, c + 1) in inside, (r + 1, c) in inside
            if a == b and x == y and a != x:
                return True
    return False


def _clues_met(p: Slitherlink, inside: set) -> bool:
    def differs(cell, other):
        return (cell in inside) != (other in inside)  # cells past the border are outside
    return all(sum(differs((r, c), (r + dr, c + dc)) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))) == clue
               for (r, c), clue in p.clues.items())


@pytest.mark.parametrize(
    ("rows", "cols", "clues", "loops"),
    [
        (1, 1, {}, 1),
        (2, 2, {}, 13),  # the cycles of the 3x3 grid graph (OEIS A140517)
        (1, 3, {}, 6),  # a ladder of 4 rungs: 4*3/2 cycles
        (3, 1, {}, 6),
        (2, 2, {(0, 0): 3}, 4),
        (2, 2, {(0, 0): 0}, 1),
        (2, 2, {(0, 0): 2, (1, 1): 2}, 3),
        (2, 2, {(0, 1): 1, (1, 0): 1}, 2),
        (2, 2, {(0, 0): 4}, 1),
        (2, 2, {(0, 0): 3, (1, 1): 3}, 2),
        (1, 3, {(0, 1): 2}, 1),
    ],
)
def test_checker_counts_loops_as_the_shading_brute_force_does(rows, cols, clues, loops):
    p = puzzle(rows, cols, clues)
    assert checker_count(p) == shading_count(p) == loops


def test_smoke_solutions_meet_their_clues_through_the_sides_helper():
    # the model's `sides` (for encodings) and the checker's own reading agree on real puzzles
    for inst in sets.instances("slither-smoke"):
        p, used = inst.puzzle, solution_edges(inst.puzzle.vertices, inst.known_solution)
        assert check(p, inst.known_solution) == []
        assert all(len(used & set(sides(cell))) == clue for cell, clue in p.clues.items()), inst.name
