"""The loop graph is a protocol: the strategies ask a graph for its capabilities, never for its class.

A graph class that is neither `GridGraph` nor `EdgeGraph` but has their members must be served
exactly as they are (the same ASP program, arrays and colouring clauses, the same answers); a
class lacking members is refused by name when a loop problem is made; and no module of the
encodings switches on a graph class.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from harness import registry
from harness.encoding import Limits
from harness.grid import Grid
from harness.kinds import read_text
from harness.kinds.graph.model import Graph
from loopbench_encodings import loop, rules
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.arrays import LoopArrays
from loopbench_encodings.loop.asp import program
from loopbench_encodings.loop.colour import colour_clauses
from loopbench_encodings.loop.graph import EdgeGraph, LoopGraph, missing
from loopbench_encodings.loop.grid import GridGraph
from loopbench_encodings.rules import members

ENCODINGS = Path(__file__).resolve().parents[1] / "encodings"
# FORMATS.md's Masyu example
MASYU = "masyu 6 6\n- - w - - -\nw - - - - b\n- - - - - -\n- - - - - -\nb - - - - w\n- - - w - -\n"


def stranger(cls: type) -> type:
    """A class with `cls`'s members but no relation to it: what a plug-in's own graph would look like."""
    body = {k: v for k, v in vars(cls).items() if k not in ("__dict__", "__weakref__")}
    return type(f"Other{cls.__name__}", (), body)


def test_both_graph_classes_state_every_member_and_their_capabilities():
    grid = GridGraph(Grid(3, 4))
    edges = EdgeGraph(4, [(0, 1), (1, 2), (2, 3), (0, 3)], write=str, read=lambda text: [])
    assert missing(grid) == missing(edges) == []
    assert {"num_faces", "shape", "enclosed", "names", "edge_ids"} <= set(members(LoopGraph))
    assert (grid.shape.rows, grid.shape.cols, grid.shape.horizontal, grid.num_faces) == (3, 4, 9, 6)
    assert (edges.shape, edges.num_faces, edges.enclosed([0, 1, 2, 3], {0, 1, 2, 3})) == (None, 0, [])
    assert edges.edge_id(3, 0) == 3 and edges.var(0, 3) == 4


def test_a_graph_lacking_members_is_refused_by_name():
    class Half:
        num_vertices, num_edges, ends = 2, 1, ((0, 1),)

    with pytest.raises(TypeError, match=r"Half is not a loop graph: it lacks .*incident.*shape"):
        LoopProblem(Half())


def test_a_grid_of_another_class_gets_the_same_program_arrays_and_colouring():
    puzzle = read_text(MASYU, "inline")
    mine = loop.problem(puzzle)
    graph = stranger(GridGraph)(puzzle.grid)
    assert not isinstance(graph, GridGraph)
    theirs = LoopProblem(graph, mine.required, mine.hits)
    assert program(puzzle, theirs) == program(puzzle, mine)
    a, b = LoopArrays(theirs), LoopArrays(mine)
    assert (a.rows, a.cols, a.horizontal) == (b.rows, b.cols, b.horizontal) == (6, 6, 30)
    assert colour_clauses(graph, 60) == colour_clauses(mine.graph, 60)


def test_a_graph_without_the_grid_capability_is_written_as_facts_and_has_no_grid_arithmetic():
    ring = Graph(5, tuple((i, (i + 1) % 5) for i in range(5)))
    mine = loop.problem(ring)
    graph = stranger(EdgeGraph)(5, ring.edges, write=mine.graph._write, read=mine.graph._read)
    theirs = LoopProblem(graph, mine.required)
    text = program(ring, theirs)
    assert text == program(ring, mine) and "edge(0,1)." in text and "#const rows" not in text
    assert not hasattr(LoopArrays(theirs), "rows")
    with pytest.raises(ValueError, match="grid capability"):
        colour_clauses(graph, 5)


@pytest.mark.parametrize("name", ["sat", "asp", "circuit"])
def test_the_strategies_solve_a_problem_on_a_graph_of_another_class(name, monkeypatch):
    """The strategy gets the problem from the kind's rules: here one on a stranger's grid class."""
    puzzle = read_text(MASYU, "inline")
    masyu = rules.of("masyu")
    made = masyu.loop_problem

    def on_stranger(p):
        problem = made(p)
        return LoopProblem(stranger(GridGraph)(p.grid), problem.required, problem.hits)

    expected = registry.create(name).solve(puzzle, Limits(time_s=30.0), 0)
    monkeypatch.setattr(masyu, "loop_problem", on_stranger)
    got = registry.create(name).solve(puzzle, Limits(time_s=30.0), 0)
    assert got.status == expected.status == "sat"
    assert got.solution == expected.solution


def test_no_module_of_the_encodings_switches_on_a_graph_class():
    found = []
    for path in ENCODINGS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("isinstance", "issubclass", "type") and len(node.args) >= 1
                    and "Graph" in ast.unparse(node)):
                found.append(f"{path.relative_to(ENCODINGS)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []
