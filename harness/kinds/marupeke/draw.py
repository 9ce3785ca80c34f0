"""Drawings of a Marupeke puzzle and its marks: text for the terminal, matplotlib for files."""

from __future__ import annotations

from typing import Any

from harness.grid import Cell, parse_cells
from harness.kinds.drawing import cell_axes
from harness.kinds.marupeke.model import BLOCK, Marupeke

BOX = {"O": "○", "X": "×", "white": "·", "block": "■"}
ASCII = {"O": "O", "X": "X", "white": ".", "block": "#"}
INK, GIVEN_INK = "#1f3f77", "black"


def marks(puzzle: Marupeke, solution: str = "") -> dict[Cell, str]:
    """Each white cell's mark (given, or from the solution); ValueError on a malformed solution."""
    out = {cell: mark.value for cell, mark in puzzle.given.items()}
    if solution:
        out.update({cell: ch for cell, ch in parse_cells(puzzle.grid, solution, "OX" + BLOCK).items()
                    if cell not in puzzle.blocks and ch != BLOCK})
    return out


def render_text(puzzle: Marupeke, solution: str = "", ascii: bool = False) -> str:
    """The grid as text, one character per cell: ○ × (ascii O X) marks, ■ (#) blockers, · (.) empty."""
    style = ASCII if ascii else BOX
    mark = marks(puzzle, solution)
    lines = []
    for r in range(puzzle.rows):
        row = [style["block"] if (r, c) in puzzle.blocks else style[mark[(r, c)]] if (r, c) in mark
               else style["white"] for c in range(puzzle.cols)]
        lines.append(" ".join(row).rstrip())
    return "\n".join(lines) + "\n"


def draw(puzzle: Marupeke, solution: str = "", ax: Any = None, title: str = "") -> Any:
    """Draw the puzzle on a matplotlib Axes (a new figure when `ax` is None); returns the Axes.

    Blockers filled; O a ring, X a cross; given marks in black, solved ones in blue.
    """
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Circle, Rectangle

    ax, cell_pt = cell_axes(puzzle.rows, puzzle.cols, ax, title)
    width = max(1.2, 0.08 * cell_pt)
    for r, c in puzzle.blocks:
        ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, facecolor="0.15", edgecolor="0.15", zorder=1))
    crosses: dict[str, list] = {GIVEN_INK: [], INK: []}
    for (r, c), ch in marks(puzzle, solution).items():
        colour = GIVEN_INK if (r, c) in puzzle.given else INK
        if ch == "O":
            ax.add_patch(Circle((c, r), 0.3, facecolor="none", edgecolor=colour, linewidth=width, zorder=2))
        else:
            crosses[colour] += [[(c - 0.28, r - 0.28), (c + 0.28, r + 0.28)],
                                [(c - 0.28, r + 0.28), (c + 0.28, r - 0.28)]]
    for colour, segments in crosses.items():
        ax.add_collection(LineCollection(segments, colors=colour, linewidths=width, capstyle="round",
                                         zorder=2))
    if title:
        ax.set_title(title, fontsize=10)
    return ax
