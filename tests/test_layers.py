"""Layers that only point down: what each part of the house may never reach, imports followed all the way.

Beside the circle test (`test_import_cycles`, whose reader this uses): a module reaches every
module it imports, at module level or in a function, and what those import in turn; importing
`a.b.c` also runs the packages `a` and `a.b`, so a module reaches its parent packages too.
"""

from __future__ import annotations

import re

import networkx as nx
import pytest
from test_import_cycles import import_graph

ENCODINGS = "loopbench_encodings"
ANALYSIS = "harness.analysis"

# (who, a pattern of their modules' names, the package they never reach, why)
RULES = [
    ("the kinds' checkers and formats",
     r"harness\.kinds\.(\w+\.)?(check|formats|loopcheck|reading|text|janko|puzzlink|tatham|demands)",
     ENCODINGS, "the checker is written from the rules and shares no code with any encoding"),
    ("the DRAT reader and the cut checker", r"harness\.proof\.(drat|forward|backward|reasons|cuts)",
     ENCODINGS, "a proof is judged by the puzzle's rules, never by the code that logged it"),
    ("the store and its schema", r"harness\.run\.store|harness\.schema", ENCODINGS,
     "a row is stored whatever encoding made it"),
    ("the proof-record format", r"harness\.prooflog", ENCODINGS,
     "encodings and the checker both import it: the checker reads a mark from it, not from an encoding"),
    ("the proof-record format", r"harness\.prooflog", "harness.proof",
     "a leaf: the encodings that log proofs import nothing of the checker"),
    ("the encodings", r"loopbench_encodings(\.\w+)*", "harness.proof",
     "they log proofs in the shared format (harness.prooflog) and never reach the checker that judges them"),
    ("the runner", r"harness\.run\.(?!cli$|__main__$)\w+|harness\.run", ANALYSIS,
     "a sweep returns what it stored; the command line (cli, __main__) asks analysis for the summary"),
]
LEAVES = {"harness.outcomes": set(), "harness.schema": {"harness.outcomes"}, "harness.prooflog": set()}


def reach_graph() -> nx.DiGraph:
    graph = import_graph()
    for name in list(graph):
        parts = name.split(".")
        graph.add_edges_from((name, ".".join(parts[:i])) for i in range(1, len(parts))
                             if ".".join(parts[:i]) in graph)
    return graph


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    return reach_graph()


def inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def reached(graph: nx.DiGraph, name: str, package: str) -> list[str]:
    """One import path from `name` into `package`, or [] when there is none."""
    for target in sorted(nx.descendants(graph, name)):
        if inside(target, package):
            return nx.shortest_path(graph, name, target)
    return []


def test_the_reader_follows_imports_and_parent_packages(graph):
    assert reached(graph, "harness.run.cli", ANALYSIS)  # the command line asks analysis for the summary
    assert reached(graph, "harness.proof.certify", ENCODINGS)  # base clauses made again by the model code
    assert graph.has_edge("harness.kinds.masyu.check", "harness.kinds")  # a parent package runs first


@pytest.mark.parametrize("who, pattern, package, why", RULES, ids=[f"{r[0]} vs {r[2]}" for r in RULES])
def test_a_layer_never_reaches_what_sits_above_it(graph, who, pattern, package, why):
    members = [name for name in graph if re.fullmatch(pattern, name)]
    assert members, f"no module is {who} ({pattern}): the rule checks nothing"
    paths = [" -> ".join(path) for name in sorted(members) if (path := reached(graph, name, package))]
    assert paths == [], f"{who} must not reach {package} ({why}): " + "; ".join(paths)


@pytest.mark.parametrize("leaf", sorted(LEAVES))
def test_the_shared_formats_are_leaves(graph, leaf):
    project = {name for name in nx.descendants(graph, leaf) if name not in ("harness",)}
    assert project == LEAVES[leaf], f"{leaf} is a leaf; it imports {sorted(project - LEAVES[leaf])}"
