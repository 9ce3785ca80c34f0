"""The frontier search (`frontier`) against what is known of its graphs: the generalized Petersen graphs
GP(n,2), the flower snarks, exact cycle counts, and its two ways to give up."""

from __future__ import annotations

import itertools
import math

import pytest

from harness import kinds, registry
from harness.analysis.verdicts import families
from harness.encoding import Limits
from harness.kinds.graph.generate import make, petersen_graph
from harness.kinds.graph.model import Graph

LIMITS = Limits(time_s=60.0)


def petersen(n: int, k: int) -> Graph:
    return Graph(2 * n, tuple(petersen_graph(n, k)))


def solve(g: Graph, **options):
    encoding = registry.create("frontier", **options)
    encoding.prepare()
    return encoding.solve(g, LIMITS, 0)


@pytest.mark.parametrize("n", range(5, 42))
def test_gp_n_2_is_hamiltonian_exactly_when_n_is_not_5_mod_6(n):
    # Alspach (1983): GP(n,2) has a Hamiltonian cycle unless n = 5 (mod 6)
    out = solve(petersen(n, 2))
    assert out.status == ("unsat" if n % 6 == 5 else "sat"), (n, out.stats)
    if out.status == "sat":
        assert not kinds.check(petersen(n, 2), out.solution), out.solution
        assert out.stats["cycles"] >= 1


def test_flower_snarks_are_not_hamiltonian_and_the_frontier_stays_narrow():
    for k in (5, 7, 9, 21):
        out = solve(make("flower", 4 * k, seed=0).puzzle)  # vertex numbers shuffled: the order is found
        assert out.status == "unsat", (k, out.stats)
        assert out.stats["cycles"] == 0 and out.stats["frontier"] <= 16, (k, out.stats)


@pytest.mark.parametrize("n", range(4, 9))
def test_the_count_of_cycles_of_a_complete_graph_is_n_minus_1_factorial_over_2(n):
    g = Graph(n, tuple(itertools.combinations(range(n), 2)))
    for order in ("rcm", "given"):
        assert solve(g, order=order).stats["cycles"] == math.factorial(n - 1) // 2


def test_a_layer_wider_than_width_gives_up_and_says_where():
    grid = Graph(36, tuple([(r * 6 + c, r * 6 + c + 1) for r in range(6) for c in range(5)]
                           + [(r * 6 + c, (r + 1) * 6 + c) for r in range(5) for c in range(6)]))
    assert solve(grid).status == "sat"
    out = solve(grid, width=3)
    assert out.status == "unknown" and "more than width=3" in out.stats["reason"], out.stats


def test_a_spent_clock_gives_up():
    encoding = registry.create("frontier")
    encoding.prepare()
    out = encoding.solve(petersen(200, 2), Limits(time_s=0.0), 0)
    assert out.status == "unknown" and "time limit" in out.stats["reason"], out.stats


def test_its_model_family_is_its_own():
    # it shares no model code with the loop strategies, so its unsat confirms theirs and theirs its own
    assert families()["frontier"] == "frontier"
    assert "frontier" not in families()["sat"].split("+")


def test_the_closed_knights_tours_of_the_6x6_board_are_9862():
    # the count of undirected closed knight's tours on a 6 x 6 board (OEIS A001230: 9,862)
    knight = make("knight", 36, seed=0).puzzle
    out = solve(knight)
    assert out.status == "sat" and out.stats["cycles"] == 9862, out.stats
    assert not kinds.check(knight, out.solution)


def test_the_greedy_order_places_every_vertex_once_and_keeps_a_hub_s_frontier_narrow():
    # a wheel's hub has an edge to every rim vertex: breadth-first layers (RCM) put the rim on the
    # frontier at once, the greedy order walks round the rim beside the hub
    from test_graph_loop import wheel

    from loopbench_encodings.frontier import greedy_order

    rim = 40
    hub_and_rim = wheel(rim)
    assert sorted(greedy_order(hub_and_rim)) == list(range(rim + 1))
    greedy, rcm = solve(hub_and_rim, order="greedy"), solve(hub_and_rim, order="rcm")
    assert greedy.status == "sat" and greedy.stats["cycles"] == rim and greedy.stats["frontier"] <= 4
    assert rcm.status == "unknown" and "more than width" in rcm.stats["reason"]  # 317,811 states by edge 26
