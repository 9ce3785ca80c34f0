"""Drawings of a Masyu puzzle and its loop: box-drawing text for the terminal, matplotlib for files."""

from __future__ import annotations

from typing import Any

from harness.grid import parse_solution, solution_edges
from harness.kinds.drawing import cell_axes
from harness.kinds.masyu.model import Masyu, Pearl

# Cell glyph by direction bits (right 1, up 2, left 4, down 8). Every combination has a glyph so
# that a broken solution (a dead end, a branch) still draws as what it is.
BOX = {"glyphs": "·╶╵└╴─┘┴╷┌│├┐┬┤┼", "white": "○", "black": "●", "h": "───", "v": "│"}
ASCII = {"glyphs": ".-|+--++|+|+++++", "white": "O", "black": "@", "h": "---", "v": "|"}


def render_text(puzzle: Masyu, solution: str = "", ascii: bool = False) -> str:
    """The puzzle as text, one cell every 4 columns and 2 lines, with the loop drawn if given.

    Pearls show as ○ ● (ascii: O @), cells on the loop as box-drawing corners and runs, other
    cells as a dot. Lines carry no trailing blanks, so renders diff cleanly.
    """
    style = ASCII if ascii else BOX
    grid = puzzle.grid
    bits = parse_solution(grid, solution) if solution else {cell: 0 for cell in grid.cells}
    used = solution_edges(grid, solution) if solution else set()
    lines = []
    for r in range(grid.rows):
        row = []
        for c in range(grid.cols):
            row.append(_glyph(puzzle.pearls.get((r, c)), bits[(r, c)], style))
            if c + 1 < grid.cols:
                row.append(style["h"] if ((r, c), (r, c + 1)) in used else " " * len(style["h"]))
        lines.append("".join(row).rstrip())
        if r + 1 < grid.rows:
            gaps = [style["v"] if ((r, c), (r + 1, c)) in used else " " for c in range(grid.cols)]
            lines.append((" " * len(style["h"])).join(gaps).rstrip())
    return "\n".join(lines) + "\n"


def _glyph(pearl: Pearl | None, bits: int, style: dict[str, Any]) -> str:
    if pearl is Pearl.WHITE:
        return style["white"]
    if pearl is Pearl.BLACK:
        return style["black"]
    return style["glyphs"][bits]


def draw(puzzle: Masyu, solution: str = "", ax: Any = None, title: str = "") -> Any:
    """Draw the puzzle on a matplotlib Axes (a new figure when `ax` is None); returns the Axes.

    Light grid, the loop as a thick line through cell centres, pearls as white and black discs.
    """
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Circle

    ax, cell_pt = cell_axes(puzzle.rows, puzzle.cols, ax, title)
    if solution:
        segments = [[(a[1], a[0]), (b[1], b[0])] for a, b in solution_edges(puzzle.grid, solution)]
        ax.add_collection(LineCollection(segments, colors="#1f3f77", linewidths=max(1.5, 0.16 * cell_pt),
                                         capstyle="round", joinstyle="round", zorder=2))
    for (r, c), pearl in puzzle.pearls.items():
        face = "white" if pearl is Pearl.WHITE else "black"
        ax.add_patch(Circle((c, r), 0.3, facecolor=face, edgecolor="black",
                            linewidth=max(0.8, 0.05 * cell_pt), zorder=3))
    if title:
        ax.set_title(title, fontsize=10)
    return ax
