"""Grid geometry and the Masyu solution string, checked against FORMATS.md's examples."""

import pytest

from harness.grid import Direction, Grid, edge, parse_solution, solution_edges, solution_string
from harness.kinds import read_text, write_text
from harness.kinds.masyu.model import Masyu, Pearl


def test_edge_counts_and_incidence():
    grid = Grid(3, 4)
    assert len(grid.edges) == 3 * 3 + 2 * 4
    assert len(set(grid.edges)) == len(grid.edges)
    assert len(grid.incident[(0, 0)]) == 2
    assert len(grid.incident[(1, 1)]) == 4
    assert len(grid.incident[(0, 1)]) == 3


def test_directions_are_tatham_bits():
    assert [d.value for d in Direction] == [1, 2, 4, 8]
    assert Grid(2, 2).step((0, 0), Direction.RIGHT) == (0, 1)
    assert Grid(2, 2).step((0, 0), Direction.UP) is None
    assert Direction.UP.opposite is Direction.DOWN


def test_smallest_loop_is_9c_36():
    grid = Grid(2, 2)
    assert solution_string(grid, grid.edges) == "9c/36"
    assert solution_edges(grid, "9c/36") == set(grid.edges)


def test_straight_passes():
    grid = Grid(1, 3)
    assert solution_string(grid, [edge((0, 0), (0, 1)), edge((0, 1), (0, 2))]) == "154"
    assert solution_string(Grid(3, 1), [((0, 0), (1, 0)), ((1, 0), (2, 0))]) == "8/a/2"


def test_parse_solution_rejects_bad_shape():
    with pytest.raises(ValueError):
        parse_solution(Grid(2, 2), "9c")
    with pytest.raises(ValueError):
        parse_solution(Grid(2, 2), "9g/36")
    for off_format in ("9C/36", "9c/\u0663\u0666"):  # upper case, Arabic-Indic digits: int() takes both
        with pytest.raises(ValueError, match="lower-case hex"):
            parse_solution(Grid(2, 2), off_format)


def test_puzzle_identity_and_plain_text_with_its_kind():
    a = Masyu(Grid(2, 3), {(0, 1): Pearl.WHITE, (1, 2): Pearl.BLACK})
    b = Masyu(Grid(2, 3), {(1, 2): Pearl.BLACK, (0, 1): Pearl.WHITE})
    assert a == b and hash(a) == hash(b)
    assert write_text(a) == "masyu 2 3\n- w -\n- - b\n"
    assert read_text("2 3\n- w -\n- - b\n") == a == read_text(write_text(a))  # no kind word: Masyu
    with pytest.raises(ValueError):
        Masyu(Grid(2, 2), {(2, 0): Pearl.WHITE})
