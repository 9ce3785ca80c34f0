"""The `asp` strategy beyond the conformance suite: one answer set per loop, Slitherlink, the time limit.

The conformance suite already runs `asp` on every Masyu test (it is in the registry). Here: the
root choice is sound and leaves one answer set per loop (counted against brute force); the
Slitherlink clue rules agree with brute force judged by a clue count written here; the solve
is cancelled at the limit.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from harness.encoding import Limits
from harness.grid import Cell, Grid, edge, solution_edges, solution_string
from harness.kinds.masyu.model import Masyu, Pearl
from harness.kinds.slitherlink.model import Slitherlink

clingo = pytest.importorskip("clingo")

from loopbench_encodings import loop  # noqa: E402
from loopbench_encodings.asp import Asp  # noqa: E402
from loopbench_encodings.loop import asp as program  # noqa: E402

LIMITS = Limits(time_s=30.0)


def slitherlink(rows: int, cols: int, clues: dict[Cell, int | None]) -> Slitherlink:
    """A puzzle from numbers by cell; None is a `?` clue (shown, constraining nothing)."""
    numbers = {cell: k for cell, k in clues.items() if k is not None}
    return Slitherlink(Grid(rows, cols), numbers, frozenset(clues) - set(numbers))


@cache
def all_loops(rows: int, cols: int) -> tuple[str, ...]:
    """Every simple cycle of a rows x cols grid graph, as solution strings."""
    import networkx as nx

    grid = Grid(rows, cols)
    out = []
    for cycle in nx.simple_cycles(nx.Graph(grid.edges)):
        steps = zip(cycle, cycle[1:] + cycle[:1], strict=True)
        out.append(solution_string(grid, [edge(a, b) for a, b in steps]))
    return tuple(out)


def count_answer_sets(puzzle) -> int:
    ctl = clingo.Control(["0"])
    ctl.add("base", [], program.program(puzzle, loop.problem(puzzle)))
    ctl.ground([("base", [])])
    models = []
    ctl.solve(on_model=lambda m: models.append(m.symbols(shown=True)))
    return len(models)


@pytest.mark.parametrize(("rows", "cols"), [(1, 3), (2, 2), (2, 4), (3, 3), (4, 4), (3, 5)])
def test_without_required_vertices_every_loop_is_exactly_one_answer_set(rows: int, cols: int) -> None:
    """The root is the first on-loop vertex: no loop lost, none counted twice, no two loops together."""
    assert count_answer_sets(Masyu(Grid(rows, cols))) == len(all_loops(rows, cols))


def test_with_pearls_every_answer_is_exactly_one_answer_set() -> None:
    """The root is the first pearl; the answers are judged by the Masyu checker."""
    from harness import kinds

    puzzles = [Masyu(Grid(4, 4), {(2, 1): Pearl.WHITE}), Masyu(Grid(4, 5), {(1, 1): Pearl.BLACK}),
               Masyu(Grid(4, 4), {(0, 1): Pearl.WHITE, (2, 2): Pearl.BLACK})]
    for puzzle in puzzles:
        answers = [s for s in all_loops(puzzle.rows, puzzle.cols) if not kinds.check(puzzle, s)]
        assert answers and count_answer_sets(puzzle) == len(answers), kinds.write_text(puzzle)


# --- Slitherlink through the stand-in ---------------------------------------------------------------

def clue_counts_hold(puzzle: Slitherlink, solution: str) -> bool:
    """Written from the rule: each numbered cell has that many of its four sides on the loop."""
    on = solution_edges(Grid(puzzle.rows + 1, puzzle.cols + 1), solution)
    for (r, c), k in puzzle.clues.items():
        top, left = ((r, c), (r, c + 1)), ((r, c), (r + 1, c))
        bottom, right = ((r + 1, c), (r + 1, c + 1)), ((r, c + 1), (r + 1, c + 1))
        sides = (top, bottom, left, right)
        if k is not None and sum(s in on for s in sides) != k:
            return False
    return True


def brute_force(puzzle: Slitherlink) -> list[str]:
    return [s for s in all_loops(puzzle.rows + 1, puzzle.cols + 1) if clue_counts_hold(puzzle, s)]


FORMATS_EXAMPLE = slitherlink(5, 5, {
    (r, c): int(ch) for r, line in enumerate(["2..1.", ".2..1", "..2..", "3..3.", ".0..3"])
    for c, ch in enumerate(line) if ch != "."
})


def test_slitherlink_example_of_formats_md_has_its_one_loop() -> None:
    solver = Asp()
    first = solver.solve(FORMATS_EXAMPLE, LIMITS, 0)
    assert (first.status, first.solution) == ("sat", "95555c/a95c0a/aa960a/aaa9ca/3636aa/000036")
    assert solver.solve(FORMATS_EXAMPLE, LIMITS, 0, exclude=(first.solution,)).status == "unsat"


def random_slitherlinks(count: int, rows: int, cols: int, seed: int, fewest: int = 0) -> list[Slitherlink]:
    rng = random.Random(seed)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    return [slitherlink(rows, cols, {cell: rng.choice([0, 1, 2, 3, None])
                                     for cell in rng.sample(cells, rng.randint(fewest, fewest + 3))})
            for _ in range(count)]


def test_slitherlink_is_sat_or_unsat_as_brute_force_says() -> None:
    puzzles = random_slitherlinks(30, 3, 3, seed=4, fewest=2) + random_slitherlinks(10, 1, 4, seed=3)
    puzzles += [slitherlink(1, 1, {(0, 0): 4}), slitherlink(2, 2, {(0, 0): 4, (1, 1): 4})]
    for i, puzzle in enumerate(puzzles):
        answers = brute_force(puzzle)
        outcome = Asp().solve(puzzle, LIMITS, seed=i)
        assert outcome.status == ("sat" if answers else "unsat"), puzzle.clues
        assert not answers or outcome.solution in answers


def test_slitherlink_excluding_each_answer_found_enumerates_exactly_the_brute_force_answers() -> None:
    puzzles = random_slitherlinks(12, 2, 2, seed=5) + random_slitherlinks(6, 2, 3, seed=6, fewest=1)
    solver = Asp()
    for puzzle in puzzles:
        found: list[str] = []
        while (outcome := solver.solve(puzzle, LIMITS, 0, exclude=tuple(found))).status == "sat":
            found.append(outcome.solution)
        assert outcome.status == "unsat"
        assert sorted(found) == sorted(brute_force(puzzle)), puzzle.clues


def test_slitherlink_is_served_once_its_kind_exists() -> None:
    from harness import kinds

    assert ("slitherlink" in Asp.puzzles) == ("slitherlink" in kinds.names())
    assert "masyu" in Asp.puzzles


# --- limits, options, statistics ----------------------------------------------------------------------

def test_the_solve_is_cancelled_at_the_time_limit() -> None:
    # Every cell of an odd square: no closed tour exists, and clingo cannot show it in half a second.
    outcome = Asp().solve(Masyu(Grid(21, 21), full=True), Limits(time_s=0.5), 0)
    assert outcome.status == "unknown" and "cancelled" in outcome.stats["reason"]


@pytest.mark.parametrize("configuration", ["auto", "many", "tweety"])
def test_configurations_and_seeds_solve_and_report_statistics(configuration: str) -> None:
    puzzle = Masyu(Grid(6, 6), {(1, 1): Pearl.BLACK, (3, 4): Pearl.WHITE, (4, 1): Pearl.WHITE})
    outcome = Asp(configuration=configuration).solve(puzzle, LIMITS, seed=7)
    assert outcome.status == "sat"
    stats = outcome.stats
    assert stats["build_s"] > 0 and stats["iterations"] == 1 and stats["cuts"] == 0
    assert stats["conflicts"] >= 0 and stats["choices"] >= 0 and stats["clingo_total_s"] > 0


def test_an_unknown_configuration_is_refused() -> None:
    with pytest.raises(ValueError, match="configuration"):
        Asp(configuration="bogus")  # clingo would read it as a configuration file's name
