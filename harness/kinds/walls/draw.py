"""Drawings of a Walls puzzle and its segments: text for the terminal, matplotlib for files."""

from __future__ import annotations

from typing import Any

from harness.grid import parse_cells
from harness.kinds.drawing import cell_axes
from harness.kinds.walls.model import BLACK, Walls

BOX = {"-": "─", "|": "│", "white": "·", "black": "■"}
ASCII = {"-": "-", "|": "|", "white": ".", "black": "#"}
INK, GIVEN_INK = "#1f3f77", "black"


def cells(puzzle: Walls, solution: str = "") -> dict[tuple[int, int], str]:
    """Each white cell's segment character (given, or from the solution; "" when unknown).

    ValueError when the solution does not fit the grid or holds a character other than -, | and #.
    """
    out = {cell: seg.value for cell, seg in puzzle.given.items()}
    if solution:
        out.update({cell: ch for cell, ch in parse_cells(puzzle.grid, solution, "-|" + BLACK).items()
                    if cell not in puzzle.black and ch != BLACK})
    return out


def render_text(puzzle: Walls, solution: str = "", ascii: bool = False) -> str:
    """The grid as text: clues right-aligned, ■ (ascii #) a black cell without one, ─ │ segments.

    Two horizontal segments side by side are joined, so a wall reads as one line; lines carry
    no trailing blanks.
    """
    style = ASCII if ascii else BOX
    segment = cells(puzzle, solution)
    width = max([1, *(len(str(n)) for n in puzzle.clues.values())])
    lines = []
    for r in range(puzzle.rows):
        out = []
        for c in range(puzzle.cols):
            if c:
                joined = segment.get((r, c - 1)) == segment.get((r, c)) == "-"
                out.append(style["-"] if joined else " ")
            ch = segment.get((r, c))
            if (r, c) in puzzle.black:
                clue = puzzle.black[(r, c)]
                out.append((style["black"] if clue is None else str(clue)).rjust(width))
            elif ch == "-":
                out.append(style["-"] * width)  # fills its field, so a run reads as one line
            else:
                out.append((style[ch] if ch else style["white"]).rjust(width))
        lines.append("".join(out).rstrip())
    return "\n".join(lines) + "\n"


def draw(puzzle: Walls, solution: str = "", ax: Any = None, title: str = "") -> Any:
    """Draw the puzzle on a matplotlib Axes (a new figure when `ax` is None); returns the Axes.

    Black cells filled, with their clue in white; each segment a thick bar across its cell,
    given ones in black and solved ones in blue.
    """
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Rectangle

    ax, cell_pt = cell_axes(puzzle.rows, puzzle.cols, ax, title)
    for (r, c), clue in puzzle.black.items():
        ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, facecolor="0.15", edgecolor="0.15", zorder=1))
        if clue is not None:
            ax.text(c, r, str(clue), color="white", ha="center", va="center", fontsize=0.45 * cell_pt,
                    fontweight="bold", zorder=2)
    for inked, colour in ((False, INK), (True, GIVEN_INK)):
        bars = []
        for (r, c), ch in cells(puzzle, solution).items():
            if ((r, c) in puzzle.given) == inked:
                bars.append([(c - 0.4, r), (c + 0.4, r)] if ch == "-" else [(c, r - 0.4), (c, r + 0.4)])
        ax.add_collection(LineCollection(bars, colors=colour, linewidths=max(1.5, 0.14 * cell_pt),
                                         capstyle="round", zorder=3))
    if title:
        ax.set_title(title, fontsize=10)
    return ax
