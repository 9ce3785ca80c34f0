"""Slitherlink generator: the rim of a random hole-free region of cells, every clue, then clues dropped.

1. A random region: from a random cell, add a random cell beside it, again and again, until
   SHARE of the cells are in (or no cell can be added). A cell is added only if the region stays
   without holes (the cells outside stay connected to the border) and no 2x2 block becomes a
   checkerboard (two region cells meeting at a corner only: a vertex with four loop edges); a
   cell touching the region on more than one side is taken only one time in THICKEN, so the
   region grows arms and the loop winds. The region's rim is then one loop on the vertex grid.
2. Every cell's clue (the rim's sides around it). If the loop is not the only solution even
   then, another region is drawn (up to TRIES).
3. Clues are dropped while the loop stays the only solution, in batches as the Masyu generator
   drops pearls: a random order cut into batches (the first of about 1/BATCH_SHARE of the clues,
   doubling after a batch that goes up to MAX_BATCH, halving after one that does not); when a
   batch leaves a second solution, its clues that the second solution breaks are put back (at
   least one is) and the rest of the batch is tried again. At most `max_checks(cells)` checks (a count, not a
   clock, so that the same seed gives the same puzzle); clues not tried by then are kept, as are
   those of a batch whose check gave no verdict (out of time, or died: each check runs in a forked
   child with CHECK_MEMORY_MB to spare, so a native abort in the solver costs one verdict, not the run).
Every random choice comes from `rng`; the checks ask `propagator` (CaDiCaL with the loop rule
as an external propagator, deterministic for a given clause order) with its options pinned
(`harness.unique.GENERATOR_OPTIONS`), so the same seed gives the same puzzles. Not `sat`: it
sizes its solve chunks' conflict budgets by the time the last chunk took, so on a busy machine its
search, and so the puzzles, change from run to run. What these choices cost and save:
results/generators/HISTORY.md.
"""

from __future__ import annotations

import random
from collections import deque

from harness.grid import Cell, Grid, parse_solution, solution_string
from harness.kinds.slitherlink.check import sides_used
from harness.kinds.slitherlink.model import Slitherlink, sides
from harness.unique import GENERATOR_OPTIONS, Verdict, is_unique_apart

DEFAULT_ENCODING = "propagator"
SHARE = 0.5  # of the cells in the region
THICKEN = 4  # a cell with two or more region sides is taken one time in this many
TRIES = 10
BATCH_SHARE = 4
MAX_BATCH = 8  # a batch that fails puts back every clue the second solution breaks: keep them small
# Each check runs in a child with this much memory to spare: CaDiCaL 1.9.5 with the loop watch can
# open empty decision levels forever (60x60 seed 2026, its 1071st check: every edge assigned, no
# check_model call, ~35 MB/s; the OutOfTime the watch then raised did not end solve(), `loop.watch`
# says why, and the growth reached GB/s), and its std::bad_alloc aborted the whole generator. A
# child that dies gives no verdict, so its batch is kept. A sane 60x60 check peaks below 200 MB.
CHECK_MEMORY_MB = 2048


def max_checks(cells: int) -> int:
    """Uniqueness checks allowed for dropping clues: enough to drop nearly every clue it can up to 30x30."""
    return 40 + cells // 3


def generate(rows: int, cols: int, rng: random.Random, encoding: str = DEFAULT_ENCODING, seed: int = 0,
             time_s: float = 60.0) -> tuple[Slitherlink, str]:
    """A puzzle with exactly one solution, and that solution."""
    grid = Grid(rows, cols)
    if rows * cols < 2:
        raise ValueError(f"a {rows}x{cols} Slitherlink has at most one loop and no puzzle")
    for _ in range(TRIES):
        region = random_region(grid, rng)
        solution = rim(grid, region)
        clues = {cell: count_sides(grid, region, cell) for cell in grid.cells}
        verdict = check(Slitherlink(grid, clues), solution, encoding, seed, time_s)
        if verdict.unique == 1:
            return Slitherlink(grid, drop_clues(grid, clues, solution, rng, encoding, seed, time_s)), solution
    raise RuntimeError(f"no {rows}x{cols} loop in {TRIES} was the only solution even with every clue")


def check(puzzle: Slitherlink, solution: str, encoding: str, seed: int, time_s: float) -> Verdict:
    return is_unique_apart(puzzle, solution, encoding, GENERATOR_OPTIONS.get(encoding), time_s=time_s,
                           seed=seed, memory_mb=CHECK_MEMORY_MB)


def neighbours(grid: Grid, cell: Cell) -> list[Cell]:
    r, c = cell
    return [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if grid.contains(n)]


def random_region(grid: Grid, rng: random.Random, share: float = SHARE) -> set[Cell]:
    """Step 1: a random 4-connected region of cells without holes or corner-only contacts."""
    start = rng.choice(grid.cells)
    region, frontier = {start}, set(neighbours(grid, start))
    target, attempts = max(1, round(share * grid.num_cells)), 40 * grid.num_cells
    while len(region) < target and frontier and attempts:
        attempts -= 1
        cell = rng.choice(sorted(frontier))
        touching = sum(n in region for n in neighbours(grid, cell))
        if touching > 1 and rng.randrange(THICKEN):
            continue
        if not addable(grid, region, cell):
            continue
        region.add(cell)
        frontier.discard(cell)
        frontier.update(n for n in neighbours(grid, cell) if n not in region)
    return region


def addable(grid: Grid, region: set[Cell], cell: Cell) -> bool:
    """Whether adding `cell` keeps the region's rim one simple loop (no checkerboard, no hole)."""
    r, c = cell
    inside = region | {cell}
    for dr in (-1, 1):
        for dc in (-1, 1):  # the 2x2 block at each corner of the cell
            diagonal, side1, side2 = (r + dr, c + dc), (r + dr, c), (r, c + dc)
            if diagonal in inside and side1 not in inside and side2 not in inside:
                return False
    # The outside must stay connected: the cell's outside neighbours (and the border, standing
    # for everything beyond the grid) must still reach each other around it.
    outer = "border"
    starts = [n for n in neighbours(grid, cell) if n not in region]
    on_border = len(neighbours(grid, cell)) < 4
    goals = set(starts) | ({outer} if on_border else set())
    if len(goals) <= 1:
        return True
    first = next(iter(sorted(goals, key=str)))
    seen, queue = {first}, deque([first])
    while queue and not goals <= seen:
        here = queue.popleft()
        if here == outer:
            steps = [b for b in grid.cells if len(neighbours(grid, b)) < 4 and b not in inside]
        else:
            steps = [n for n in neighbours(grid, here) if n not in inside]
            if len(neighbours(grid, here)) < 4:
                steps.append(outer)
        for step in steps:
            if step not in seen:
                seen.add(step)
                queue.append(step)
    return goals <= seen


def count_sides(grid: Grid, region: set[Cell], cell: Cell) -> int:
    """How many of the cell's sides lie on the region's rim."""
    inside = cell in region
    r, c = cell
    return sum(((n in region) if grid.contains(n) else False) != inside
               for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))


def rim(grid: Grid, region: set[Cell]) -> str:
    """The region's rim as a loop solution string on the vertex grid."""
    edges = []
    for cell in sorted(region):
        r, c = cell
        for side, n in zip(sides(cell), ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)), strict=True):
            if n not in region:
                edges.append(side)
    return solution_string(Grid(grid.rows + 1, grid.cols + 1), edges)


def drop_clues(grid: Grid, clues: dict[Cell, int], solution: str, rng: random.Random, encoding: str,
               seed: int, time_s: float) -> dict[Cell, int]:
    """Step 3: drop clues in batches while the loop stays the only solution."""
    vertices = Grid(grid.rows + 1, grid.cols + 1)
    kept = dict(clues)
    order = sorted(kept)
    rng.shuffle(order)
    size = max(1, min(MAX_BATCH, len(order) // BATCH_SHARE))
    checks, budget, pos = 0, max_checks(grid.num_cells), 0
    while pos < len(order) and checks < budget:
        batch = order[pos:pos + size]
        pos += len(batch)
        broke = False
        while batch and checks < budget:
            dropped = set(batch)
            fewer = {c: n for c, n in kept.items() if c not in dropped}
            verdict = check(Slitherlink(grid, fewer), solution, encoding, seed, time_s)
            checks += 1
            if verdict.unique == 1:
                kept = fewer
                break
            if verdict.unique is None:  # no verdict in time: keep the batch
                break
            broke = True
            other = parse_solution(vertices, verdict.second)
            batch = [c for c in batch if sides_used(other, c) == kept[c]]
        size = max(1, size // 2) if broke else min(MAX_BATCH, size * 2)
    return kept
