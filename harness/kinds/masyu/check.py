"""The independent Masyu checker: judges a solution string from the rules alone, listing violations.

It reads only the stored string and the puzzle, and shares no constraint code with any encoding.
"""

from __future__ import annotations

from harness.grid import DIRECTIONS, Cell, Direction, Grid, parse_solution
from harness.kinds.masyu.model import Masyu, Pearl

STRAIGHT = {Direction.LEFT | Direction.RIGHT, Direction.UP | Direction.DOWN}


def check(puzzle: Masyu, solution: str) -> list[str]:
    """Every rule the solution breaks, in words; an empty list means the loop is correct."""
    grid = puzzle.grid
    try:
        bits = parse_solution(grid, solution)
    except ValueError as exc:
        return [str(exc)]

    problems = _consistency(grid, bits)
    if problems:
        return problems  # the rules below read a well-formed set of edges

    on_loop = [cell for cell in grid.cells if bits[cell]]
    if not on_loop:
        return ["the solution draws no loop"]
    problems += _single_loop(grid, bits, on_loop)
    if puzzle.full:
        problems += [f"cell {cell} is not on the loop" for cell in grid.cells if not bits[cell]]
    for cell, pearl in puzzle.pearls.items():
        problems += _pearl(grid, bits, cell, pearl)
    return problems


def _consistency(grid: Grid, bits: dict[Cell, int]) -> list[str]:
    problems = []
    for cell, b in bits.items():
        for d in DIRECTIONS:
            if not b & d:
                continue
            nxt = grid.step(cell, d)
            if nxt is None:
                problems.append(f"cell {cell} leaves the grid going {d.name.lower()}")
            elif not bits[nxt] & d.opposite:
                problems.append(f"cell {cell} goes {d.name.lower()} but {nxt} does not come back")
        degree = bin(b).count("1")
        if degree not in (0, 2):
            problems.append(f"cell {cell} has {degree} loop ends (must be 0 or 2)")
    return problems


def _single_loop(grid: Grid, bits: dict[Cell, int], on_loop: list[Cell]) -> list[str]:
    seen = {on_loop[0]}
    stack = [on_loop[0]]
    while stack:
        cell = stack.pop()
        for d in DIRECTIONS:
            if bits[cell] & d:
                nxt = grid.step(cell, d)
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    if len(seen) == len(on_loop):
        return []
    return [f"the lines form more than one loop ({len(seen)} of {len(on_loop)} cells connected)"]


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
