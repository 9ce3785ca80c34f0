"""The independent Geradeweg checker, from the rules alone (no code shared with any encoding)."""

from __future__ import annotations

from harness.grid import DIRECTIONS, Cell, Direction, Grid
from harness.kinds.geradeweg.model import Geradeweg
from harness.kinds.loopcheck import read_loop


def check(puzzle: Geradeweg, solution: str) -> list[str]:
    grid = puzzle.grid
    bits, problems = read_loop(grid, solution)
    if bits is None:
        return problems
    for cell, k in puzzle.numbers().items():
        b = bits[cell]
        if not b:
            problems.append(f"number {k} at {cell} is not on the loop")
            continue
        ends = [d for d in DIRECTIONS if b & d]
        runs = {d: _run(grid, bits, cell, d) for d in ends}
        straight = ends[0] == ends[1].opposite
        if straight and k and sum(runs.values()) != k:
            problems.append(f"number {k} at {cell}: the straight run through it is {sum(runs.values())} long")
        elif not straight and k and any(n != k for n in runs.values()):
            problems.append(f"number {k} at {cell}: the arms of its turn are {sorted(runs.values())} long")
        elif not straight and not k and len(set(runs.values())) != 1:
            problems.append(f"0 at {cell}: the arms of its turn differ ({sorted(runs.values())})")
    return problems


def _run(grid: Grid, bits: dict[Cell, int], cell: Cell, d: Direction) -> int:
    """How many unit segments the loop runs straight from `cell` going `d`."""
    n, at = 0, cell
    while bits[at] & d:
        n += 1
        at = grid.step(at, d)
    return n
