"""The independent Walls checker: judges a solution string from the rules alone, listing violations.

Rules: a black cell shows `#`, every white cell a segment (`-` or `|`), a given segment stays,
and each number equals the total length of the segments that run straight into its cell: going
left or right, the horizontal cells until a vertical one, a black cell or the edge; going up or
down, the vertical cells likewise. It shares no constraint code with any encoding.
"""

from __future__ import annotations

from harness.grid import Cell, parse_cells
from harness.kinds.walls.model import BLACK, Walls

RAYS = (("left", 0, -1, "-"), ("right", 0, 1, "-"), ("up", -1, 0, "|"), ("down", 1, 0, "|"))


def check(puzzle: Walls, solution: str) -> list[str]:
    """Every rule the solution breaks, in words; an empty list means the solution is correct."""
    try:
        at = parse_cells(puzzle.grid, solution, "-|" + BLACK)
    except ValueError as exc:
        return [str(exc)]

    problems = []
    for cell, ch in at.items():
        if cell in puzzle.black and ch != BLACK:
            problems.append(f"cell {cell} is black but the solution puts {ch!r} there")
        elif cell not in puzzle.black and ch == BLACK:
            problems.append(f"white cell {cell} has no segment")
    for cell, segment in puzzle.given.items():
        if at[cell] != segment.value:
            problems.append(f"cell {cell} is given {segment.value!r} but the solution has {at[cell]!r}")
    if problems:
        return problems  # the clues read a well-formed grid
    for cell, clue in puzzle.clues.items():
        arms = {name: _arm(at, cell, dr, dc, want) for name, dr, dc, want in RAYS}
        if sum(arms.values()) != clue:
            seen = ", ".join(f"{name} {n}" for name, n in arms.items())
            problems.append(f"clue {clue} at {cell} sees {sum(arms.values())} ({seen})")
    return problems


def _arm(at: dict[Cell, str], cell: Cell, dr: int, dc: int, want: str) -> int:
    """How many cells from `cell` outwards hold `want` before anything else or the edge."""
    n, (r, c) = 0, cell
    while at.get((r + dr, c + dc)) == want:
        n, r, c = n + 1, r + dr, c + dc
    return n

