"""Drawings of a graph and its Hamiltonian cycle: a summary for the terminal, a layout for PNG/SVG files."""

from __future__ import annotations

import math
from collections import deque
from typing import Any

from harness.kinds.graph.model import Graph, parse_order, solution_edges

MAX_DRAWN = 3000  # past this many vertices a drawing is a blot and the layout takes minutes
STRESS_UP_TO = 400  # the stress layout holds n x n arrays; larger graphs go on a circle
MAX_LISTED = 60  # vertices of the cycle shown in the text summary


def render_text(graph: Graph, solution: str = "", ascii: bool = False) -> str:
    """N vertices, M edges, the degree range, and the cycle if given; ValueError on a malformed one."""
    degrees = graph.degrees()
    spread = f"degree {min(degrees)}" if min(degrees) == max(degrees) else \
        f"degrees {min(degrees)}..{max(degrees)}"
    lines = [f"graph: {graph.n} vertices, {len(graph.edges)} edges, {spread}"]
    if solution:
        order = parse_order(graph.n, solution)
        shown = " ".join(str(v + 1) for v in order[:MAX_LISTED])
        more = f" {'...' if ascii else '…'} ({len(order)} vertices)" if len(order) > MAX_LISTED else ""
        lines.append(f"cycle: {shown}{more}")
    return "\n".join(lines) + "\n"


def layout(graph: Graph, solution: str = "") -> dict[int, tuple[float, float]]:
    """Vertex positions. A cubic (or sparser) graph with a cycle goes on a circle in cycle order, the
    other edges as chords; other graphs up to STRESS_UP_TO vertices get a stress layout (a grid
    looks like a grid, the cycle is drawn over it); larger ones the circle in cycle order, or in
    breadth-first order from vertex 1 when there is no cycle."""
    order = parse_order(graph.n, solution) if solution else None
    if order is not None and sorted(order) != list(range(graph.n)):
        order = None  # not a permutation: draw the graph as if there were no cycle
    circle = graph.n > STRESS_UP_TO or (order is not None and max(graph.degrees()) <= 3)
    if not circle:
        return stress(graph)
    order = order or breadth_first(graph)
    step = 2 * math.pi / graph.n
    return {v: (math.sin(i * step), math.cos(i * step)) for i, v in enumerate(order)}


def stress(graph: Graph, rounds: int = 300) -> dict[int, tuple[float, float]]:
    """Stress majorization (Gansner, Koren and North 2004): drawn distances close to graph distances.

    What Kamada-Kawai aims at, in numpy alone (networkx's needs scipy); starts from the
    breadth-first circle, so the same graph always gets the same drawing.
    """
    import numpy as np

    n = graph.n
    dist = np.array([hops(graph, v) for v in range(n)], dtype=float)
    dist[dist < 0] = dist.max() + 1  # other components: one step beyond the farthest vertex
    weight = np.zeros_like(dist)
    np.divide(1.0, dist**2, out=weight, where=dist > 0)
    angle = np.empty(n)
    angle[breadth_first(graph)] = np.arange(n) * 2 * np.pi / n
    x = np.stack([np.sin(angle), np.cos(angle)], axis=1) * dist.max() / 2
    for _ in range(rounds):
        diff = x[:, None, :] - x[None, :, :]
        norm = np.linalg.norm(diff, axis=2)
        np.fill_diagonal(norm, 1.0)
        pulled = x[None, :, :] + (dist / norm)[:, :, None] * diff
        x = (weight[:, :, None] * pulled).sum(axis=1) / weight.sum(axis=1)[:, None]
    return {v: (float(x[v, 0]), float(x[v, 1])) for v in range(n)}


def hops(graph: Graph, source: int) -> list[int]:
    """Breadth-first distances from `source` (-1: unreachable)."""
    out = [-1] * graph.n
    out[source] = 0
    queue = deque([source])
    while queue:
        v = queue.popleft()
        for w in graph.neighbours[v]:
            if out[w] < 0:
                out[w] = out[v] + 1
                queue.append(w)
    return out


def breadth_first(graph: Graph) -> list[int]:
    """Every vertex, in breadth-first order from vertex 1 (each further component from its smallest)."""
    seen = [False] * graph.n
    order: list[int] = []
    for root in range(graph.n):
        if seen[root]:
            continue
        seen[root] = True
        queue = deque([root])
        while queue:
            v = queue.popleft()
            order.append(v)
            for w in graph.neighbours[v]:
                if not seen[w]:
                    seen[w] = True
                    queue.append(w)
    return order


def draw(graph: Graph, solution: str = "", ax: Any = None, title: str = "") -> Any:
    """Draw the graph on a matplotlib Axes (a new figure when `ax` is None); returns the Axes.

    Edges grey, the cycle's edges thick and red. Past MAX_DRAWN vertices the Axes says the graph is
    too large to draw, instead of drawing it.
    """
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection

    if ax is None:
        side = 6 if graph.n <= 200 or graph.n > MAX_DRAWN else 10
        _, ax = plt.subplots(figsize=(side, side + (0.3 if title else 0)))
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_aspect("equal")
    for spine in ax.spines.values():
        spine.set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)
    if graph.n > MAX_DRAWN:
        ax.text(0.5, 0.5, f"{graph.n} vertices, {len(graph.edges)} edges:\ntoo large to draw "
                          f"(the limit is {MAX_DRAWN} vertices)", ha="center", va="center",
                transform=ax.transAxes, fontsize=12)
        return ax
    pos = layout(graph, solution)
    cycle = solution_edges(graph, solution) if solution else set()
    small = graph.n <= 60
    width = 1.0 if small else max(0.2, 60 / graph.n)
    plain = [(pos[u], pos[v]) for u, v in graph.edges if (u, v) not in cycle]
    ax.add_collection(LineCollection(plain, colors="0.6", linewidths=width, zorder=1))
    loop = [(pos[u], pos[v]) for u, v in cycle]
    ax.add_collection(LineCollection(loop, colors="#c0392b", linewidths=max(1.2, 3 * width), zorder=2))
    xs, ys = zip(*(pos[v] for v in range(graph.n)), strict=True)
    dot = 160 if small else max(0.3, (400 if cycle else 4000) / graph.n)  # a cycle shows through small dots
    ax.scatter(xs, ys, s=dot, c="white" if small else "black",
               edgecolors="black", linewidths=0.8 if small else 0, zorder=3)
    if small:
        for v in range(graph.n):
            ax.text(*pos[v], str(v + 1), ha="center", va="center", fontsize=7, zorder=4)
    ax.autoscale_view()
    ax.margins(0.05)
    return ax
