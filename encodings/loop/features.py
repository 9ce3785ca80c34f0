"""Cheap features of a graph that tell which configuration suits it: size, degrees, hubs, chains, parts.

`features(neighbours)` reads a graph as its neighbour lists (vertices 0..n-1) and gives a flat dict of
numbers, the same keys for every graph (`NAMES`), in one pass over the edges plus one search over the
degree-2 vertices and `loop.split.parts` (a search over the graph without its hubs): well under a
second on the largest FHCP graph. The selector is trained on them (`harness.select`) and the `auto`
encoding computes them at run time, so what it is trained on and what it reads are made by one function.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import split

HUB_DEGREE = 10  # counted as a hub here: the "vertices of degree >= 10" of the FHCP notes

NAMES = ("vertices", "edges", "min_degree", "max_degree", "mean_degree", "share_degree2", "cubic",
         "hubs10", "hub_degree_max", "hub_degree_mean", "split_hubs", "split_parts", "chains",
         "chain_longest", "share_forced")


def share_degree2(degrees: Sequence[int]) -> float:
    """The share of the vertices that have degree 2 (rounded as the features file has it)."""
    return round(sum(1 for d in degrees if d == 2) / len(degrees), 4) if degrees else 0.0


def features(neighbours: Sequence[Sequence[int]]) -> dict[str, float]:
    """The graph's features by name (`NAMES`); every value a number (`cubic` 1 or 0).

    `hubs10`: vertices of degree >= HUB_DEGREE, their degrees' largest and mean (0 without any);
    `split_hubs`, `split_parts`: the hubs and parts `split=hubs` would use (`loop.split`; 0 parts: the
    graph is solved whole, by the same search as `split=off`); `chains`: maximal paths of degree-2
    vertices (each such vertex forces both its edges), `chain_longest` the most vertices in one;
    `share_forced`: the share of edges at a degree-2 vertex (forced onto every Hamiltonian cycle).
    """
    degrees = [len(a) for a in neighbours]
    n = len(degrees)
    m = sum(degrees) // 2
    hub = [d for d in degrees if d >= HUB_DEGREE]
    two = [v for v, d in enumerate(degrees) if d == 2]
    forced = {(min(v, w), max(v, w)) for v in two for w in neighbours[v]}
    chains, longest = _chains(two, neighbours, degrees)
    return {
        "vertices": n, "edges": m, "min_degree": min(degrees, default=0),
        "max_degree": max(degrees, default=0), "mean_degree": round(2 * m / n, 4) if n else 0.0,
        "share_degree2": share_degree2(degrees),
        "cubic": int(bool(degrees) and all(d == 3 for d in degrees)),
        "hubs10": len(hub), "hub_degree_max": max(hub, default=0),
        "hub_degree_mean": round(sum(hub) / len(hub), 2) if hub else 0.0,
        "split_hubs": len(split.hubs(degrees)) if n else 0,
        "split_parts": len(split.parts(tuple(neighbours))),
        "chains": chains, "chain_longest": longest, "share_forced": round(len(forced) / m, 4) if m else 0.0,
    }


def _chains(two: list[int], neighbours: Sequence[Sequence[int]], degrees: list[int]) -> tuple[int, int]:
    """How many maximal paths the degree-2 vertices make, and the most vertices in one."""
    seen: set[int] = set()
    count = longest = 0
    for s in two:
        if s in seen:
            continue
        seen.add(s)
        size, stack = 1, [s]
        while stack:
            for w in neighbours[stack.pop()]:
                if degrees[w] == 2 and w not in seen:
                    seen.add(w)
                    size += 1
                    stack.append(w)
        count += 1
        longest = max(longest, size)
    return count, longest
