"""`prepass=rotations`: Pósa's rotation-extension finds dense graphs' cycles, never a wrong one, cheaply."""

from __future__ import annotations

import itertools
import json
import random
import time

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.encoding import Limits
from harness.instances import Instance
from harness.kinds.graph.model import Graph
from harness.run.execute import execute
from loopbench_encodings.loop import rotations

FAR = float("inf")  # no deadline: the rotation budget alone ends a miss


def neighbours(n: int, edges) -> list[list[int]]:
    out = [[] for _ in range(n)]
    for u, v in edges:
        out[u].append(v)
        out[v].append(u)
    return out


def is_hamiltonian_cycle(order, adjacent) -> bool:
    n = len(adjacent)
    return (order is not None and sorted(order) == list(range(n))
            and all(order[(i + 1) % n] in adjacent[order[i]] for i in range(n)))


def test_complete_and_dense_random_graphs_are_answered_at_once():
    for n in (3, 4, 10, 60):
        graph = neighbours(n, itertools.combinations(range(n), 2))
        assert is_hamiltonian_cycle(rotations.cycle(graph, 0, FAR), graph)
    rng = random.Random(1)
    for n in (50, 200):
        dense = [(u, v) for u, v in itertools.combinations(range(n), 2) if rng.random() < 0.6]
        graph = neighbours(n, dense)
        assert is_hamiltonian_cycle(rotations.cycle(graph, 0, FAR), graph)


def test_graphs_without_a_cycle_are_missed_within_the_budget():
    petersen = nx.petersen_graph()  # cubic, 3-connected, and not Hamiltonian
    graph = neighbours(10, petersen.edges)
    assert rotations.cycle(graph, 0, FAR) is None
    # two cliques sharing one vertex: a cut vertex, no cycle through all
    bowtie = [*itertools.combinations(range(0, 30), 2), *itertools.combinations(range(29, 59), 2)]
    assert rotations.cycle(neighbours(59, bowtie), 0, FAR) is None
    assert rotations.cycle(neighbours(4, [(0, 1), (1, 2), (2, 3)]), 0, FAR) is None  # a degree-1 vertex


def test_the_deadline_ends_a_long_miss():
    grid = nx.grid_2d_graph(41, 41)  # odd: bipartite with one side bigger, so no Hamiltonian cycle
    index = {v: i for i, v in enumerate(grid)}
    graph = neighbours(len(index), [(index[a], index[b]) for a, b in grid.edges])
    started = time.process_time()
    assert rotations.cycle(graph, 0, started) is None  # a deadline already past: stops at the first check
    assert time.process_time() - started < 1.0


def test_the_same_seed_gives_the_same_cycle():
    rng = random.Random(7)
    n = 120
    graph = neighbours(n, [(u, v) for u, v in itertools.combinations(range(n), 2) if rng.random() < 0.2])
    assert rotations.cycle(graph, 3, FAR) == rotations.cycle(graph, 3, FAR)


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 14), st.floats(0.1, 1.0), st.integers(0, 2**16), st.integers(0, 5))
def test_what_it_finds_is_always_a_hamiltonian_cycle_and_it_finds_none_where_none_is(n, p, graph_seed, seed):
    rng = random.Random(graph_seed)
    edges = [(u, v) for u, v in itertools.combinations(range(n), 2) if rng.random() < p]
    graph = neighbours(n, edges)
    found = rotations.cycle(graph, seed, FAR)
    if found is not None:
        assert is_hamiltonian_cycle(found, graph)
    else:  # a miss is allowed, but not where brute force finds a cycle in a complete graph
        assert len(edges) < n * (n - 1) // 2


def test_the_budget_is_a_tenth_of_a_second_at_most_one_percent_of_the_limit():
    assert rotations.seconds(60) == 0.1 and rotations.seconds(1) == 0.01


def _run(edges, n, encoding):
    instance = Instance(name="g", source="<test>", puzzle=Graph(n, tuple(edges)))
    row = execute(instance, encoding, {}, 0, Limits(time_s=60.0))
    return {**row, "extra": json.loads(row["extra"]) if isinstance(row["extra"], str) else row["extra"]}


def test_sat_on_a_dense_graph_answers_by_rotations_and_the_checker_accepts_it():
    n = 80
    rng = random.Random(2)
    edges = [(u, v) for u, v in itertools.combinations(range(n), 2) if rng.random() < 0.7]
    for encoding in ("sat", "cegar-split-prepass"):
        row = _run(edges, n, encoding)
        assert row["status"] == "solved" and row["verified"] == 1, (encoding, row.get("detail"))
        assert row["extra"]["prepass"] == "found" and row["iterations"] == 0
    for encoding in ("cegar-split", "sat-plain"):  # off: the CEGAR answers, and no pre-pass is said
        plain = _run(edges, n, encoding)
        assert plain["status"] == "solved" and plain["iterations"] >= 1 and "prepass" not in plain["extra"]


def test_a_miss_goes_on_to_the_solve_which_still_answers():
    cube = nx.hypercube_graph(4)  # Hamiltonian; found by the solve if the rotations miss it
    index = {v: i for i, v in enumerate(cube)}
    edges = sorted((min(index[a], index[b]), max(index[a], index[b])) for a, b in cube.edges)
    row = _run(edges, len(index), "cegar-split-prepass")
    assert row["status"] == "solved" and row["verified"] == 1
    assert row["extra"]["prepass"] in ("found", "missed")
    petersen = sorted(tuple(sorted(e)) for e in nx.petersen_graph().edges)
    row = _run(petersen, 10, "cegar-split-prepass")
    assert row["status"] == "unsat", row
    assert row["extra"]["prepass"] == "missed"
