"""The faces' colouring (`loop.colour`) and sat's `colour`: no answer lost, none added, proofs checked.

The colouring is tried against every drawing of small grids: a drawing takes a colouring exactly
when each of its vertices has even degree (so every loop keeps its answer). `colour=late` starts a
new solver part way; the tests force that early (a small COLOUR_AFTER) and judge the answers with
the independent checker and the proofs with `harness.proof`.
"""

from __future__ import annotations

import itertools
import json

import pytest
from helpers import bundled
from pysat.solvers import Solver

from harness import registry, sets
from harness.encoding import Limits
from harness.grid import Grid
from harness.proof.certify import CERTIFIED, certify
from harness.run.execute import execute
from loopbench_encodings.cegar import rebuild
from loopbench_encodings.loop.colour import colour_clauses
from loopbench_encodings.loop.grid import GridGraph

LIMITS = Limits(time_s=30.0)


@pytest.mark.parametrize("rows, cols", [(3, 3), (2, 5), (4, 3), (1, 4), (2, 2)])
def test_a_drawing_takes_a_colouring_exactly_when_every_vertex_has_even_degree(rows, cols):
    graph = GridGraph(Grid(rows, cols))
    edges = graph.num_edges
    with Solver(name="minisat22", bootstrap_with=colour_clauses(graph, edges)) as solver:
        for on in itertools.product((False, True), repeat=edges):
            degree = [0] * graph.num_vertices
            for i, used in enumerate(on):
                if used:
                    for v in graph.ends[i]:
                        degree[v] += 1
            even = all(d % 2 == 0 for d in degree)
            assumed = [i + 1 if used else -(i + 1) for i, used in enumerate(on)]
            assert solver.solve(assumptions=assumed) == even, (rows, cols, on)


def test_faces_are_numbered_after_first_and_each_edge_names_its_two_faces():
    graph = GridGraph(Grid(3, 3))  # four faces, numbered 13 to 16 after the 12 edges
    clauses = colour_clauses(graph, graph.num_edges)
    assert {abs(lit) for clause in clauses for lit in clause} == set(range(1, 17))
    top = graph.var((0, 0), (0, 1))  # on the rim: the outside above, face (0, 0) below
    assert sorted(map(sorted, (c for c in clauses if top in map(abs, c)))) == [[-13, top], [-top, 13]]
    middle = graph.var((1, 0), (1, 1))  # between faces (0, 0) and (1, 0)
    assert len([c for c in clauses if middle in map(abs, c)]) == 4


@pytest.fixture
def early(monkeypatch):
    """`colour=late` starts again after half a conflict per face: a few rounds into a small puzzle."""
    monkeypatch.setattr(rebuild, "COLOUR_AFTER", 0.5)
    monkeypatch.setattr(rebuild, "COLOUR_FLOOR", 0)


@pytest.mark.parametrize("colour", ["on", "late", "off"])
def test_every_smoke_puzzle_is_answered_and_checked_with_the_faces(colour, early):
    started_again = 0
    for instance in sets.instances("slither-smoke"):
        row = execute(instance, "sat", {"colour": colour}, 0, LIMITS)
        assert (row["status"], row["verified"], row["matches_known"]) == ("solved", 1, 1), instance.name
        started_again += "coloured_at" in json.loads(row["extra"])
    assert (started_again > 0) == (colour == "late")


def test_late_faces_start_a_new_solver_that_keeps_the_cuts_and_logs_a_checked_proof(early):
    instance = bundled("janko-sl-0041", "slither-janko")
    solver = registry.create("sat", colour="late", proof="true")
    first = solver.solve(instance.puzzle, LIMITS, 0)
    assert first.status == "sat" and first.stats["coloured_at"] > 1 and first.stats["cuts"] > 0
    again = solver.solve(instance.puzzle, LIMITS, 0, exclude=(first.solution,))
    assert again.status == "unsat" and "coloured_at" in again.stats
    proof = again.stats["proof"]
    faces = GridGraph(instance.puzzle.vertices).num_edges + instance.puzzle.rows * instance.puzzle.cols
    assert max(abs(lit) for clause in proof.clauses for lit in clause) == faces
    checked = certify(proof, instance.puzzle, options=solver.options, answer=first.solution)
    assert checked["verdict"] == CERTIFIED and checked["proof_faces"] > 0  # the faces marked, made again
    assert certify(proof, instance.puzzle, options={**solver.options, "colour": "on"},
                   answer=first.solution)["verdict"].startswith("invalid CNF")


def test_the_propagator_takes_faces_from_the_start_only():
    with pytest.raises(ValueError, match="colour"):
        registry.create("propagator", colour="late")
    row = execute(bundled("janko-sl-0041", "slither-janko"), "propagator", {"colour": "on"}, 0, LIMITS)
    assert (row["status"], row["verified"]) == ("solved", 1)
