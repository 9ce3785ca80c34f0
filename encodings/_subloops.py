"""Sub-loop detection and the cuts that forbid them, shared by the lazy loop strategies.

Given the edges a solver chose (every cell of degree 0 or 2), the connected components are
loops. If there is one loop and it holds every pearl, the answer is found. Otherwise each loop
yields a cut (a list of edges, at least one of which must change):
- `cuts=loop`: the loop's own edges cannot all be chosen together (forbid this exact sub-loop);
- `cuts=cutset`: a component holding some but not all pearls must have an edge leaving it
  (an edge of its boundary); a component holding no pearl is forbidden as in `loop`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from harness.grid import Cell, Edge, Grid, edge
from harness.kinds.masyu.model import Masyu

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


def required_cells(puzzle: Masyu) -> set[Cell]:
    """The cells the one loop must hold: the pearls, or every cell of a `full` puzzle."""
    return set(puzzle.grid.cells) if puzzle.full else set(puzzle.pearls)


def find_cuts(grid: Grid, pearls: Iterable[Cell], chosen: Iterable[Edge], family: str) -> list[Cut]:
    """The cuts violated by `chosen`; an empty list means it is one loop through every pearl.

    A `full` puzzle passes every cell as `pearls`. Every cut is valid for every answer: a loop
    that holds all pearls is never cut itself, only the loops chosen beside it.
    """
    if family not in CUT_FAMILIES:
        raise ValueError(f"unknown cut family {family!r} (choose from {', '.join(CUT_FAMILIES)})")
    chosen = list(chosen)
    pearls = set(pearls)
    comps = components(chosen)
    if not comps:
        return [Cut(require=grid.edges)]  # every answer chooses some edge
    if len(comps) == 1 and pearls <= comps[0]:
        return []
    where = {cell: i for i, comp in enumerate(comps) for cell in comp}
    inside: list[list[Edge]] = [[] for _ in comps]
    for e in chosen:  # one pass: each loop's own edges
        inside[where[e[0]]].append(e)
    cuts = []
    for comp, own in zip(comps, inside, strict=True):
        holds = pearls & comp
        if holds == pearls:
            # This loop may be the answer by itself: only the loops beside it are wrong. With
            # pearls, those hold none and get their own cut; with none, forbid it with company.
            if not pearls:
                company = next(e for e in chosen if e[0] not in comp)
                cuts.append(Cut(forbid=(*own, company)))
        elif family == "cutset" and holds:
            cuts.append(Cut(require=boundary(grid, comp)))
        else:
            cuts.append(Cut(forbid=tuple(own)))
    return cuts


def boundary(grid: Grid, comp: set[Cell]) -> tuple[Edge, ...]:
    """The edges with exactly one end in `comp`."""
    return tuple(
        edge(cell, nxt) for cell in sorted(comp) for _, nxt in grid.neighbours(cell) if nxt not in comp
    )
