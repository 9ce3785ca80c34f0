"""The independent Yajilin checker, from the rules alone (no code shared with any encoding)."""

from __future__ import annotations

from harness.grid import DIRECTIONS
from harness.kinds.janko_loop import SIDES, ray
from harness.kinds.loopcheck import read_loop
from harness.kinds.yajilin.model import Yajilin


def check(puzzle: Yajilin, solution: str) -> list[str]:
    grid = puzzle.grid
    bits, problems = read_loop(grid, solution)
    if bits is None:
        return problems
    empty = set(puzzle.empty())
    problems += [f"the loop passes the {puzzle.token(cell)} cell at {cell}" for cell in grid.cells
                 if cell not in empty and bits[cell]]
    shaded = {cell for cell in empty if not bits[cell]}  # every empty cell is on the loop or shaded
    for cell in sorted(shaded):
        for d in DIRECTIONS[:2]:
            other = grid.step(cell, d)
            if other in shaded:
                problems.append(f"shaded cells {cell} and {other} are beside each other")
    for cell, (k, d) in puzzle.arrows().items():
        n = sum(1 for other in ray(grid, cell, SIDES[d]) if other in shaded)
        if n != k:
            problems.append(f"the arrow at {cell} counts {k} shaded cells going {SIDES[d].name.lower()}, "
                            f"there are {n}")
    return problems
