"""Conformance: every Masyu encoding in the registry, run through execute() and judged by the checker.

Real instances, bundled with the repository, must be solved and verified, equal to the known
solution where one is stored (matches_known), and the same answer from every encoding (each has a
unique solution); tiny random puzzles must be called sat or unsat exactly as brute force over all
loops of the grid says; a budget far too small must give `unknown`, never an answer. The checks
themselves are tested against a wrong encoding (the dummy), so none of them passes on a lie.
Two encodings promise less, by design, and are held to what they do promise (see INCOMPLETE, SLOW).
"""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from helpers import bundled

from harness import kinds, registry, sets
from harness.encoding import Limits
from harness.grid import Grid, edge, solution_edges, solution_string
from harness.instances import Instance
from harness.kinds.masyu.model import Masyu, Pearl
from harness.presets import PRESETS
from harness.run.execute import execute

ENCODINGS = [name for name in registry.names("masyu") if name != "dummy"]
# From the bundled janko-java collection (the public Java solver's files), 3x3 to 16x19: janko001 and
# janko080 are the classic 6x6 and 16x16, sample/sample2 have no known solution, janko616 has black
# pearls only, janko530 was written with 1/2 pearls and janko667 mixes both spellings; then the
# bundled smoke set (puzzle-masyu and janko.at's own solutions), all with a known solution.
NAMED = ["janko001", "janko080", "sample", "sample2", "janko011", "janko616", "janko205", "janko530",
         "janko667"]
SMOKE = [bundled(name) for name in NAMED]
SMOKE += [i for i in sets.instances("masyu-smoke") if i.content_hash not in {s.content_hash for s in SMOKE}]
LIMITS = Limits(time_s=30.0)
# inference is deduction with one level of hypotheses: on a puzzle with several loops nothing forces an
# answer, so it may stop with `unknown`; what it did decide must then hold in every loop.
INCOMPLETE = {"inference"}
# dfs is a complete search in pure Python, expected to run out of time past about 10x10: beyond that
# many cells it gets a short limit, and must either solve or say `unknown` within it.
SLOW = {"dfs": (100, Limits(time_s=2.0))}
CPSAT_VARIANTS = [
    ("lazy", {"cuts": "cutset"}),
    ("lazy", {"cuts": "disc"}),
    ("lazy", {"hint": True}),
    ("circuit", {"num_workers": 2, "linearization_level": 1, "search_branching": "AUTOMATIC_SEARCH"}),
]


def ident(instance: Instance) -> str:
    return instance.name


def too_big(encoding: str, instance: Instance) -> bool:
    return encoding in SLOW and instance.puzzle.grid.num_cells > SLOW[encoding][0]


@cache
def run(encoding: str, instance: Instance, options: tuple = ()) -> dict:
    limits = SLOW[encoding][1] if too_big(encoding, instance) else LIMITS
    return execute(instance, encoding, dict(options), seed=0, limits=limits)


def in_memory(name: str, puzzle: Masyu) -> Instance:
    return Instance(name=name, source=f"<{name}>", puzzle=puzzle)


def assert_solved(row: dict, instance: Instance) -> None:
    """Solved, a loop the checker accepts, and the known solution where the instance has one."""
    assert row["status"] == "solved", row["detail"]
    assert row["verified"] == 1 and row["solution"]
    assert kinds.check(instance.puzzle, row["solution"]) == []
    if instance.known_solution:
        assert row["matches_known"] == 1 and row["solution"] == instance.known_solution
    else:
        assert "matches_known" not in row


def assert_one_answer(answers: dict[str, str], instance: Instance) -> None:
    """Every encoding gave the same loop, and it is a loop the checker accepts."""
    assert len(set(answers.values())) == 1, answers
    (answer,) = set(answers.values())
    assert answer and kinds.check(instance.puzzle, answer) == [], answers


def test_the_bundled_smoke_instances_are_real_puzzles():
    assert len(SMOKE) >= 18 and sum(bool(i.known_solution) for i in SMOKE) >= 16
    assert max(i.puzzle.rows * i.puzzle.cols for i in SMOKE) >= 16 * 16


@pytest.mark.parametrize("instance", SMOKE, ids=ident)
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_solves_and_is_verified(encoding: str, instance: Instance) -> None:
    row = run(encoding, instance)
    if row["status"] == "unknown" and too_big(encoding, instance):
        assert not row.get("solution")
        return
    if row["status"] == "unknown" and encoding in INCOMPLETE and instance.known_solution:
        decided = solution_edges(instance.puzzle.grid, json.loads(row["extra"])["partial"])
        assert decided <= solution_edges(instance.puzzle.grid, instance.known_solution)
        return
    assert_solved(row, instance)


@pytest.mark.parametrize("instance", SMOKE, ids=ident)
def test_every_encoding_gives_the_same_loop(instance: Instance) -> None:
    # an encoding past its size (`too_big`: dfs on more than 10x10) is left out: it must only stop in
    # its short limit, which test_solves_and_is_verified holds it to
    rows = {encoding: run(encoding, instance) for encoding in ENCODINGS if not too_big(encoding, instance)}
    solved = {e: row.get("solution") for e, row in rows.items() if row["status"] == "solved"}
    assert_one_answer(solved, instance)


@pytest.mark.parametrize(
    ("status", "solution"),
    [("sat", ""), ("sat", "9c/36"), ("unsat", ""), ("unknown", "")],
    ids=["empty-string", "wrong-loop", "unsat", "unknown"],
)
def test_the_checks_reject_a_wrong_encoding(status: str, solution: str) -> None:
    """A dummy that answers wrongly fails every check above: no conformance test passes on a lie."""
    instance = bundled("janko001")
    row = execute(instance, "dummy", {"status": status, "solution": solution}, seed=0, limits=LIMITS)
    with pytest.raises(AssertionError):
        assert_solved(row, instance)
    with pytest.raises(AssertionError):
        assert_one_answer({name: row.get("solution", "") for name in ENCODINGS}, instance)
    right = run(ENCODINGS[0], instance)["solution"]
    with pytest.raises(AssertionError):
        assert_one_answer({ENCODINGS[0]: right, "dummy": row.get("solution", "")}, instance)


@pytest.mark.parametrize(
    ("encoding", "options"),
    CPSAT_VARIANTS,
    ids=[f"{name}-{'-'.join(map(str, opts.values()))}" for name, opts in CPSAT_VARIANTS],
)
@pytest.mark.parametrize("instance", SMOKE[1:4], ids=ident)
def test_cpsat_options_give_the_same_loop(encoding: str, options: dict, instance: Instance) -> None:
    row = run(encoding, instance, tuple(sorted(options.items())))
    assert_solved(row, instance)
    assert row["solution"] == run(ENCODINGS[0], instance)["solution"]


def test_cpsat_statistics() -> None:
    circuit, lazy = run("circuit", SMOKE[1]), run("lazy", SMOKE[1])
    assert (circuit["iterations"], circuit["cuts"]) == (1, 0)
    assert lazy["iterations"] >= 1 and lazy["cuts"] >= lazy["iterations"] - 1
    for row in (circuit, lazy):
        assert row["build_s"] > 0 and row["conflicts"] >= 0
        extra = json.loads(row["extra"])
        assert extra["num_workers"] == 1 and extra["deterministic_time"] > 0 and extra["solver_cpu_s"] > 0
        assert row["build_s"] + extra["solver_cpu_s"] + extra.get("outside_cpu_s", 0) <= row["solve_cpu_s"]
    assert json.loads(lazy["extra"])["outside_cpu_s"] > 0


@pytest.mark.parametrize(
    "options",
    [
        {"num_workers": 0},
        {"search_branching": "NO_SUCH_SEARCH"},
        {"linearization_level": "high"},
    ],
    ids=lambda o: next(iter(o)),
)
@pytest.mark.parametrize("encoding", ["circuit", "lazy"])
def test_cpsat_bad_options_are_errors(encoding: str, options: dict) -> None:
    row = execute(SMOKE[0], encoding, options, seed=0, limits=LIMITS)
    assert row["status"] == "error"


def test_lazy_bad_cut_family_is_an_error() -> None:
    row = execute(SMOKE[0], "lazy", {"cuts": "nonsense"}, seed=0, limits=LIMITS)
    assert row["status"] == "error" and "cuts" in row["detail"]


# Brute force: on a tiny grid every loop is a simple cycle of the grid graph, so a puzzle is
# solvable exactly when the checker accepts one of them.


@cache
def all_loops(rows: int, cols: int) -> tuple[str, ...]:
    import networkx as nx

    grid = Grid(rows, cols)
    graph = nx.Graph(grid.edges)
    loops = []
    for cycle in nx.simple_cycles(graph):
        steps = zip(cycle, cycle[1:] + cycle[:1], strict=True)
        loops.append(solution_string(grid, [edge(a, b) for a, b in steps]))
    return tuple(loops)


@cache
def brute_force(puzzle: Masyu) -> list[str]:
    """Every solution, by the checker; loops that miss a pearl are dropped first, for speed."""
    cols = puzzle.cols + 1  # a solution string has one digit per cell and a "/" after each row
    visits = [(r * cols + c) for r, c in (puzzle.grid.cells if puzzle.full else puzzle.pearls)]
    return [
        s
        for s in all_loops(puzzle.rows, puzzle.cols)
        if all(s[i] != "0" for i in visits) and not kinds.check(puzzle, s)
    ]


def random_puzzles(count: int, rows: int, cols: int, seed: int, fewest: int = 1) -> list[Masyu]:
    rng = random.Random(seed)
    grid = Grid(rows, cols)
    out = []
    for _ in range(count):
        cells = rng.sample(grid.cells, min(grid.num_cells, rng.randint(fewest, 4)))
        out.append(Masyu(grid, {c: rng.choice(list(Pearl)) for c in cells}, full=rng.random() < 0.15))
    return out


def test_brute_force_counts_the_loops_of_a_grid() -> None:
    assert [len(all_loops(n, n)) for n in (2, 3, 4)] == [1, 13, 213]  # OEIS A140517


UNSAT = {
    "black-2x2": Masyu(Grid(2, 2), {(0, 0): Pearl.BLACK}),
    "white-corner": Masyu(Grid(3, 3), {(0, 0): Pearl.WHITE}),
    "full-3x3": Masyu(Grid(3, 3), full=True),  # 9 cells, a bipartite grid: no closed tour
}


@pytest.mark.parametrize("name", UNSAT)
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_unsat(encoding: str, name: str) -> None:
    assert brute_force(UNSAT[name]) == []
    row = execute(in_memory(name, UNSAT[name]), encoding, {}, seed=0, limits=LIMITS)
    assert row["status"] == "unsat", row["detail"]


FULL = Masyu(Grid(4, 5), {(0, 0): Pearl.BLACK, (1, 2): Pearl.WHITE}, full=True)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_full(encoding: str) -> None:
    assert len(brute_force(FULL)) >= 1
    row = execute(in_memory("full-4x5", FULL), encoding, {}, seed=0, limits=LIMITS)
    if encoding in INCOMPLETE and row["status"] == "unknown":
        assert len(brute_force(FULL)) > 1  # several loops: none is forced
        return
    assert row["status"] == "solved" and row["verified"] == 1, row["detail"]
    assert row["solution"] in brute_force(FULL)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_sat_or_unsat_as_brute_force_says(encoding: str) -> None:
    agrees_with_brute_force(encoding, random_puzzles(40, 4, 4, seed=2024) + random_puzzles(10, 4, 5, seed=7))


def agrees_with_brute_force(encoding: str, puzzles: list[Masyu]) -> None:
    """Solved with one of the brute-force loops where there is one, unsat where there is none."""
    for i, puzzle in enumerate(puzzles):
        solutions = brute_force(puzzle)
        row = execute(in_memory(f"puzzle-{i}", puzzle), encoding, {}, seed=i, limits=LIMITS)
        if encoding in INCOMPLETE and row["status"] == "unknown":
            assert len(solutions) > 1, (kinds.write_text(puzzle), row["detail"])
            decided = solution_edges(puzzle.grid, json.loads(row["extra"])["partial"])
            assert all(decided <= solution_edges(puzzle.grid, s) for s in solutions)
            continue
        expected = "solved" if solutions else "unsat"
        assert row["status"] == expected, (kinds.write_text(puzzle), row["detail"])
        if solutions:
            assert row["solution"] in solutions


ODD_SHAPES = [(1, 1), (1, 4), (4, 1), (2, 2), (2, 5), (5, 2), (3, 3)]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_thin_grids_and_puzzles_without_pearls_as_brute_force_says(encoding: str) -> None:
    puzzles = [Masyu(Grid(r, c)) for r, c in ODD_SHAPES]  # no pearls: any one loop will do
    puzzles += [p for i, (r, c) in enumerate(ODD_SHAPES) for p in random_puzzles(3, r, c, seed=i, fewest=0)]
    agrees_with_brute_force(encoding, puzzles)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_budget_far_too_small_gives_unknown(encoding: str) -> None:
    row = execute(SMOKE[1], encoding, {}, seed=0, limits=Limits(time_s=0.001))
    assert row["status"] == "unknown"
    assert not row.get("solution")


def test_cpsat_stopped_by_its_time_limit_gives_unknown() -> None:
    from loopbench_encodings import loop
    from loopbench_encodings.circuit import Circuit
    from loopbench_encodings.loop.cpsat import Session, build

    puzzle = bundled("janko760").puzzle
    model = build(puzzle, loop.problem(puzzle)).model  # 40x58: far more than 5 ms of CPU
    session = Session(Circuit.defaults, seed=0, clock=Limits(time_s=0.005).clock())
    assert session.solve(model) == "unknown"
    assert session.iterations == 1 and "UNKNOWN" in session.stats()["reason"]


# inference answers only what deduction forces, so it cannot list the answers of an ambiguous
# puzzle: its `exclude` says "no other answer" once it has solved one (held to that below).
EXCLUDING = [name for name in ENCODINGS if registry.encodings()[name].excludes and name not in INCOMPLETE]


@pytest.mark.parametrize("encoding", EXCLUDING)
def test_excluding_each_answer_found_enumerates_exactly_the_brute_force_answers(encoding: str) -> None:
    """What uniqueness checks rely on: `exclude` rules out those answers and nothing else."""
    puzzles = [Masyu(Grid(3, 3)), Masyu(Grid(3, 4), {(1, 1): Pearl.WHITE})]
    puzzles += random_puzzles(6, 4, 4, seed=11)
    solver = registry.create(encoding)
    for puzzle in puzzles:
        assert enumerated(solver, puzzle) == sorted(brute_force(puzzle)), kinds.write_text(puzzle)


def enumerated(solver, puzzle) -> list[str]:
    """Every answer `solver` gives, each excluded in turn, until it says unsat (sorted)."""
    found: list[str] = []
    while (outcome := solver.solve(puzzle, LIMITS, 0, exclude=tuple(found))).status == "sat":
        assert outcome.solution not in found
        found.append(outcome.solution)
    assert outcome.status == "unsat"
    return sorted(found)


@pytest.mark.parametrize("encoding", sorted(INCOMPLETE))
def test_an_incomplete_encoding_excluding_its_answer_finds_no_other(encoding: str) -> None:
    solver, solved = registry.create(encoding), 0
    for puzzle in random_puzzles(12, 4, 4, seed=11) + [bundled(n).puzzle for n in ("janko001", "janko011")]:
        first = solver.solve(puzzle, LIMITS, 0)
        if first.status != "sat":
            continue
        solved += 1
        if puzzle.rows * puzzle.cols <= 20:
            assert brute_force(puzzle) == [first.solution]  # deduction forced it: the only answer
        assert solver.solve(puzzle, LIMITS, 0, exclude=(first.solution,)).status == "unsat"
    assert solved >= 2


MASYU_PRESETS = [p for p, c in PRESETS.items() if registry.encodings()[c.encoding].serves("masyu")]


@pytest.mark.parametrize("preset", MASYU_PRESETS)
def test_every_preset_enumerates_exactly_the_brute_force_answers(preset: str) -> None:
    """Each named configuration, resolved for Masyu as a sweep resolves it, lists every answer, no other."""
    solver = registry.create_for(preset, "masyu")
    puzzles = [Masyu(Grid(3, 3)), Masyu(Grid(3, 4), {(1, 1): Pearl.WHITE}), *random_puzzles(6, 4, 4, seed=11)]
    for puzzle in puzzles:
        assert enumerated(solver, puzzle) == sorted(brute_force(puzzle)), (preset, kinds.write_text(puzzle))


def test_fix_keeps_every_brute_force_answer() -> None:
    """`loop.fix`'s forced edges are in every answer of a puzzle, its forbidden ones in none, and it finds
    no answer only where brute force finds none."""
    from loopbench_encodings import loop
    from loopbench_encodings.loop.fix import fixed_edges

    puzzles = [*UNSAT.values(), *random_puzzles(40, 4, 4, seed=2024), *random_puzzles(10, 4, 5, seed=7)]
    puzzles += [p for i, (r, c) in enumerate(ODD_SHAPES) for p in random_puzzles(3, r, c, seed=i, fewest=0)]
    decided = 0
    for puzzle in puzzles:
        problem = loop.problem(puzzle)
        fixed = fixed_edges(problem)
        answers = [set(problem.edge_ids(s)) for s in brute_force(puzzle)]
        assert bool(fixed.reason) <= (not answers), kinds.write_text(puzzle)
        for edges in answers:
            assert set(fixed.on) <= edges and not set(fixed.off) & edges, kinds.write_text(puzzle)
        decided += len(fixed.on) + len(fixed.off)
    assert decided > 0  # the rules fixed edges: the check above had something to check
