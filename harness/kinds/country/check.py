"""The independent Country Road checker, from the rules alone (no code shared with any encoding)."""

from __future__ import annotations

from harness.grid import DIRECTIONS
from harness.kinds.country.model import CountryRoad
from harness.kinds.janko_loop import NO_REGION
from harness.kinds.loopcheck import read_loop


def check(puzzle: CountryRoad, solution: str) -> list[str]:
    grid = puzzle.grid
    bits, problems = read_loop(grid, solution)
    if bits is None:
        return problems
    region = {cell: puzzle.areas[cell[0]][cell[1]] for cell in grid.cells}
    problems += [f"cell {cell} lies in no region, yet the loop visits it" for cell, a in region.items()
                 if a == NO_REGION and bits[cell]]
    crossed = {a: 0 for a in region.values() if a != NO_REGION}
    for cell in grid.cells:
        for d in DIRECTIONS:
            if bits[cell] & d and region[grid.step(cell, d)] != region[cell] != NO_REGION:
                crossed[region[cell]] += 1  # each crossing counted once, from inside the region
    for a, n in crossed.items():
        if n != 2:
            problems.append(f"the loop enters and leaves region {a} {n // 2} times, not once"
                            if n else f"the loop never visits region {a}")
    for a, k in puzzle.numbers().items():
        visited = sum(1 for cell in grid.cells if region[cell] == a and bits[cell])
        if visited != k:
            problems.append(f"region {a} is numbered {k} but the loop visits {visited} of its cells")
    for cell in grid.cells:
        for d in DIRECTIONS[:2]:  # right and up: each pair of neighbours once
            other = grid.step(cell, d)
            if other and NO_REGION != region[other] != region[cell] != NO_REGION \
                    and not bits[cell] and not bits[other]:
                problems.append(f"cells {cell} and {other} are both off the loop across a region's border")
    return problems
