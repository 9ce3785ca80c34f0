"""The graph model's solution strings, the independent checker, and judging against known answers."""

from __future__ import annotations

import pytest

from harness import kinds, sets
from harness.encoding import SAT, UNSAT, Outcome
from harness.instances import Instance
from harness.kinds.graph.check import check
from harness.kinds.graph.model import Graph, degree_problem, solution_edges, solution_string
from harness.run.execute import judge

# vertices 1..6 on a hexagon 1-2-3-4-5-6 plus chords 1-4, 2-6: the hexagon is one Hamiltonian cycle
HEX = Graph(6, ((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (0, 3), (1, 5)))


def test_solution_string_is_canonical():
    cycle = [(3, 4), (0, 5), (1, 2), (4, 5), (2, 3), (0, 1)]  # any order, any direction
    assert solution_string(6, cycle) == "1 2 3 4 5 6"
    assert solution_string(6, [(v, u) for u, v in cycle]) == "1 2 3 4 5 6"
    assert solution_string(4, [(0, 3), (3, 1), (1, 2), (2, 0)]) == "1 3 2 4"  # 1's neighbours 3 and 4
    assert solution_string(3, [(0, 1), (1, 2), (2, 0)]) == "1 2 3"


@pytest.mark.parametrize("n, edges, words", [
    (6, [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)], "cycle of 3 vertices"),
    (4, [(0, 1), (1, 2), (2, 3)], "vertex 1 has 1 cycle neighbours"),
    (4, [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)], "vertex 1 has 3"),
    (2, [(0, 1), (1, 0)], "no cycle through every vertex"),
    (3, [(0, 5)], "not an edge between two"),
])
def test_solution_string_refuses_what_is_not_one_cycle(n, edges, words):
    with pytest.raises(ValueError, match=words):
        solution_string(n, edges)


def test_solution_edges():
    assert solution_edges(HEX, "1 2 3 4 5 6") == {(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (0, 5)}
    assert solution_edges(HEX, "1 6 2") == {(0, 5), (1, 5), (0, 1)}  # not a Hamiltonian cycle: still read
    for bad in ("", "1 x 3", "1 7 2", "0 1 2", "-1 2 3"):
        with pytest.raises(ValueError):
            solution_edges(HEX, bad)


def test_degree_problem():
    assert degree_problem(HEX) == ""
    pendant = Graph(4, ((0, 1), (1, 2), (2, 0), (3, 1)))
    assert degree_problem(pendant) == "vertex 4 has degree 1: no cycle through every vertex"
    assert degree_problem(Graph(3, ((0, 1),))) == "vertex 1 has degree 1: no cycle through every vertex"
    assert degree_problem(Graph(3, ((0, 1), (1, 2)))).startswith("vertex 1 has degree 1")
    assert degree_problem(Graph(1, ())) == "vertex 1 has degree 0: no cycle through every vertex"


def test_model_is_normalised_and_large_graphs_are_fast():
    assert Graph(3, ((2, 0), (1, 0), (0, 1))).edges == ((0, 1), (0, 2))
    with pytest.raises(ValueError, match="self-loop"):
        Graph(3, ((1, 1),))
    with pytest.raises(ValueError, match="outside"):
        Graph(3, ((0, 3),))
    n = 20_000  # a cycle: every function here is linear (this would take minutes if quadratic)
    ring = Graph(n, tuple((i, (i + 1) % n) for i in range(n)))
    text = solution_string(n, ring.edges)
    assert check(ring, text) == [] and len(solution_edges(ring, text)) == n and degree_problem(ring) == ""


def test_checker_accepts_the_canonical_cycle_only():
    assert check(HEX, "1 2 3 4 5 6") == []
    assert check(HEX, "1 6 5 4 3 2") == [
        "the cycle must go from vertex 1 to its smaller neighbour 2 first, not 6"]
    assert check(HEX, "2 3 4 5 6 1") == ["the cycle must start at vertex 1, not 2"]


@pytest.mark.parametrize("solution, words", [
    ("", "empty"),
    ("1  2 3 4 5 6", "single spaces"),
    ("1 2 3 4 5 x", "'x' is not a vertex number 1..6"),
    ("1 2 3 4 5 7", "'7' is not a vertex number"),
    ("1 2 3 4 5", "1 vertices are not visited: 6"),
    ("1 2 3 4 5 6 5", "vertex 5 is visited more than once"),
    ("1 2 3 5 4 6", "3 to 5 is not an edge of the graph"),
    ("1 2 6 3 4 5", "6 to 3 is not an edge"),  # 2 to 6 is a chord: fine
    ("1 2", "at least 3 vertices"),
])
def test_checker_names_each_kind_of_wrong_cycle(solution, words):
    problems = check(HEX, solution)
    assert problems and any(words in p for p in problems), problems


def test_the_kind_registry_serves_graphs():
    assert kinds.get("graph").check(HEX, "1 2 3 4 5 6") == []
    assert kinds.of(HEX).render_text(HEX, "1 2 3 4 5 6") == \
        "graph: 6 vertices, 8 edges, degrees 2..3\ncycle: 1 2 3 4 5 6\n"
    assert kinds.of(HEX).shape(HEX) == "6 vertices, 8 edges"


# --- judging: known answers from the bundles ------------------------------------------------------

def smoke(name: str) -> Instance:
    return next(i for i in sets.instances("graph-smoke") if i.name == name)


def test_bundles_carry_known_answers():
    found = sets.instances("graph-smoke")
    assert {i.known_answer for i in found} == {"sat", "unsat"}
    assert all(i.known_answer == "sat" for i in found if i.known_solution)
    assert smoke("graph-petersen-10-s2026-000").known_answer == "unsat"


def test_unsat_on_a_known_hamiltonian_graph_is_wrong():
    knight = smoke("graph-knight-36-s2026-000")  # known by theorem, no cycle stored
    assert not knight.known_solution
    row = judge(knight, Outcome(UNSAT))
    assert row["status"] == "wrong"
    assert row["detail"] == "claimed unsat, but the instance is known to be hamiltonian"


def test_unsat_keeps_the_encodings_reason():
    pendant = smoke("graph-pendant-15-s2026-000")
    reason = degree_problem(pendant.puzzle)
    assert reason.endswith("has degree 1: no cycle through every vertex")
    row = judge(pendant, Outcome(UNSAT, stats={"reason": reason}))
    assert (row["status"], row["detail"]) == ("unsat", reason)


def test_a_checked_cycle_on_a_graph_recorded_non_hamiltonian_is_flagged():
    wrong_label = Instance("x", "x", HEX, known_answer="unsat")
    row = judge(wrong_label, Outcome(SAT, "1 2 3 4 5 6"))
    assert row["status"] == "solved" and "recorded as non-hamiltonian" in row["detail"]


def test_known_answers_travel_to_the_workers(tmp_path, capsys):
    """A sweep in real workers: `unsat` on every smoke graph is wrong exactly on the Hamiltonian ones."""
    from harness.analysis import results
    from harness.run.cli import main

    db = tmp_path / "runs.sqlite"
    assert main(["--encoding", "dummy", "--option", "status=unsat", "--instances", "graph-smoke",
                 "--db", str(db), "--jobs", "1", "--time-limit", "10"]) == 0
    runs = results.load(db).set_index("instance")
    for inst in sets.instances("graph-smoke"):
        expected = "wrong" if inst.known_answer == "sat" else "unsat"
        assert runs.loc[inst.name, "status"] == expected, inst.name
    assert set(runs["puzzle"]) == {"graph"}
    petersen = runs.loc["graph-petersen-10-s2026-000"]
    assert (petersen["rows"], petersen["cols"]) == (10, 15)  # vertices and edges
