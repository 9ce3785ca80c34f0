"""The matplotlib board that every cell-based kind draws on: cells at integer points, row 0 on top."""

from __future__ import annotations

from typing import Any


def cell_axes(rows: int, cols: int, ax: Any = None, title: str = "") -> tuple[Any, float]:
    """Axes for a rows x cols board with light lines between cells (a new figure when `ax` is None).

    Returns the Axes and the drawn size of one cell in points: line widths and fonts are in
    points, so a drawing scales them with it.
    """
    import matplotlib.pyplot as plt

    if ax is None:
        cell_in = min(0.45, 9 / max(rows, cols))  # big grids shrink so the file stays a sane size
        _, ax = plt.subplots(figsize=(cols * cell_in + 0.4, rows * cell_in + 0.4 + (0.3 if title else 0)))
    fig = ax.figure
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)  # row 0 at the top, as in every text format
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_color("0.35")
    for k in range(1, cols):
        ax.axvline(k - 0.5, color="0.85", lw=0.8, zorder=0)
    for k in range(1, rows):
        ax.axhline(k - 0.5, color="0.85", lw=0.8, zorder=0)
    fig.canvas.draw_idle()
    bbox = ax.get_window_extent().transformed(fig.dpi_scale_trans.inverted())
    return ax, 72 * min(bbox.width / cols, bbox.height / rows)
