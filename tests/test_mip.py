"""The branch-and-cut strategy `mip` (SCIP): both separation modes against brute force, its cuts and records.

The registry-wide conformance tests run `mip` with its defaults (`separate=fractional`); here the
other mode, `separate=integral`, meets the same brute-force counts (Masyu and Slitherlink: sat or
unsat as brute force says, every answer enumerated by exclusion; graphs: test_graph_loop), the cuts
of `loop.mincut` are checked on LP points made by hand, and a run's record says what SCIP did.
"""

from __future__ import annotations

import json

import pytest
import test_conformance as masyu
import test_conformance_slitherlink as slither
from helpers import bundled

from harness import kinds, registry, sets
from harness.encoding import Limits
from harness.instances import Instance
from harness.kinds.graph.model import Graph
from harness.kinds.masyu.model import Masyu
from harness.run.execute import execute
from loopbench_encodings import loop
from loopbench_encodings.loop.mincut import Cut, fractional_cuts, integral_cuts

LIMITS = Limits(time_s=30.0)
MODES = ["fractional", "integral"]


def enumerate_all(puzzle, separate: str) -> list[str]:
    """Every answer, asked for again and again with the ones found excluded, until `unsat`."""
    return masyu.enumerated(registry.create("mip", separate=separate), puzzle)


def test_integral_separation_is_sat_or_unsat_on_masyu_as_brute_force_says() -> None:
    puzzles = masyu.random_puzzles(40, 4, 4, seed=2024) + masyu.random_puzzles(10, 4, 5, seed=7)
    puzzles += [Masyu(masyu.Grid(r, c)) for r, c in masyu.ODD_SHAPES]
    for i, puzzle in enumerate(puzzles):
        answers = masyu.brute_force(puzzle)
        instance = masyu.in_memory(f"p{i}", puzzle)
        row = execute(instance, "mip", {"separate": "integral"}, seed=i, limits=LIMITS)
        assert row["status"] == ("solved" if answers else "unsat"), (kinds.write_text(puzzle), row["detail"])
        if answers:
            assert row["solution"] in answers


def test_integral_separation_enumerates_exactly_the_masyu_brute_force_answers() -> None:
    puzzles = [Masyu(masyu.Grid(3, 3)), Masyu(masyu.Grid(3, 4), {(1, 1): masyu.Pearl.WHITE})]
    puzzles += masyu.random_puzzles(6, 4, 4, seed=11)
    for puzzle in puzzles:
        expected = sorted(masyu.brute_force(puzzle))
        assert enumerate_all(puzzle, "integral") == expected, kinds.write_text(puzzle)


def test_integral_separation_is_sat_or_unsat_on_slitherlink_as_brute_force_says() -> None:
    puzzles = slither.random_puzzles(30, 3, 3, seed=5) + slither.random_puzzles(6, 2, 4, seed=9)
    for i, puzzle in enumerate(puzzles):
        answers = slither.brute_force(puzzle)
        instance = Instance(name=f"tiny-{i}", source="<tiny>", puzzle=puzzle)
        row = execute(instance, "mip", {"separate": "integral"}, seed=i, limits=LIMITS)
        assert row["status"] == ("solved" if answers else "unsat"), (kinds.write_text(puzzle), row["detail"])
        if answers:
            assert row["solution"] in answers


@pytest.mark.parametrize("separate", MODES)
def test_both_modes_enumerate_exactly_the_slitherlink_brute_force_answers(separate: str) -> None:
    for puzzle in slither.random_puzzles(8, 3, 3, seed=13):
        expected = sorted(slither.brute_force(puzzle))
        assert enumerate_all(puzzle, separate) == expected, kinds.write_text(puzzle)


# --- the cuts on points made by hand --------------------------------------------------------------

TRIANGLES = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5)]
BRIDGES = [(0, 3), (2, 5)]


def two_triangles() -> tuple[object, list[int], list[int]]:
    """Triangles 0-1-2 and 3-4-5 joined by edges 0-3 and 2-5 (one Hamiltonian cycle): the loop
    problem's arrays, the triangles' edge indices and the bridges'."""
    arrays = loop.problem(Graph(6, tuple(TRIANGLES + BRIDGES))).arrays
    return arrays, [arrays.between(*e) for e in TRIANGLES], sorted(arrays.between(*e) for e in BRIDGES)


def test_two_sub_loops_of_a_hamiltonian_graph_get_the_cut_set_of_each() -> None:
    arrays, triangles, bridges = two_triangles()
    cuts, clauses = integral_cuts(arrays, sorted(triangles))
    assert clauses == [] and cuts == [Cut(bridges), Cut(bridges)]
    tour = [arrays.between(*e) for e in [(0, 1), (1, 2), (2, 5), (4, 5), (3, 4), (0, 3)]]
    assert integral_cuts(arrays, sorted(tour)) == ([], [])


def test_a_fractional_point_in_one_piece_is_cut_by_its_minimum_cut() -> None:
    """Every degree 2, the support connected, but only 0.5 across between the triangles."""
    arrays, triangles, bridges = two_triangles()
    x = [0.0] * arrays.num_edges
    for e, value in zip(TRIANGLES + BRIDGES, [1.0, 1.0, 0.75, 1.0, 1.0, 0.75, 0.25, 0.25], strict=True):
        x[arrays.between(*e)] = value
    assert all(abs(sum(x[i] for i in arrays.incident[v]) - 2) < 1e-9 for v in range(6))
    assert fractional_cuts(arrays, x, [1.0] * 6) == [Cut(bridges)]
    tour = {arrays.between(*e) for e in [(0, 1), (1, 2), (2, 5), (4, 5), (3, 4), (0, 3)]}
    whole = [1.0 if i in tour else 0.0 for i in range(arrays.num_edges)]
    assert fractional_cuts(arrays, whole, [1.0] * 6) == []


def test_an_optional_vertex_loop_gets_a_cut_on_its_own_vertex_value() -> None:
    """Masyu with pearls in one corner of a 4x4: a 2x2 loop far from them, at y = 0.5, is cut by
    x(δ(S)) >= 2·y_v; at integral points by x(δ(S)) >= 2·y_v as well."""
    puzzle = Masyu(masyu.Grid(4, 4), {(0, 0): masyu.Pearl.WHITE, (1, 0): masyu.Pearl.WHITE})
    problem = loop.problem(puzzle)
    arrays = problem.arrays
    square = [(2, 2), (2, 3), (3, 3), (3, 2)]
    vertices = [r * 4 + c for r, c in square]
    inner = [arrays.between(vertices[k], vertices[(k + 1) % 4]) for k in range(4)]
    cuts, clauses = integral_cuts(arrays, inner)
    assert clauses == [] and cuts == [Cut(arrays.boundary(vertices), (min(vertices),))]
    x = [0.5 if i in inner else 0.0 for i in range(arrays.num_edges)]
    y = [0.5 if v in vertices else 0.0 for v in range(arrays.num_vertices)]
    (cut,) = fractional_cuts(arrays, x, y)
    assert cut.edges == arrays.boundary(vertices) and cut.on[0] in vertices


# --- runs and their records -----------------------------------------------------------------------

def test_fractional_separation_cuts_lp_points_and_integral_does_not() -> None:
    instance = next(i for i in sets.instances("masyu-smoke") if i.name == "pm-10x10-hard-7520147")
    rows = {mode: execute(instance, "mip", {"separate": mode}, seed=0, limits=LIMITS) for mode in MODES}
    for row in rows.values():
        masyu.assert_solved(row, instance)
    frac, whole = (json.loads(rows[m]["extra"]) for m in MODES)
    assert frac["fractional_cuts"] > 0 and frac["sepa_rounds"] > 0 and frac["root_cuts"] > 0
    assert whole["fractional_cuts"] == whole["sepa_rounds"] == 0 and whole["integral_cuts"] > 0
    assert rows["integral"]["cuts"] == whole["integral_cuts"]


def test_the_record_names_scip_and_its_settings() -> None:
    options = {"presolve": "off", "emphasis": "feasibility", "threads": 1}
    row = execute(bundled("janko001"), "mip", options, seed=7, limits=LIMITS)
    assert row["status"] == "solved"
    extra = json.loads(row["extra"])
    assert extra["scip_version"].startswith("10.") and extra["pyscipopt"].startswith("6.")
    assert {k: extra[k] for k in options} == options and extra["seed"] == 7
    assert extra["nodes"] >= 1 and extra["scip_status"] == "optimal"
    assert row["build_s"] > 0 and row["build_s"] + extra["solver_cpu_s"] <= row["solve_cpu_s"]


def test_an_unsat_has_no_proof_so_it_stays_unproven() -> None:
    """SCIP writes no certificate: the record claims none (harness.analysis.verdicts says unproven
    unless another family of models agrees)."""
    row = execute(Instance("petersen", "<petersen>", Graph(10, tuple(
        [(i, (i + 1) % 5) for i in range(5)] + [(i, i + 5) for i in range(5)]
        + [(5 + i, 5 + (i + 2) % 5) for i in range(5)]))), "mip", {}, seed=0, limits=LIMITS)
    assert row["status"] == "unsat"
    extra = json.loads(row["extra"])
    assert "proof" not in extra and "certified" not in extra and extra["scip_status"] == "infeasible"


@pytest.mark.parametrize("options", [{"threads": 0}, {"separate": "sometimes"}, {"emphasis": "fast"},
                                     {"presolve": "never"}], ids=lambda o: next(iter(o)))
def test_bad_options_are_errors(options: dict) -> None:
    row = execute(bundled("janko001"), "mip", options, seed=0, limits=LIMITS)
    assert row["status"] == "error"


def test_a_budget_spent_in_building_gives_unknown_on_the_cpu_clock() -> None:
    row = execute(bundled("janko080"), "mip", {}, seed=0, limits=Limits(time_s=0.001))
    assert row["status"] == "unknown" and not row.get("solution")


@pytest.mark.parametrize("name", ["smoke", "masyu-default"])
def test_the_committed_separation_tables_are_what_their_databases_give(name, tmp_path):
    """results/mip/README.md renders these CSVs: each must be what separation.py makes of its database."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "separation.csv"
    subprocess.run([sys.executable, "results/mip/separation.py", "--csv", str(out),
                    f"results/mip/{name}.sqlite"], cwd=root, check=True)
    assert out.read_text() == (root / f"results/mip/separation-{name}.csv").read_text()
