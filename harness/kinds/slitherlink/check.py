"""The independent Slitherlink checker: judges a solution string from the rules alone, listing violations.

The solution is a loop on the (ROWS+1)x(COLS+1) vertex grid, stored as direction bits per vertex
(docs/FORMATS.md). The loop-shape rules are harness.kinds.loopcheck's; the clue rule is here. It
reads only the stored string and the puzzle, and shares no constraint code with any encoding.
"""

from __future__ import annotations

from harness.grid import Cell, Direction
from harness.kinds.loopcheck import read_loop
from harness.kinds.slitherlink.model import Slitherlink


def check(puzzle: Slitherlink, solution: str) -> list[str]:
    """Every rule the solution breaks, in words; an empty list means the loop is correct."""
    vertices = puzzle.vertices
    bits, problems = read_loop(vertices, solution, "vertex", "vertices")
    if bits is None:
        return problems  # the rules below read a well-formed, non-empty set of lines
    if puzzle.full:
        problems += [f"vertex {v} is not on the loop" for v in vertices.cells if not bits[v]]
    for cell, clue in puzzle.clues.items():
        used = sides_used(bits, cell)
        if used != clue:
            problems.append(f"clue {clue} at cell {cell} has {used} side{'s' * (used != 1)} on the loop")
    return problems


def sides_used(bits: dict[Cell, int], cell: Cell) -> int:
    """How many sides of `cell` the loop uses, read off the bits of two of its corners."""
    # Worked out here rather than taken from the model's `sides`, which encodings may use: the
    # top and left sides leave the top-left corner right and down, the bottom side leaves the
    # bottom-left corner right, the right side leaves the top-right corner down.
    r, c = cell
    return sum((
        bool(bits[(r, c)] & Direction.RIGHT),
        bool(bits[(r, c)] & Direction.DOWN),
        bool(bits[(r + 1, c)] & Direction.RIGHT),
        bool(bits[(r, c + 1)] & Direction.DOWN),
    ))
