"""Sub-loop detection and the cuts that forbid sub-loops, shared by the lazy loop strategies.

Given the edges a solver chose (every vertex of degree 0 or 2), the connected components are
loops. If there is one loop and it is complete (every required vertex on it, an edge of every
`hits` group used), the answer is found. Otherwise each wrong loop yields a cut (a list of edges,
at least one of which must change):
- `cuts=loop`: the loop's own edges cannot all be chosen together (forbid this exact sub-loop);
- `cuts=cutset`: a loop holding some but not all required vertices must have an edge leaving it
  (an edge of its boundary); other wrong loops are forbidden as in `loop`.
Every cut is valid for every answer: an answer holding all edges of a loop is that loop, so a
loop is forbidden alone only when it cannot be the answer by itself, and otherwise only
together with an edge of another loop. The decision is written once, on integer arrays
(`loop.arrays.LoopArrays.cut_clauses`); `find_cuts` gives it edges and cuts by their cells.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from harness.grid import Edge
from loopbench_encodings.loop import LoopProblem

CUT_FAMILIES = ("loop", "cutset")


@dataclass(frozen=True)
class Cut:
    """A lazily added constraint: `forbid` cannot all be chosen, or one of `require` must be.

    A cut with `require` reads "some edge of `require` is chosen"; a cut with `forbid` reads
    "not every edge of `forbid` is chosen". Exactly one of the two is non-empty.
    """

    forbid: tuple[Edge, ...] = ()
    require: tuple[Edge, ...] = ()


def check_family(family: str) -> None:
    if family not in CUT_FAMILIES:
        raise ValueError(f"unknown cut family {family!r} (choose from {', '.join(CUT_FAMILIES)})")


def find_cuts(
    problem: LoopProblem, chosen: Iterable[Edge], family: str, components: str = "networkx"
) -> list[Cut]:
    """The cuts violated by `chosen`; an empty list means it is one complete loop: the answer."""
    check_family(family)
    arrays, edges = problem.arrays, problem.graph.edges
    ids = [arrays.edge_id(*e) for e in chosen]
    cuts = []
    for clause in arrays.cut_clauses(ids, family, components):
        named = tuple(edges[abs(lit) - 1] for lit in clause)
        cuts.append(Cut(forbid=named) if clause and clause[0] < 0 else Cut(require=named))
    return cuts


def exclusion(problem: LoopProblem, solution: str) -> Cut:
    """The cut that rules out exactly one answer: a loop containing all its edges is that loop."""
    return Cut(forbid=tuple(sorted(problem.edges_of(solution))))
