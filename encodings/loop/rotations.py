"""A Hamiltonian cycle by rotation and extension, tried for a moment before any clause (`prepass=rotations`).

Pósa's rotation-extension (L. Pósa, "Hamiltonian circuits in random graphs", Discrete Math. 14,
1976): grow a path from one end, to the unvisited neighbour with the fewest unvisited neighbours of
its own (Warnsdorff's rule, 1823); at a dead end, a neighbour `w` of the end on the path gives a new
path with another end by reversing the part after `w` (a rotation); a path through every vertex
whose ends are adjacent, directly or after one rotation, is the cycle. Dense graphs, whose CNF takes
seconds to build (hundreds of thousands of edges), are done in milliseconds; the sparse graphs the
field's benchmarks are made of are not, and the budget (`ROTATIONS_PER_VERTEX` rotations a vertex
and a CPU deadline, both small) bounds what a miss costs. It answers sat or nothing: it never
proves a graph has no cycle. What it finds is judged by the graph's checker like any answer.
Deterministic for a seed, but for the deadline, which only a machine slower than the budget meets.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

ROTATIONS_PER_VERTEX = 2  # rotations tried, per vertex of the graph, before giving up


def cycle(neighbours: Sequence[Sequence[int]], seed: int, deadline: float) -> list[int] | None:
    """A Hamiltonian cycle as its vertices in order, or None when the budget ran out first.

    `neighbours[v]`: the vertices adjacent to v (a simple graph); `deadline`: on `time.process_time`."""
    n = len(neighbours)
    if n < 3 or any(len(a) < 2 for a in neighbours):
        return None
    rng = random.Random(seed)
    adjacent = [set(a) for a in neighbours]
    start = min(range(n), key=lambda v: len(neighbours[v]))  # a vertex of least degree: least choice
    path, pos = [start], [-1] * n
    pos[start] = 0
    free = [len(a) for a in neighbours]  # unvisited neighbours of each vertex
    for x in neighbours[start]:
        free[x] -= 1
    rotations, budget = 0, ROTATIONS_PER_VERTEX * n
    while True:
        end = path[-1]
        if len(path) == n:
            if path[0] in adjacent[end]:
                return path
        else:
            best, fewest = -1, n + 1
            for w in neighbours[end]:
                if pos[w] < 0 and free[w] < fewest:
                    best, fewest = w, free[w]
            if best >= 0:  # extend
                pos[best] = len(path)
                path.append(best)
                for x in neighbours[best]:
                    free[x] -= 1
                continue
        if rotations >= budget or (rotations % 64 == 0 and time.process_time() >= deadline):
            return None
        rotations += 1
        pivots = [w for w in neighbours[end] if pos[w] < len(path) - 2]
        if len(path) == n:  # a rotation whose new end is adjacent to the start closes the cycle
            for w in pivots:
                if path[pos[w] + 1] in adjacent[path[0]]:
                    _reverse_after(path, pos, pos[w])
                    return path
        if not pivots:  # no rotation at this end: grow from the other
            path.reverse()
            for i, v in enumerate(path):
                pos[v] = i
            continue
        # a rotation whose new end can grow, if there is one
        growing = [w for w in pivots if free[path[pos[w] + 1]] > 0]
        _reverse_after(path, pos, pos[rng.choice(growing or pivots)])


def neighbours(graph) -> list[list[int]]:
    """Each vertex's adjacent vertices in a loop graph (`LoopGraph`: edge i's far end from v is
    sum(ends[i]) - v)."""
    ends = graph.ends
    return [[sum(ends[i]) - v for i in here] for v, here in enumerate(graph.incident)]


def _reverse_after(path: list[int], pos: list[int], i: int) -> None:
    path[i + 1:] = path[:i:-1]
    for k in range(i + 1, len(path)):
        pos[path[k]] = k


def seconds(time_limit_s: float) -> float:
    """The pre-pass's CPU budget for a run of this limit: a tenth of a second, at most 1 % of the limit."""
    return min(0.1, time_limit_s / 100)


def deadline_for(time_limit_s: float) -> float:
    return time.process_time() + seconds(time_limit_s)
