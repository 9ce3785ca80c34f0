"""Drawings of a Slitherlink puzzle and its loop: box-drawing text for the terminal, matplotlib for files."""

from __future__ import annotations

from typing import Any

from harness.grid import parse_solution, solution_edges
from harness.kinds.slitherlink.model import Slitherlink

# Vertex glyph by direction bits (right 1, up 2, left 4, down 8), as in the Masyu drawing, so a
# broken solution (a dead end, a branch) still draws as what it is. ASCII marks every vertex `+`.
BOX = {"glyphs": "·╶╵└╴─┘┴╷┌│├┐┬┤┼", "h": "───", "v": "│"}
ASCII = {"glyphs": "+" * 16, "h": "---", "v": "|"}


def render_text(puzzle: Slitherlink, solution: str = "", ascii: bool = False) -> str:
    """The puzzle as text: a vertex every 4 columns and 2 lines, clues in the cell centres, and the loop.

    Vertices on the loop show as box-drawing corners and runs, the others as a dot (ascii: every
    vertex `+`); `?` clues show as `?`. Lines carry no trailing blanks, so renders diff cleanly.
    """
    style = ASCII if ascii else BOX
    vertices = puzzle.vertices
    bits = parse_solution(vertices, solution) if solution else {v: 0 for v in vertices.cells}
    used = solution_edges(vertices, solution) if solution else set()
    lines = []
    for r in range(vertices.rows):
        row = []
        for c in range(vertices.cols):
            row.append(style["glyphs"][bits[(r, c)]])
            if c < puzzle.cols:
                row.append(style["h"] if ((r, c), (r, c + 1)) in used else " " * len(style["h"]))
        lines.append("".join(row).rstrip())
        if r < puzzle.rows:
            row = []
            for c in range(vertices.cols):
                row.append(style["v"] if ((r, c), (r + 1, c)) in used else " ")
                if c < puzzle.cols:
                    row.append(f" {_clue_text(puzzle, (r, c)) or ' '} ")
            lines.append("".join(row).rstrip())
    return "\n".join(lines) + "\n"


def _clue_text(puzzle: Slitherlink, cell: tuple[int, int]) -> str:
    if cell in puzzle.unknown:
        return "?"
    clue = puzzle.clues.get(cell)
    return "" if clue is None else str(clue)


def draw(puzzle: Slitherlink, solution: str = "", ax: Any = None, title: str = "") -> Any:
    """Draw the puzzle on a matplotlib Axes (a new figure when `ax` is None); returns the Axes.

    Light dots at the vertices, clue numbers in the cells, the loop as a thick line along the edges.
    """
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection

    rows, cols = puzzle.rows, puzzle.cols
    if ax is None:
        cell_in = min(0.45, 9 / max(rows, cols))  # big grids shrink so the file stays a sane size
        _, ax = plt.subplots(figsize=(cols * cell_in + 0.4, rows * cell_in + 0.4 + (0.3 if title else 0)))
    fig = ax.figure
    margin = 0.3
    ax.set_xlim(-margin, cols + margin)
    ax.set_ylim(rows + margin, -margin)  # row 0 at the top, as in every text format
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)

    # Sizes are in points, so scale them with the drawn size of one cell.
    fig.canvas.draw_idle()
    bbox = ax.get_window_extent().transformed(fig.dpi_scale_trans.inverted())
    cell_pt = 72 * min(bbox.width / (cols + 2 * margin), bbox.height / (rows + 2 * margin))
    xs, ys = zip(*((c, r) for r, c in puzzle.vertices.cells), strict=True)
    ax.scatter(xs, ys, s=max(1.0, (0.1 * cell_pt) ** 2), color="0.55", linewidths=0, zorder=1)
    if solution:
        segments = [[(a[1], a[0]), (b[1], b[0])] for a, b in solution_edges(puzzle.vertices, solution)]
        ax.add_collection(LineCollection(segments, colors="#1f3f77", linewidths=max(1.5, 0.12 * cell_pt),
                                         capstyle="round", joinstyle="round", zorder=2))
    for r in range(rows):
        for c in range(cols):
            text = _clue_text(puzzle, (r, c))
            if text:
                ax.text(c + 0.5, r + 0.5, text, ha="center", va="center", fontsize=max(3.0, 0.55 * cell_pt),
                        color="black", zorder=3)
    if title:
        ax.set_title(title, fontsize=10)
    return ax
