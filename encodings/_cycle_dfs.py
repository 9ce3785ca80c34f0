"""Depth-first search for a loop through every vertex of a loop graph (`dfs` on the graph kind).

One path grows from vertex 0 with backtracking, one edge at a time, to the unvisited neighbour
of its end with the fewest ways on (Warnsdorff's rule). A move is refused at once if it leaves an
unvisited vertex with fewer than two neighbours it could still be joined through (unvisited, or
an end of the path), or vertex 0 with no unvisited neighbour while vertices remain. A full path
whose end is joined to vertex 0 is a Hamiltonian cycle; one in `exclude` is passed over.
Complete: an exhausted search is `unsat`. Deterministic (the seed is unused); stats: `nodes`
(moves tried). The clock is read every CLOCK_EVERY nodes; out of time: `unknown`.
"""

from __future__ import annotations

import time

from harness.encoding import SAT, UNKNOWN, UNSAT, Limits, Outcome

CLOCK_EVERY = 256


def solve_cycle(problem, limits: Limits, exclude: tuple[str, ...]) -> Outcome:
    """Search `problem` (every vertex required) for a cycle through every vertex."""
    graph = problem.graph
    n, ends, incident = graph.num_vertices, graph.ends, graph.incident
    if len(problem.required) != n:
        raise ValueError("the cycle search serves loops through every vertex only")
    neighbours = [[ends[i][0] + ends[i][1] - v for i in incident[v]] for v in range(n)]
    excluded = set(exclude)
    deadline = limits.deadline()
    visited = bytearray(n)
    free = [len(a) for a in neighbours]  # per unvisited vertex: neighbours unvisited or at a path end
    path, edges = [0], []
    visited[0] = 1
    nodes = 0

    def ways_on(v: int) -> int:
        return sum(1 for w in neighbours[v] if not visited[w])

    def advance(end: int, v: int) -> list[int] | None:
        """Move the path's end from `end` to `v`; the vertices whose `free` fell, or None if one is stuck."""
        fell = []
        if end != 0:  # the end becomes inner: its unvisited neighbours lose it (vertex 0 stays an end)
            for w in neighbours[end]:
                if not visited[w] and w != v:
                    free[w] -= 1
                    fell.append(w)
        visited[v] = 1
        path.append(v)
        if any(free[w] < 2 for w in fell) or (len(path) < n and not ways_on(0)):
            retreat(fell)
            return None
        return fell

    def retreat(fell: list[int]) -> None:
        visited[path.pop()] = 0
        for w in fell:
            free[w] += 1

    stack = [(sorted((w for w in neighbours[0] if not visited[w]), key=ways_on, reverse=True), None)]
    while stack:
        options, fell = stack[-1]
        if not options:
            stack.pop()
            if fell is not None:
                retreat(fell)
                edges.pop()
            continue
        v = options.pop()
        nodes += 1
        if nodes % CLOCK_EVERY == 0 and time.process_time() > deadline:
            return Outcome(UNKNOWN, stats={"nodes": nodes, "reason": f"time limit of {limits.time_s:g} s "
                                           f"reached after {nodes} nodes"})
        end = path[-1]
        moved = advance(end, v)
        if moved is None:
            continue
        edges.append(graph.between(end, v))
        if len(path) == n:
            closing = graph.between(v, 0)
            if closing >= 0:
                answer = graph.solution([*edges, closing])
                if answer not in excluded:
                    return Outcome(SAT, answer, {"nodes": nodes})
            retreat(moved)
            edges.pop()
            continue
        nxt = sorted((w for w in neighbours[v] if not visited[w]), key=ways_on, reverse=True)
        stack.append((nxt, moved))
    return Outcome(UNSAT, stats={"nodes": nodes})
