"""The graph kind's independent checker, from the rule alone: the string is a cycle through every vertex.

It shares nothing with any encoding and not even the model's parser: a solution is judged token
by token against the graph's edge list.
"""

from __future__ import annotations

from harness.kinds.graph.model import Graph

MAX_LISTED = 5  # a wrong string can break a rule at thousands of places; name the first few


def check(graph: Graph, solution: str) -> list[str]:
    """Every rule `solution` breaks, in words; empty means it is the canonical Hamiltonian cycle."""
    n = graph.n
    tokens = solution.split()
    if not tokens:
        return ["the solution is empty"]
    if solution != " ".join(tokens):
        return ["the vertex numbers must be separated by single spaces"]
    bad = [t for t in tokens if not t.isdecimal() or not 1 <= int(t) <= n]
    if bad:
        return [f"{t!r} is not a vertex number 1..{n}" for t in bad[:MAX_LISTED]]
    order = [int(t) for t in tokens]
    problems = []
    seen: set[int] = set()
    repeated = []
    for v in order:
        if v in seen:
            repeated.append(v)
        seen.add(v)
    problems += [f"vertex {v} is visited more than once" for v in repeated[:MAX_LISTED]]
    missing = [v for v in range(1, n + 1) if v not in seen]
    if missing:
        shown = ", ".join(map(str, missing[:MAX_LISTED])) + (", …" if len(missing) > MAX_LISTED else "")
        problems.append(f"{len(missing)} vertices are not visited: {shown}")
    edges = {frozenset((u + 1, v + 1)) for u, v in graph.edges}
    steps = list(zip(order, order[1:] + order[:1], strict=True)) if len(order) > 1 else []
    gaps = [(a, b) for a, b in steps if frozenset((a, b)) not in edges]
    problems += [f"{a} to {b} is not an edge of the graph" for a, b in gaps[:MAX_LISTED]]
    if len(order) < 3:
        problems.append(f"a cycle needs at least 3 vertices, the solution has {len(order)}")
    if problems:
        return problems
    if order[0] != 1:
        problems.append(f"the cycle must start at vertex 1, not {order[0]}")
    elif order[1] > order[-1]:
        problems.append(f"the cycle must go from vertex 1 to its smaller neighbour {order[-1]} first, "
                        f"not {order[1]}")
    return problems
