"""`cuts=disc`: a loop's inside found right, every disc cut kept by every answer, answers enumerated whole."""

from __future__ import annotations

import random
from functools import cache

import networkx as nx
import pytest
from helpers import bundled

from harness import kinds, registry
from harness.encoding import Limits
from harness.grid import Grid
from harness.kinds.masyu.model import Masyu, Pearl
from harness.kinds.slitherlink.model import Slitherlink
from harness.kinds.slitherlink.rules import side_vars
from harness.proof.certify import CERTIFIED, certify
from harness.proof.cuts import check_cuts
from harness.proof.drat import read_cnf
from loopbench_encodings import loop

LIMITS = Limits(time_s=30.0)


def cycles(puzzle) -> list[tuple[list[int], list[int]]]:
    """Every simple cycle of the puzzle's loop graph (a grid) as (vertices, edge indices)."""
    graph = loop.problem(puzzle).graph
    return _cycles(graph.rows, graph.cols)


@cache
def _cycles(rows: int, cols: int) -> list[tuple[list[int], list[int]]]:
    graph = loop.problem(Slitherlink(Grid(rows - 1, cols - 1), {})).graph  # a rows x cols grid of corners
    out = []
    for ring in nx.simple_cycles(nx.Graph(graph.ends)):
        out.append((ring, [graph.between(a, b) for a, b in zip(ring, ring[1:] + ring[:1], strict=True)]))
    return out


def answers(puzzle) -> list[frozenset[int]]:
    """Every answer by brute force, each as its edge indices: the cycles the checker accepts (of those
    through every required vertex with each clue's count of sides, what the checker would ask first)."""
    problem = loop.problem(puzzle)
    graph = problem.graph
    required = set(problem.required)
    clues = [({v - 1 for v in side_vars(puzzle.rows, puzzle.cols, r, c)}, k)
             for (r, c), k in getattr(puzzle, "clues", {}).items()]  # Slitherlink's: exactly k sides
    out = []
    for vertices, edges in _cycle_sets(graph.rows, graph.cols):
        if required <= vertices and all(len(edges.intersection(sides)) == k for sides, k in clues):
            if not kinds.check(puzzle, problem.solution(edges)):
                out.append(edges)
    return out


@cache
def _cycle_sets(rows: int, cols: int) -> list[tuple[frozenset[int], frozenset[int]]]:
    return [(frozenset(vertices), frozenset(edges)) for vertices, edges in _cycles(rows, cols)]


def inside_by_faces(graph, edges: list[int]) -> set[int]:
    """The vertices inside a grid loop, found apart from `enclosed`: the unit squares the outside
    cannot reach without crossing the loop are inside, and a vertex off the loop is inside with them."""
    rows, cols, on_loop = graph.rows, graph.cols, set(edges)
    faces = {(i, j) for i in range(rows - 1) for j in range(cols - 1)}

    def crossings(i: int, j: int):  # each neighbouring face (off the grid: the outside), the edge between
        yield (i - 1, j), graph.between(i * cols + j, i * cols + j + 1)
        yield (i + 1, j), graph.between((i + 1) * cols + j, (i + 1) * cols + j + 1)
        yield (i, j - 1), graph.between(i * cols + j, (i + 1) * cols + j)
        yield (i, j + 1), graph.between(i * cols + j + 1, (i + 1) * cols + j + 1)

    outside = {f for f in faces for g, e in crossings(*f) if g not in faces and e not in on_loop}
    todo = list(outside)
    while todo:
        for g, e in crossings(*todo.pop()):
            if g in faces and g not in outside and e not in on_loop:
                outside.add(g)
                todo.append(g)
    inside = faces - outside
    loop_vertices = {v for i in edges for v in graph.ends[i]}
    return {i * cols + j for i in range(rows) for j in range(cols) if i * cols + j not in loop_vertices
            and any((a, b) in inside for a in (i - 1, i) for b in (j - 1, j))}


@pytest.mark.parametrize("rows, cols", [(4, 4), (3, 5)])  # cells: a 5x5 and a 4x6 grid of corners
def test_enclosed_finds_the_inside_of_every_loop_of_a_grid(rows, cols):
    puzzle = Slitherlink(Grid(rows, cols), {})
    graph = loop.problem(puzzle).graph
    seen_inside = 0
    for vertices, edges in cycles(puzzle):
        found = graph.enclosed(edges, set(vertices))
        assert len(found) == len(set(found))
        assert set(found) == inside_by_faces(graph, edges), vertices
        seen_inside += bool(found)
    assert seen_inside > 100  # loops with something inside were met, not only thin ones


def slitherlinks(count: int, seed: int, grid: Grid, clues: tuple[int, int]) -> list[Slitherlink]:
    """Puzzles with at least one answer: the clues of some cells counted around a random loop."""
    rng = random.Random(seed)
    rings = cycles(Slitherlink(grid, {}))
    out = []
    for _ in range(count):
        on = {i + 1 for i in rng.choice(rings)[1]}
        cells = rng.sample(grid.cells, rng.randint(*clues))
        out.append(Slitherlink(grid, {(r, c): len(on.intersection(side_vars(grid.rows, grid.cols, r, c)))
                                      for r, c in cells}))
    return out


def masyus(count: int, seed: int) -> list[Masyu]:
    """4x4 puzzles of one to three random pearls that have an answer."""
    rng = random.Random(seed)
    grid = Grid(4, 4)
    out: list[Masyu] = []
    while len(out) < count:
        puzzle = Masyu(grid, {c: rng.choice(list(Pearl)) for c in rng.sample(grid.cells, rng.randint(1, 3))})
        if answers(puzzle):
            out.append(puzzle)
    return out


def drawings(puzzle, count: int, rng: random.Random) -> list[list[int]]:
    """Sets of vertex-disjoint loops, some nested, as chosen edges: small ones, at times beside a long one."""
    rings = cycles(puzzle)
    small = [ring for ring in rings if len(ring[1]) <= 12]  # up to 3x3 cells round
    out = []
    for _ in range(count):
        used: set[int] = set()
        chosen: list[int] = []
        wanted = rng.randint(1, 4)
        first = rng.choice(rings if rng.random() < 0.3 else small)
        for vertices, edges in [first, *rng.sample(small, len(small))]:
            if used.isdisjoint(vertices):
                used.update(vertices)
                chosen += edges
                wanted -= 1
                if not wanted:
                    break
        out.append(chosen)
    return out


def judge_disc_cuts(puzzles) -> tuple[int, int]:
    """Cut random drawings of each puzzle with `cuts=disc` and assert that every answer keeps every cut
    (and the drawing breaks it); how many disc cuts were made, and how many round a loop with an inside."""
    rng = random.Random(7)
    leaving = around_something = 0
    for puzzle in puzzles:
        problem = loop.problem(puzzle)
        every = answers(puzzle)
        for chosen in drawings(puzzle, 60, rng):
            cuts, _ = problem.arrays.split(chosen, "disc")
            on = set(chosen)
            for cut in cuts:
                use, leave = {lit - 1 for lit in cut if lit > 0}, {-lit - 1 for lit in cut if lit < 0}
                assert use.isdisjoint(on) and leave <= on
                for answer in every:
                    assert not use.isdisjoint(answer) or not leave <= answer, (kinds.write_text(puzzle), cut)
                leaving += bool(use)
            for vertices, edges in problem.arrays.walk(chosen):
                if problem.graph.enclosed(edges, set(vertices)):
                    around_something += problem.arrays.leaving(vertices, edges) in cuts
    return leaving, around_something


def test_every_disc_cut_is_kept_by_every_answer():
    # many clues, and few (all of them inside some small loop: a disc that must not be left)
    grid = Grid(4, 5)
    puzzles = slitherlinks(4, seed=3, grid=grid, clues=(6, 10))
    puzzles += slitherlinks(2, seed=5, grid=grid, clues=(1, 2))
    leaving, around_something = judge_disc_cuts(puzzles)
    assert leaving > 50 and around_something > 5, (leaving, around_something)


@pytest.mark.parametrize("encoding", ["sat", "lazy"])
def test_disc_cuts_enumerate_exactly_the_brute_force_answers(encoding):
    solver = registry.create(encoding, cuts="disc")
    for puzzle in slitherlinks(6, seed=11, grid=Grid(3, 3), clues=(3, 6)) + masyus(6, seed=12):
        problem = loop.problem(puzzle)
        found: list[str] = []
        while (outcome := solver.solve(puzzle, LIMITS, 0, exclude=tuple(found))).status == "sat":
            found.append(outcome.solution)
        assert outcome.status == "unsat"
        expected = sorted(problem.solution(edges) for edges in answers(puzzle))
        assert sorted(found) == expected, kinds.write_text(puzzle)


def test_a_uniqueness_proof_with_disc_cuts_is_certified():
    instance = bundled("janko-sl-0021", "slither-smoke")
    solver = registry.create("sat", proof="true", cuts="disc")
    first = solver.solve(instance.puzzle, LIMITS, 0)
    again = solver.solve(instance.puzzle, LIMITS, 0, exclude=(first.solution,))
    assert again.status == "unsat"
    proof = again.stats["proof"]
    cuts = [proof.clauses[k] for k, mark in proof.marks.items() if mark == "cut"]
    assert any(all(lit > 0 for lit in clause) for clause in cuts)  # the checker judged edges leaving a disc
    checked = certify(proof, instance.puzzle, options=solver.options, answer=first.solution)
    assert checked["verdict"] == CERTIFIED


def test_the_propagator_refuses_disc_cuts():
    with pytest.raises(ValueError, match="cuts"):
        registry.create("propagator", cuts="disc")


def test_the_proof_checker_takes_a_disc_with_a_demand_in_it_and_refuses_one_without():
    """Edges leaving a 3's corners (required) hold for every answer; leaving corners far from clues, not."""
    instance = bundled("janko-sl-0032", "slither-smoke")  # a cell with no clue beside it, and a 3
    puzzle, graph = instance.puzzle, loop.problem(instance.puzzle).graph

    def leaving(r: int, c: int) -> str:  # the clause of the edges leaving cell (r, c)'s corners
        corners = {v for x in side_vars(puzzle.rows, puzzle.cols, r, c) for v in graph.ends[x - 1]}
        edges = {i for v in corners for i in graph.incident[v] if not corners.issuperset(graph.ends[i])}
        return " ".join(str(i + 1) for i in sorted(edges)) + " 0"

    three = next(cell for cell, k in puzzle.clues.items() if k == 3)
    hollow = next((r, c) for r in range(1, puzzle.rows - 1) for c in range(1, puzzle.cols - 1)
                  if not any((r + dr, c + dc) in puzzle.clues for dr in (-1, 0, 1) for dc in (-1, 0, 1)))
    solver = registry.create("sat", proof="true")
    first = solver.solve(puzzle, LIMITS, 0)
    text = solver.solve(puzzle, LIMITS, 0, exclude=(first.solution,)).stats["proof"].dimacs()
    lines = text.splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("p "))
    _, _, num_vars, num_clauses = lines[at].split()
    lines[at] = f"p cnf {num_vars} {int(num_clauses) + 2}"
    lines += ["c cut", leaving(*three), "c cut", leaving(*hollow)]
    problems = check_cuts(read_cnf("x.cnf", "\n".join(lines) + "\n"), puzzle).problems
    assert len(problems) == 1 and "does not separate two demands" in problems[0]
