"""Drawings of a graph and its Hamiltonian cycle: a summary for the terminal, a networkx layout for files."""

from __future__ import annotations

import math
from typing import Any

from harness.kinds.graph.model import Graph, parse_order, solution_edges

MAX_DRAWN = 3000  # past this many vertices a drawing is a blot and the layout takes minutes
SPRING_UP_TO = 300  # Kamada-Kawai is quadratic in memory and slow; larger graphs get a spring layout
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
    """Vertex positions: on a circle in cycle order when there is a cycle (the chords show the rest),
    else Kamada-Kawai for small graphs and a seeded spring layout for larger ones."""
    if solution:
        order = parse_order(graph.n, solution)
        if sorted(order) == list(range(graph.n)):
            step = 2 * math.pi / graph.n
            return {v: (math.sin(i * step), math.cos(i * step)) for i, v in enumerate(order)}
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(range(graph.n))
    g.add_edges_from(graph.edges)
    if graph.n <= SPRING_UP_TO:
        return nx.kamada_kawai_layout(g)
    return nx.spring_layout(g, seed=0, iterations=60)


def draw(graph: Graph, solution: str = "", ax: Any = None, title: str = "") -> Any:
    """Draw the graph on a matplotlib Axes (a new figure when `ax` is None); returns the Axes.

    Edges grey, the cycle's edges thick and red. Past MAX_DRAWN vertices the Axes says the graph is
    too large to draw, instead of drawing it.
    """
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection

    if ax is None:
        side = 6 if graph.n <= 200 else 10
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
    ax.add_collection(LineCollection(loop, colors="#c0392b", linewidths=3 * width, zorder=2))
    xs, ys = zip(*(pos[v] for v in range(graph.n)), strict=True)
    ax.scatter(xs, ys, s=160 if small else max(1.0, 4000 / graph.n), c="white" if small else "black",
               edgecolors="black", linewidths=0.8 if small else 0, zorder=3)
    if small:
        for v in range(graph.n):
            ax.text(*pos[v], str(v + 1), ha="center", va="center", fontsize=7, zorder=4)
    ax.autoscale_view()
    ax.margins(0.05)
    return ax
