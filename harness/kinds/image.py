"""A puzzle (and its solution) drawn into an image file by its kind (`Kind.draw`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def save_image(puzzle: Any, path: str | Path, solution: str = "", title: str = "") -> Path:
    """Draw the puzzle (and its solution) into a PNG or SVG file, the format taken from the suffix."""
    import matplotlib.pyplot as plt

    from harness.kinds.registry import of

    path = Path(path)
    ax = of(puzzle).draw(puzzle, solution, title=title)
    try:
        ax.figure.savefig(path, dpi=150, bbox_inches="tight")
    finally:
        plt.close(ax.figure)
    return path
