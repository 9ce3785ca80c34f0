"""Masyu generator: a random loop through most of the grid, every pearl it allows, then pearls dropped.

1. A random simple loop: start from a 2x2 square at a random place and grow it, a random edge
   at a time, by replacing the edge a-b with the detour a-a'-b'-b through two unvisited cells
   beside it, until COVERAGE of the cells are on the loop or no edge can grow.
2. Pearls wherever the loop allows them: black where it turns and goes straight for two cells
   on both arms, white where it goes straight and turns in at least one of the two cells beside.
   When that puzzle has a second solution, the second solution becomes the loop, with every
   pearl it allows (a superset: it keeps all the pearls); repeated up to SWITCHES times. When
   the second solution allows no more pearls than the loop (no pearl tells the two apart),
   another solution than all those is asked for, up to PLATEAU of them; then, or after
   SWITCHES, another loop is drawn (up to TRIES).
3. Pearls are dropped while the loop stays the only solution, in batches: a random order, cut
   into batches (the first of about BATCH_SHARE of the pearls, doubling after a batch that
   goes, halving after one that does not). When a batch leaves a second solution, the pearls of
   the batch that the second solution breaks are put back (at least one is: the puzzle before
   the batch was unique) and the rest of the batch is tried again. A check that gets no
   verdict within `time_s` keeps the whole batch. At most `max_checks(cells)` checks are made
   (a count, not a clock, so the same seed gives the same puzzle); the pearls not yet tried
   when they run out are kept, and at most KEEP_FLOOR of the pearls are ever dropped below
   (a floor on pearl density: fewer pearls make large puzzles much harder for every solver).
Every random choice comes from `rng`; the `sat` encoding (CaDiCaL) is deterministic for a given
clause order, so the same seed gives the same puzzles unless a check times out.
"""

from __future__ import annotations

import random

from harness import registry
from harness.encoding import SAT, UNSAT, Limits
from harness.grid import Cell, Grid, parse_solution, solution_string
from harness.kinds.masyu.check import _pearl, check
from harness.kinds.masyu.model import Masyu, Pearl
from harness.unique import Verdict, is_unique

DEFAULT_ENCODING = "sat"
COVERAGE = 0.9  # stop growing the loop when this share of the cells is on it
SWITCHES = 200  # second solutions asked for (step 2) before another loop is drawn
PLATEAU = 8  # solutions allowing the same pearls looked through before another loop is drawn
TRIES = 5  # loops drawn before giving up when every allowed pearl still leaves two solutions
BATCH_SHARE = 8  # the first batch drops about 1/BATCH_SHARE of the pearls
KEEP_FLOOR = 0.0  # never fewer pearls than this share of the cells (0: no floor)


def max_checks(cells: int) -> int:
    """How many uniqueness checks one puzzle may cost: about 60, a few more on large grids."""
    return 60 + cells // 500


def generate(rows: int, cols: int, rng: random.Random, encoding: str = DEFAULT_ENCODING, seed: int = 0,
             time_s: float = 60.0, coverage: float = COVERAGE,
             keep_floor: float = KEEP_FLOOR) -> tuple[Masyu, str]:
    """A puzzle with exactly one solution, and that solution."""
    if rows < 2 or cols < 2:
        raise ValueError(f"a Masyu loop needs at least 2x2 cells, not {rows}x{cols}")
    grid = Grid(rows, cols)
    for _ in range(TRIES):
        solution = random_loop(grid, rng, coverage)
        pearls = allowed_pearls(grid, solution)
        seen = [solution]  # the solutions found that allow exactly `pearls`
        for _ in range(SWITCHES):
            verdict = another(Masyu(grid, pearls), seen, encoding, seed, time_s)
            if verdict.unique != 0 or len(seen) > PLATEAU:
                break
            more = allowed_pearls(grid, verdict.second)  # a superset: it keeps every pearl
            if len(more) > len(pearls):  # take the second solution, with every pearl it allows
                solution, pearls, seen = verdict.second, more, [verdict.second]
            else:  # no pearl tells these apart: look for a third that allows more
                seen.append(verdict.second)
        if verdict.unique == 1 and len(seen) == 1:
            break
    else:
        raise RuntimeError(f"no unique {rows}x{cols} puzzle in {TRIES} loops: {verdict.detail}")
    pearls = drop_pearls(grid, pearls, solution, rng, encoding, seed, time_s,
                         floor=int(keep_floor * rows * cols))
    return Masyu(grid, pearls), solution


def random_loop(grid: Grid, rng: random.Random, coverage: float = COVERAGE) -> str:
    """A random simple loop through about `coverage` of the cells (step 1), as a solution string."""
    rows, cols = grid.rows, grid.cols
    r0, c0 = rng.randrange(rows - 1), rng.randrange(cols - 1)
    square = [(r0, c0), (r0, c0 + 1), (r0 + 1, c0 + 1), (r0 + 1, c0)]
    nxt: dict[Cell, Cell] = {a: square[(i + 1) % 4] for i, a in enumerate(square)}
    on = set(square)
    edges = [(a, nxt[a]) for a in square]  # candidates, directed along the loop; stale ones skipped
    target = max(4, int(coverage * rows * cols))
    while edges and len(on) < target:
        i = rng.randrange(len(edges))
        a, b = edges[i]
        if nxt.get(a) != b:  # replaced by a detour since
            edges[i] = edges[-1]
            edges.pop()
            continue
        dr, dc = b[0] - a[0], b[1] - a[1]
        sides = [(dc, -dr), (-dc, dr)]
        rng.shuffle(sides)
        for sr, sc in sides:
            a2, b2 = (a[0] + sr, a[1] + sc), (b[0] + sr, b[1] + sc)
            if (grid.contains(a2) and grid.contains(b2) and a2 not in on and b2 not in on):
                nxt[a], nxt[a2], nxt[b2] = a2, b2, b
                on.update((a2, b2))
                edges[i] = (a, a2)
                edges += [(a2, b2), (b2, b)]
                break
        else:  # both sides taken for good: cells never leave the loop
            edges[i] = edges[-1]
            edges.pop()
    return solution_string(grid, nxt.items())


def allowed_pearls(grid: Grid, solution: str) -> dict[Cell, Pearl]:
    """Every pearl the loop allows (step 2), judged by the checker's own pearl rule."""

    bits = parse_solution(grid, solution)
    out = {}
    for cell in grid.cells:
        if not bits[cell]:
            continue
        for pearl in (Pearl.BLACK, Pearl.WHITE):
            if not _pearl(grid, bits, cell, pearl):
                out[cell] = pearl
    return out


def another(puzzle: Masyu, seen: list[str], encoding: str, seed: int, time_s: float) -> Verdict:
    """Whether `puzzle` has a solution besides those `seen` (the checked one in `second`)."""
    if len(seen) == 1:
        return is_unique(puzzle, seen[0], encoding, time_s=time_s, seed=seed)
    solver = registry.create(encoding)
    solver.prepare()
    outcome = solver.solve(puzzle, Limits(time_s=time_s), seed, exclude=tuple(seen))
    if outcome.status == UNSAT:
        return Verdict(1)
    if outcome.status == SAT and outcome.solution not in seen and not check(puzzle, outcome.solution):
        return Verdict(0, outcome.solution)
    return Verdict(None, detail=f"no verdict from {encoding}: {outcome.status}")


def drop_pearls(grid: Grid, pearls: dict[Cell, Pearl], solution: str, rng: random.Random, encoding: str,
                seed: int, time_s: float, floor: int = 0) -> dict[Cell, Pearl]:
    """Step 3: drop pearls in batches while `solution` stays the only solution."""

    kept = dict(pearls)
    order = sorted(kept)
    rng.shuffle(order)
    size = max(1, len(order) // BATCH_SHARE)
    checks, budget, pos = 0, max_checks(grid.num_cells), 0
    while pos < len(order) and checks < budget and len(kept) > floor:
        batch = order[pos:pos + min(size, len(kept) - floor)]
        pos += len(batch)
        broke = False
        while batch and checks < budget:
            fewer = {c: p for c, p in kept.items() if c not in set(batch)}
            verdict = is_unique(Masyu(grid, fewer), solution, encoding, time_s=time_s, seed=seed)
            checks += 1
            if verdict.unique == 1:
                kept = fewer
                break
            if verdict.unique is None:  # no verdict in time: keep the batch
                batch = []
                break
            broke = True
            other = parse_solution(grid, verdict.second)
            batch = [c for c in batch if not _pearl(grid, other, c, kept[c])]
        size = max(1, size // 2) if broke else size * 2
    return kept
