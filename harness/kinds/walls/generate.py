"""Walls generator: random black cells and segments, every number, blacks added until unique, numbers dropped.

1. Each cell is black with probability BLACKS; every white cell gets a horizontal or a vertical
   segment by a coin toss. Every black cell gets its number: the segments that run straight
   into it.
2. While the encoding finds a second solution, a random white cell where the two differ turns
   black (with its number, and the numbers of the black cells whose rays it cuts worked out
   again from the segments): a white cell far from every number is otherwise free, as janko.at's
   puzzles never are. Each turn takes a cell away, so this ends.
3. Numbers are dropped, in a random order, wherever the solution stays unique without them
   (the cell stays black, without a number, as the format allows), at most one check per
   number.
Every random choice comes from `rng`; a single-worker CP-SAT with a fixed seed answers the same
each time, so the same seed gives the same puzzles.
"""

from __future__ import annotations

import random

from harness.grid import Cell, Grid
from harness.kinds.walls.model import BLACK, Segment, Walls
from harness.unique import is_unique

BLACKS = 0.2
STEPS = ((0, -1, Segment.HORIZONTAL), (0, 1, Segment.HORIZONTAL), (-1, 0, Segment.VERTICAL),
         (1, 0, Segment.VERTICAL))


def generate(rows: int, cols: int, rng: random.Random, encoding: str = "cpsat", seed: int = 0,
             time_s: float = 60.0) -> tuple[Walls, str]:
    """A puzzle with exactly one solution, and that solution."""
    grid = Grid(rows, cols)
    black = {cell for cell in grid.cells if rng.random() < BLACKS}
    segments = {cell: rng.choice(list(Segment)) for cell in grid.cells}  # a black cell's is unused
    while True:
        numbers = {cell: number(grid, black, segments, cell) for cell in sorted(black)}
        solution = solution_string(grid, black, segments)
        other = another(Walls(grid, numbers), solution, encoding, seed, time_s)
        if other is None:
            break
        rows_of = other.split("/")
        differ = [cell for cell in grid.cells if cell not in black
                  and rows_of[cell[0]][cell[1]] != segments[cell].value]
        black.add(rng.choice(differ))
    for cell in rng.sample(sorted(numbers), len(numbers)):
        fewer = {**numbers, cell: None}
        if another(Walls(grid, fewer), solution, encoding, seed, time_s) is None:
            numbers = fewer
    return Walls(grid, numbers), solution


def another(puzzle: Walls, solution: str, encoding: str, seed: int, time_s: float) -> str | None:
    """None when `solution` is the only one, else a second solution."""
    verdict = is_unique(puzzle, solution, encoding, time_s=time_s, seed=seed)
    if verdict.unique is None:
        raise RuntimeError(f"the generator got no uniqueness verdict: {verdict.detail}")
    return None if verdict.unique else verdict.second


def number(grid: Grid, black: set[Cell], segments: dict[Cell, Segment], cell: Cell) -> int:
    """The segments that run straight into `cell` from its four sides."""
    total = 0
    for dr, dc, along in STEPS:
        r, c = cell[0] + dr, cell[1] + dc
        while grid.contains((r, c)) and (r, c) not in black and segments[(r, c)] is along:
            total += 1
            r, c = r + dr, c + dc
    return total


def solution_string(grid: Grid, black: set[Cell], segments: dict[Cell, Segment]) -> str:
    return "/".join("".join(BLACK if (r, c) in black else segments[(r, c)].value for c in range(grid.cols))
                    for r in range(grid.rows))
