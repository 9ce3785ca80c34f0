"""The independent Masyu checker: judges a solution string from the rules alone, listing violations.

It reads only the stored string and the puzzle, and shares no constraint code with any encoding;
the loop-shape rules are harness.kinds.loopcheck, shared with the other loop kinds.
"""

from __future__ import annotations

from harness.grid import DIRECTIONS, Cell, Direction, Grid
from harness.kinds.loopcheck import read_loop
from harness.kinds.masyu.model import Masyu, Pearl

STRAIGHT = {Direction.LEFT | Direction.RIGHT, Direction.UP | Direction.DOWN}


def check(puzzle: Masyu, solution: str) -> list[str]:
    """Every rule the solution breaks, in words; an empty list means the loop is correct."""
    grid = puzzle.grid
    bits, problems = read_loop(grid, solution)
    if bits is None:
        return problems  # the rules below read a well-formed, non-empty set of lines
    if puzzle.full:
        problems += [f"cell {cell} is not on the loop" for cell in grid.cells if not bits[cell]]
    for cell, pearl in puzzle.pearls.items():
        problems += _pearl(grid, bits, cell, pearl)
    return problems


def _pearl(grid: Grid, bits: dict[Cell, int], cell: Cell, pearl: Pearl) -> list[str]:
    b = bits[cell]
    if not b:
        return [f"{pearl.name.lower()} pearl at {cell} is not on the loop"]
    ends = [d for d in DIRECTIONS if b & d]
    beyond = [bits[grid.step(cell, d)] for d in ends]
    if pearl is Pearl.WHITE:
        if b not in STRAIGHT:
            return [f"white pearl at {cell} is not passed straight"]
        if all(nb in STRAIGHT for nb in beyond):
            return [f"white pearl at {cell} has no turn on either side"]
        return []
    if b in STRAIGHT:
        return [f"black pearl at {cell} is passed straight (must turn)"]
    bent = [d for d, nb in zip(ends, beyond, strict=True) if nb != (d | d.opposite)]
    return [f"black pearl at {cell} is not followed straight going {d.name.lower()}" for d in bent]
