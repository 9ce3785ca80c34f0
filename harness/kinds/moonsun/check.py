"""The independent Moon or Sun checker, from the rules alone (no code shared with any encoding)."""

from __future__ import annotations

from harness.grid import DIRECTIONS
from harness.kinds.loopcheck import read_loop
from harness.kinds.moonsun.model import MOON, MoonSun


def check(puzzle: MoonSun, solution: str) -> list[str]:
    grid = puzzle.grid
    bits, problems = read_loop(grid, solution)
    if bits is None:
        return problems
    region = {cell: puzzle.areas[cell[0]][cell[1]] for cell in grid.cells}
    crossed = {a: 0 for a in region.values()}
    for cell in grid.cells:
        for d in DIRECTIONS:
            if bits[cell] & d and region[grid.step(cell, d)] != region[cell]:
                crossed[region[cell]] += 1
    for a, n in crossed.items():
        if n != 2:
            problems.append(f"the loop enters and leaves region {a} {n // 2} times, not once"
                            if n else f"the loop never visits region {a}")
    kind_of = {}  # region -> "moon" / "sun": what the loop passes there
    for a in crossed:
        passed = {t for cell, t in puzzle.clues().items() if region[cell] == a and bits[cell]}
        missed = {t for cell, t in puzzle.clues().items() if region[cell] == a and not bits[cell]}
        if len(passed) > 1:
            problems.append(f"the loop passes both moons and suns in region {a}")
        elif passed and passed & missed:
            problems.append(f"the loop passes some but not all {'moons' if MOON in passed else 'suns'} "
                            f"in region {a}")
        elif not passed:
            problems.append(f"the loop passes no moon and no sun in region {a}")
        else:
            kind_of[a] = "moon" if MOON in passed else "sun"
    if problems:
        return problems
    for cell in grid.cells:  # consecutive regions along the loop: each crossing joins two
        for d in DIRECTIONS[:2]:
            other = grid.step(cell, d)
            if other and bits[cell] & d and region[other] != region[cell] \
                    and kind_of[region[cell]] == kind_of[region[other]]:
                problems.append(f"regions {region[cell]} and {region[other]} follow each other along the "
                                f"loop, both {kind_of[region[cell]]} regions")
    return problems
