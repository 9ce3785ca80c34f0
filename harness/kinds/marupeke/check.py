"""The independent Marupeke checker: judges a solution string from the rules alone, listing violations.

Rules: a blocker shows `#`, every white cell `O` or `X`, a given mark stays, and no three
consecutive cells along a row, a column or either diagonal are all O or all X (three cells in
a line with a blocker among them are no such triple). It shares no constraint code with any encoding.
"""

from __future__ import annotations

from harness.grid import parse_cells
from harness.kinds.marupeke.model import BLOCK, Marupeke

LINES = (("right", 0, 1), ("down", 1, 0), ("down-right", 1, 1), ("down-left", 1, -1))


def check(puzzle: Marupeke, solution: str) -> list[str]:
    """Every rule the solution breaks, in words; an empty list means the solution is correct."""
    try:
        at = parse_cells(puzzle.grid, solution, "OX" + BLOCK)
    except ValueError as exc:
        return [str(exc)]

    problems = []
    for cell, ch in at.items():
        if cell in puzzle.blocks and ch != BLOCK:
            problems.append(f"cell {cell} is a blocker but the solution puts {ch!r} there")
        elif cell not in puzzle.blocks and ch == BLOCK:
            problems.append(f"white cell {cell} holds neither O nor X")
    for cell, mark in puzzle.given.items():
        if at[cell] != mark.value:
            problems.append(f"cell {cell} is given {mark.value} but the solution has {at[cell]!r}")
    for (r, c), ch in at.items():
        if ch == BLOCK:
            continue
        for name, dr, dc in LINES:
            if at.get((r + dr, c + dc)) == ch and at.get((r + 2 * dr, c + 2 * dc)) == ch:
                problems.append(f"three {ch} in a line from {(r, c)} going {name}")
    return problems
