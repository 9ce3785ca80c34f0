"""Marupeke generator: random blockers, a random full solution, then the fewest givens that keep it unique.

1. Each cell is a blocker with probability BLOCKERS.
2. A random full solution: ask the encoding for any solution, then for a random sample of the
   white cells (one in FIXED_SHARE), in random order, toss a coin for the cell's mark and fix
   it; when the coin disagrees with the solution in hand, the encoding is asked whether the
   tossed mark still leaves a solution (and gives it), else the cell keeps its mark. The last
   solution in hand is the puzzle's.
3. Givens are added until that solution is the only one: while the encoding finds another,
   give the solution's mark in a random cell where the two differ.
4. Givens are dropped, in a random order, wherever the solution stays unique without them.
Why a solver for step 2: without blockers, grids with no three alike in any row, column or
diagonal are nearly all shifts of OOXX (rows two apart), so cell-by-cell or row-by-row drawing
backs up endlessly (measured: one in thirty random rows fits under a 10x10 first row, and
local search took half a million flips on 14x14).
Every random choice comes from `rng`; a single-worker CP-SAT with a fixed seed answers the
same each time, so the same seed gives the same puzzles.
"""

from __future__ import annotations

import random

from harness import kinds, registry
from harness.encoding import SAT, UNSAT, Limits
from harness.grid import Cell, Grid
from harness.kinds.marupeke.model import BLOCK, Mark, Marupeke
from harness.unique import is_unique

BLOCKERS = 0.2
FIXED_SHARE = 8


def generate(rows: int, cols: int, rng: random.Random, encoding: str = "cpsat", seed: int = 0,
             time_s: float = 60.0) -> tuple[Marupeke, str]:
    """A puzzle with exactly one solution, and that solution."""
    grid = Grid(rows, cols)
    blocks = {cell for cell in grid.cells if rng.random() < BLOCKERS}
    solution = random_solution(grid, blocks, rng, encoding, seed, time_s)
    marks = {(r, c): Mark(ch) for r, row in enumerate(solution.split("/")) for c, ch in enumerate(row)
             if ch != BLOCK}

    def another(given: dict[Cell, Mark]) -> str | None:
        """None when `solution` is the only one with these givens, else another solution."""
        verdict = is_unique(Marupeke(grid, blocks, given), solution, encoding, time_s=time_s, seed=seed)
        if verdict.unique is None:
            raise RuntimeError(f"the generator got no uniqueness verdict: {verdict.detail}")
        return None if verdict.unique else verdict.second

    given: dict[Cell, Mark] = {}
    while (other := another(given)) is not None:
        differ = [(r, c) for r, c in sorted(marks)
                  if other[r * (cols + 1) + c] != solution[r * (cols + 1) + c]]
        cell = rng.choice(differ)
        given[cell] = marks[cell]
    for cell in rng.sample(sorted(given), len(given)):
        fewer = {k: m for k, m in given.items() if k != cell}
        if another(fewer) is None:
            given = fewer
    return Marupeke(grid, blocks, given), solution


def random_solution(grid: Grid, blocks: set[Cell], rng: random.Random, encoding: str, seed: int,
                    time_s: float) -> str:
    """A solution of the empty puzzle on these blockers, steered by coin tosses (step 2 above)."""
    solver = registry.create(encoding)
    solver.prepare()

    def solve(fixed: dict[Cell, Mark]) -> str | None:
        puzzle = Marupeke(grid, blocks, fixed)
        outcome = solver.solve(puzzle, Limits(time_s=time_s), seed)
        if outcome.status == UNSAT:
            return None
        if outcome.status != SAT or kinds.check(puzzle, outcome.solution):
            raise RuntimeError(f"the generator got no good answer from {encoding}: {outcome.status}")
        return outcome.solution

    fixed: dict[Cell, Mark] = {}
    solution = solve(fixed)
    if solution is None:
        raise RuntimeError("no solution on these blockers")  # cannot happen: OOXX-shifted rows fit any
    white = sorted(cell for cell in grid.cells if cell not in blocks)
    for r, c in rng.sample(white, len(white) // FIXED_SHARE):
        toss = rng.choice(list(Mark))
        held = Mark(solution[r * (grid.cols + 1) + c])
        if toss != held and (other := solve({**fixed, (r, c): toss})) is not None:
            solution, held = other, toss
        fixed[(r, c)] = held
    return solution
