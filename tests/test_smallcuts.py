"""`loop.smallcuts` (sat's `smallcuts`): on small graphs, every constraint it implies holds on every
Hamiltonian cycle (all enumerated), a graph it says has none has none, two vertices whose removal leaves
three parts are reported with the reason, and `sat` with it finds every cycle."""

from __future__ import annotations

import json
import random

import pytest
from test_graph_loop import GRAPHS, all_answers, brute_force

from harness import registry
from harness.encoding import Limits
from harness.instances import Instance
from harness.kinds.graph.model import Graph
from harness.run.execute import execute
from loopbench_encodings import loop
from loopbench_encodings.loop.smallcuts import small_cuts


def cycles(g: Graph) -> list[set[int]]:
    """Every Hamiltonian cycle of g as its edge indices (each once), by a depth-first walk from vertex 0."""
    problem = loop.problem(g)
    between, adj, found = problem.graph.between, g.neighbours, []
    path, on = [0], [False] * g.n
    on[0] = True

    def walk() -> None:
        last = path[-1]
        if len(path) == g.n:
            if 0 in adj[last] and path[1] < last:
                found.append({between(path[i], path[(i + 1) % g.n]) for i in range(g.n)})
            return
        for w in adj[last]:
            if not on[w]:
                on[w] = True
                path.append(w)
                walk()
                path.pop()
                on[w] = False

    walk()
    return found


def block(rng: random.Random, first: int, size: int, extra: int) -> list[tuple[int, int]]:
    """A random graph on first..first+size-1: the path through them in order and `extra` random edges more."""
    edges = {(first + i - 1, first + i) for i in range(1, size)}
    for _ in range(extra):
        a, b = rng.sample(range(first, first + size), 2)
        edges.add((min(a, b), max(a, b)))
    return sorted(edges)


def glued(rng: random.Random, sides: int) -> Graph:
    """`sides` random blocks, each joined to vertex 0 by its first vertex and to vertex 1 by its last (and
    maybe by one more edge each), maybe 0-1 too: {0, 1} is a 2-vertex cut of `sides` parts, and with two a
    cycle runs 0, one block's path, 1, the other's."""
    edges, first = [], 2
    for _ in range(sides):
        size = rng.randint(3, 4)
        edges += block(rng, first, size, rng.randint(2, 4))
        last = first + size - 1
        edges += [(0, first), (1, last)]
        edges += [(hub, rng.randint(first, last)) for hub in (0, 1) if rng.random() < 0.7]
        first += size
    if rng.random() < 0.5:
        edges.append((0, 1))
    return Graph(first, tuple(sorted(set(edges))))


def joined(rng: random.Random, k: int) -> Graph:
    """Two random blocks of 4 to 6 vertices joined by k random edges (two of them between their paths'
    ends, so a cycle runs along both paths): a k-edge cut between them."""
    a, b = rng.randint(4, 6), rng.randint(4, 6)
    edges = block(rng, 0, a, rng.randint(4, 9)) + block(rng, a, b, rng.randint(4, 9))
    ends = {(0, a), (a - 1, a + b - 1)}
    while len(ends) < k:
        ends.add((rng.randrange(a), a + rng.randrange(b)))
    return Graph(a + b, tuple(edges + sorted(ends)))


def graphs() -> list[tuple[str, Graph]]:
    rng = random.Random(2026)
    made = [(f"glued{s}-{i}", glued(rng, s)) for s in (2, 3) for i in range(25)]
    made += [(f"joined{k}-{i}", joined(rng, k)) for k in (2, 3) for i in range(25)]
    for i in range(25):
        n = rng.randint(6, 10)
        pairs = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < 0.45]
        made.append((f"random-{i}", Graph(n, tuple(pairs))))
    return made + sorted(GRAPHS.items())


def holds(clause: list[int], edges: set[int]) -> bool:
    return any((x > 0) == (abs(x) - 1 in edges) for x in clause)


def test_every_implied_constraint_holds_on_every_hamiltonian_cycle():
    seen = {"vertex_cuts": 0, "edge_cuts2": 0, "edge_cuts3": 0, "tested": 0, "refused": 0, "parts": 0}
    for label, g in graphs():
        implied = small_cuts(loop.problem(g))
        answers = cycles(g)
        assert implied.complete, label
        if implied.reason:
            assert not answers, (label, implied.reason)
            seen["refused"] += 1
            seen["parts"] += "parts" in implied.reason
            continue
        for clause in implied.clauses:
            assert clause, label
            for edges in answers:
                assert holds(clause, edges), (label, clause, sorted(edges))
        seen["tested"] += bool(answers and implied.clauses)
        for k in ("vertex_cuts", "edge_cuts2", "edge_cuts3"):
            seen[k] += implied.counts[k]
    # the property was tested where there was something to test: each rule used, on graphs with cycles
    assert all(seen[k] >= 5 for k in ("vertex_cuts", "edge_cuts2", "edge_cuts3", "tested", "parts")), seen


def three_k4s() -> Graph:
    """Vertices 0 and 1, and three K4s each joined to 0 by one vertex and to 1 by another."""
    edges = []
    for t in range(3):
        four = range(2 + 4 * t, 6 + 4 * t)
        edges += [(a, b) for a in four for b in four if a < b] + [(0, four[0]), (1, four[1])]
    return Graph(14, tuple(edges))


def test_two_vertices_leaving_three_parts_are_no_cycle_with_the_reason():
    g = three_k4s()
    assert not cycles(g)
    implied = small_cuts(loop.problem(g))
    assert implied.reason == ("removing vertices 1 and 2 leaves 3 parts: a cycle through both can visit two")
    for name in ("sat", "cegar-split", "cegar"):
        row = execute(Instance("triangles", "<triangles>", g), name, {"smallcuts": "true"}, 0, Limits(60.0))
        assert row["status"] == "unsat" and "leaves 3 parts" in row["detail"], (name, row["detail"])


def test_a_2_vertex_cut_of_two_parts_forbids_its_edge_and_asks_an_edge_into_each_part():
    # two triangles joined to 0 and 1 as above, and the edge 0-1
    edges = [(0, 1)]
    for t in range(2):
        a, b, c = 2 + 3 * t, 3 + 3 * t, 4 + 3 * t
        edges += [(a, b), (b, c), (a, c), (0, a), (1, b), (0, c)]
    g = Graph(8, tuple(edges))
    problem = loop.problem(g)
    implied = small_cuts(problem)
    var = problem.graph.var
    assert [-var(0, 1)] in implied.clauses
    assert sorted([var(0, 2), var(0, 4)]) in implied.clauses and [var(1, 3)] in implied.clauses
    answers = cycles(g)  # {0, 3} and {1, 6} cut off two vertices each too
    assert implied.counts["vertex_cuts"] == 3 and answers
    assert all(holds(clause, edges) for clause in implied.clauses for edges in answers)


def test_a_graph_without_small_cuts_gets_no_clause_and_a_cut_vertex_no_cycle():
    assert small_cuts(loop.problem(GRAPHS["petersen"])).clauses == []
    two_k4s = Graph(7, tuple((a, b) for four in (range(4), range(3, 7)) for a in four for b in four if a < b))
    assert "vertex 4 is a cut vertex" in small_cuts(loop.problem(two_k4s)).reason


@pytest.mark.parametrize("name", ["sat", "cegar-split"])
def test_sat_with_smallcuts_finds_every_hamiltonian_cycle(name):
    rng = random.Random(7)
    cases = [("prism4", GRAPHS["prism4"]), ("wheel7", GRAPHS["wheel7"]), ("GP(6,2)", GRAPHS["GP(6,2)"])]
    cases += [(f"glued-{i}", glued(rng, 2)) for i in range(6)]
    cases += [(f"joined-{i}", joined(rng, 3)) for i in range(6)]
    for label, g in cases:
        problem = loop.problem(g)
        expected = {problem.solution(sorted(edges)) for edges in cycles(g)}
        assert g.n > 10 or expected == brute_force(g)  # the walk counts as the test of every strategy does
        assert all_answers(name, {"smallcuts": "true"}, g) == expected, label


def test_smallcuts_cannot_log_a_proof_and_its_stats_are_kept():
    with pytest.raises(ValueError, match="smallcuts=true"):
        registry.create("sat", smallcuts="true", proof="true")
    rng = random.Random(3)
    g = joined(rng, 3)
    # the pre-pass off: a cycle it found would leave the small cuts unread
    row = execute(Instance("joined", "<joined>", g), "sat", {"smallcuts": "true", "prepass": "off"}, 0,
                  Limits(60.0))
    stats = json.loads(row["extra"])
    implied = small_cuts(loop.problem(g))
    assert row["status"] == "solved" and implied.clauses and stats["smallcuts_complete"] is True
    assert stats["smallcuts_clauses"] == len(implied.clauses) and stats["smallcuts_edge_cuts3"] >= 1
