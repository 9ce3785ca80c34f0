"""The frontier search (`frontier`) against what is known of its graphs: the generalized Petersen graphs
GP(n,2), the flower snarks, exact cycle counts, and its two ways to give up."""

from __future__ import annotations

import itertools
import json
import math

import pytest

from harness import kinds, registry
from harness.analysis.verdicts import families
from harness.encoding import Limits
from harness.instances import Instance
from harness.kinds.graph.generate import make, petersen_graph
from harness.kinds.graph.model import Graph
from harness.run.execute import execute
from loopbench_encodings.frontier import Wider, greedy_order

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

    rim = 40
    hub_and_rim = wheel(rim)
    assert sorted(greedy_order(hub_and_rim)) == list(range(rim + 1))
    greedy, rcm = solve(hub_and_rim, order="greedy"), solve(hub_and_rim, order="rcm")
    assert greedy.status == "sat" and greedy.stats["cycles"] == rim and greedy.stats["frontier"] <= 4
    assert rcm.status == "unknown" and "more than width" in rcm.stats["reason"]  # 317,811 states by edge 26


def _sat_row(g: Graph, encoding: str, **options):
    row = execute(Instance(name="g", source="<test>", puzzle=g), encoding, options, 0, LIMITS)
    return {**row, "extra": json.loads(row["extra"]) if isinstance(row["extra"], str) else row["extra"]}


def test_sat_s_frontier_pre_pass_answers_a_narrow_graph_before_any_clause():
    row = _sat_row(petersen(301, 2), "cegar-split-frontier")  # 602 vertices, a frontier of about 7
    assert row["status"] == "solved" and row["verified"] == 1, row.get("detail")
    assert row["extra"]["prepass_by"] == "frontier" and row["iterations"] == 0, row["extra"]
    assert row["extra"]["prepass_frontier"].startswith("a cycle")


def test_the_frontier_pre_pass_never_answers_unsat_and_skips_what_it_cannot_search():
    # GP(n,2) with n = 5 (mod 6) has no Hamiltonian cycle: the pre-pass finds none, the CEGAR proves it
    row = _sat_row(petersen(35, 2), "sat", prepass="frontier", split="hubs")
    assert row["status"] == "unsat", row
    assert row["extra"]["prepass"] == "missed" and row["iterations"] >= 1, row["extra"]
    assert row["extra"]["prepass_frontier"].startswith("no cycle"), row["extra"]
    dense = Graph(40, tuple(itertools.combinations(range(40), 2)))  # 19.5 edges a vertex: path-width 39
    row = _sat_row(dense, "cegar-split-frontier")
    assert row["status"] == "solved" and row["extra"]["prepass_by"] == "rotations", row["extra"]
    assert row["extra"]["prepass_frontier"].startswith("not searched"), row["extra"]


def test_the_greedy_order_gives_up_past_its_bound_on_the_frontier():
    side = 20  # a 20 x 20 grid: path-width 20, so any order's frontier passes 12 vertices
    across = [(r * side + c, r * side + c + 1) for r in range(side) for c in range(side - 1)]
    down = [(r * side + c, (r + 1) * side + c) for r in range(side - 1) for c in range(side)]
    grid = Graph(side * side, tuple(across + down))
    with pytest.raises(Wider, match="passed 12 vertices"):
        greedy_order(grid, 12)
    assert sorted(greedy_order(grid)) == list(range(side * side))
    assert sorted(greedy_order(petersen(50, 2), 12)) == list(range(100))  # GP(n,2): a narrow frontier
