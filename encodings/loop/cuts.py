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
together with an edge of another loop.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from harness.grid import Cell, Edge, Grid, edge
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


def components(chosen: Iterable[Edge]) -> list[set[Cell]]:
    """Connected components (as cell sets) of the graph formed by the chosen edges."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_edges_from(chosen)
    return [set(c) for c in nx.connected_components(graph)]


def find_cuts(problem: LoopProblem, chosen: Iterable[Edge], family: str) -> list[Cut]:
    """The cuts violated by `chosen`; an empty list means it is one complete loop: the answer."""
    if family not in CUT_FAMILIES:
        raise ValueError(f"unknown cut family {family!r} (choose from {', '.join(CUT_FAMILIES)})")
    chosen = list(chosen)
    comps = components(chosen)
    if not comps:
        return [Cut(require=problem.graph.edges)]  # every answer chooses some edge
    where = {cell: i for i, comp in enumerate(comps) for cell in comp}
    inside: list[list[Edge]] = [[] for _ in comps]
    for e in chosen:  # one pass: each loop's own edges
        inside[where[e[0]]].append(e)
    complete = [problem.complete(comp, own) for comp, own in zip(comps, inside, strict=True)]
    if len(comps) == 1 and complete[0]:
        return []
    cuts = []
    for i, (comp, own) in enumerate(zip(comps, inside, strict=True)):
        holds = problem.required & comp
        if complete[i]:
            # This loop may be the answer by itself. If another loop cannot be, cutting that one
            # suffices; if every loop could be, forbid this one only together with another's edge.
            if all(complete):
                company = next(e for e in chosen if where[e[0]] != i)
                cuts.append(Cut(forbid=(*own, company)))
        elif family == "cutset" and holds and holds != problem.required:
            cuts.append(Cut(require=boundary(problem.graph, comp)))
        else:
            cuts.append(Cut(forbid=tuple(own)))
    return cuts


def exclusion(problem: LoopProblem, solution: str) -> Cut:
    """The cut that rules out exactly one answer: a loop containing all its edges is that loop."""
    return Cut(forbid=tuple(sorted(problem.edges_of(solution))))


def boundary(grid: Grid, comp: set[Cell]) -> tuple[Edge, ...]:
    """The edges with exactly one end in `comp`."""
    return tuple(
        edge(cell, nxt) for cell in sorted(comp) for _, nxt in grid.neighbours(cell) if nxt not in comp
    )
