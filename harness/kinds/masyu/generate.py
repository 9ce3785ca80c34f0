"""Masyu generator: a random loop through most of the grid, every pearl it allows, then pearls dropped.

1. A random simple loop: start from a 2x2 square at a random place and grow it, a random edge
   at a time, by replacing the edge a-b with the detour a-a'-b'-b through two unvisited cells
   beside it, until COVERAGE of the cells are on the loop or no edge can grow.
2. Pearls wherever the loop allows them: black where it turns and goes straight for two cells
   on both arms, white where it goes straight and turns in at least one of the two cells beside.
   The loop is then repaired until it is the only solution. First without a solver
   (`local.py`): wherever flipping a small block's rim gives another loop that passes every
   pearl, that loop is taken if it allows more pearls, and otherwise the loop is changed
   nearby (a flip that grows it if one does, never undoing one of the last TABU changes), up to
   REPAIRS + cells/4 changes. Then the solver is asked; its second solution (checked) becomes
   the loop if it allows more pearls (a superset: it keeps every pearl), else the loop is
   changed where the two differ, and the local repair runs again; up to SWITCHES checks, then
   another loop is drawn (up to TRIES). Without the repair, every loop from 50x50 on ended with
   two solutions that allow exactly the same pearls (a two-cell bump on either side of a
   straight stretch, beside an empty pocket), which no pearl can tell apart.
3. Pearls are dropped while the loop stays the only solution, in batches: a random order, cut
   into batches (the first of about BATCH_SHARE of the pearls, doubling after a batch that
   goes, halving after one that does not). A batch's pearls that a local flip needs (another
   loop through every other pearl) are put back first, without a solver. When the batch still
   leaves a second solution, the pearls of the batch that the second solution breaks are put
   back (at least one is: the puzzle before the batch was unique) and the rest of the batch is
   tried again. A check that gets no verdict within `time_s` keeps the whole batch. At most
   `max_checks(cells)` checks are made (a count, not a clock, so the same seed gives the same
   puzzle); the pearls not yet tried when they run out are kept, and at most KEEP_FLOOR of the
   pearls are ever dropped below (a floor on pearl density: fewer pearls make large puzzles
   much harder for every solver).
Every random choice comes from `rng`; the `sat` encoding (CaDiCaL) is deterministic for a given
clause order, so the same seed gives the same puzzles unless a check times out. `sat` is the
default because it answered the checks fastest (results/generators/HISTORY.md)."""

from __future__ import annotations

import random
from collections import ChainMap, deque

from harness.grid import Cell, Grid, parse_solution, solution_string
from harness.kinds.masyu import local
from harness.kinds.masyu.check import _pearl
from harness.kinds.masyu.local import Loop
from harness.kinds.masyu.model import Masyu, Pearl
from harness.unique import GENERATOR_OPTIONS, Verdict, is_unique

DEFAULT_ENCODING = "sat"
COVERAGE = 0.9  # stop growing the loop when this share of the cells is on it
SWITCHES = 200  # second solutions asked for (step 2) before another loop is drawn
REPAIRS = 200  # local loop changes (plus one per 4 cells) before another loop is drawn
TRIES = 5  # loops drawn before giving up when every allowed pearl still leaves two solutions
BATCH_SHARE = 8  # the first batch drops about 1/BATCH_SHARE of the pearls
TABU = 64  # recent changes not undone by the local repairs
KEEP_FLOOR = 0.0  # never fewer pearls than this share of the cells (0: no floor)


def max_checks(cells: int) -> int:
    """How many uniqueness checks dropping pearls may cost: 60 up to 50x50, then fewer.

    A check of a 100x100 puzzle costs `sat` 1-7 s and of a 200x200 one minutes, and the pearls
    kept make the puzzle easier, not wrong; a count, not a clock, so the same seed gives the same
    puzzle. At least 15 up to 100x100, then at least 2 (3 at 200x200).
    """
    if cells <= 2500:
        return 60
    return max(15 if cells <= 10_000 else 2, 60 * 2500 // cells)


def generate(rows: int, cols: int, rng: random.Random, encoding: str = DEFAULT_ENCODING, seed: int = 0,
             time_s: float = 60.0, coverage: float = COVERAGE,
             keep_floor: float = KEEP_FLOOR) -> tuple[Masyu, str]:
    """A puzzle with exactly one solution, and that solution."""
    if rows < 2 or cols < 2:
        raise ValueError(f"a Masyu loop needs at least 2x2 cells, not {rows}x{cols}")
    grid = Grid(rows, cols)
    for _ in range(TRIES):
        loop = Loop(grid, random_loop(grid, rng, coverage))
        loop.recent = deque(maxlen=TABU)
        pearls = loop.allowed(grid.cells)
        verdict = settle(loop, pearls, rng, encoding, seed, time_s)
        if verdict.unique == 1:
            break
    else:
        raise RuntimeError(f"no unique {rows}x{cols} puzzle in {TRIES} loops: {verdict.detail}")
    solution = loop.solution()
    pearls = drop_pearls(grid, pearls, loop, rng, encoding, seed, time_s,
                         floor=int(keep_floor * rows * cols))
    return Masyu(grid, pearls), solution


def settle(loop: Loop, pearls: dict[Cell, Pearl], rng: random.Random, encoding: str, seed: int,
           time_s: float) -> Verdict:
    """Step 2: change `loop` (and `pearls`, every pearl it allows) until the solver finds no other loop."""
    grid = loop.grid
    todo = local.every_block(grid)
    for _ in range(SWITCHES):
        if not repair(loop, pearls, todo, rng):
            return Verdict(None, detail="the local repairs ran out")
        verdict = is_unique(Masyu(grid, pearls), loop.solution(), encoding, GENERATOR_OPTIONS.get(encoding),
                            time_s=time_s, seed=seed)
        if verdict.unique != 0:
            return verdict
        other = parse_solution(grid, verdict.second)
        diff = [c for c in grid.cells if other[c] != loop.bits[c]]
        more = allowed_pearls(grid, verdict.second)  # a superset: the second solution keeps every pearl
        if len(more) > len(pearls):  # take the second solution, with every pearl it allows
            loop.bits, loop.size = other, sum(1 for v in other.values() if v)
            pearls.clear()
            pearls.update(more)
            changed = diff
        else:  # no pearl tells them apart: change the loop where they differ
            changed = perturb(loop, pearls, local.blocks_near(grid, [rng.choice(diff)], 1), rng)
            if not changed:
                return Verdict(None, detail="no loop change where two solutions differ")
        todo = sorted(local.blocks_near(grid, changed, 2))
    return Verdict(None, detail=f"still two solutions after {SWITCHES} solver checks")


def repair(loop: Loop, pearls: dict[Cell, Pearl], todo: list[local.Block], rng: random.Random) -> bool:
    """Change `loop` until no flip of a block's rim is a second solution; False if the repairs run out."""
    grid = loop.grid
    queue = list(reversed(todo))
    limit = REPAIRS + grid.num_cells // 4
    while queue:
        block = queue.pop()
        new = loop.alternative(block, pearls)
        if new is None:
            continue
        around = local.region(grid, block)
        gained = loop.allowed(around, new)
        if any(c not in pearls for c in gained):  # the other loop allows more pearls: take it
            loop.apply(new)
            _recount(loop, pearls, around)
            changed = list(new)
        else:  # nothing tells them apart: change the loop nearby
            limit -= 1
            changed = perturb(loop, pearls, local.blocks_near(grid, local.rim(block), 2) - {block}, rng)
            if not changed or limit < 0:
                return False
        queue.extend(sorted(local.blocks_near(grid, changed, 2), reverse=True))
    return True


def perturb(loop: Loop, pearls: dict[Cell, Pearl], blocks: set[local.Block],
            rng: random.Random) -> list[Cell]:
    """Flip one of `blocks` that leaves one loop (one that grows it if any does); the cells changed.

    A block flipped in the last TABU changes is not flipped again: flipping it back is the
    easiest change, and two changes that undo each other would cycle until the repairs run out.
    """
    recent = loop.recent
    order = sorted(blocks - set(recent))
    rng.shuffle(order)
    flips = [(b, new) for b in order if (new := loop.flip(b)) is not None]
    # growing first: it leaves fewer empty pockets for a second loop to use
    grows = [f for f in flips if loop.growth(f[1]) > 0]
    rest = [f for f in flips if loop.growth(f[1]) <= 0]
    fallback = next((f for f in grows + rest if loop.one_loop(f[1], f[0])), None)
    if fallback is None:
        return []
    block, new = fallback
    recent.append(block)
    loop.apply(new)
    _recount(loop, pearls, local.region(loop.grid, block))
    return list(new)


def _recount(loop: Loop, pearls: dict[Cell, Pearl], cells: list[Cell]) -> None:
    """Every pearl the loop now allows at `cells`."""
    for c in cells:
        pearls.pop(c, None)
    pearls.update(loop.allowed(cells))


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


def drop_pearls(grid: Grid, pearls: dict[Cell, Pearl], loop: Loop, rng: random.Random, encoding: str,
                seed: int, time_s: float, floor: int = 0) -> dict[Cell, Pearl]:
    """Step 3: drop pearls in batches while the loop stays the only solution."""
    solution = loop.solution()
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
            # a flip of a block's rim that the batch's pearls alone forbade: put back those it breaks
            for block, new in loop.alternatives(sorted(local.blocks_near(grid, batch, 1)), fewer):
                view = ChainMap(new, loop.bits)
                back = {c for c in local.region(grid, block) if c in kept and c not in fewer
                        and _pearl(grid, view, c, kept[c])}
                fewer.update((c, kept[c]) for c in back)
                batch = [c for c in batch if c not in back]
            if not batch:
                break
            verdict = is_unique(Masyu(grid, fewer), solution, encoding, GENERATOR_OPTIONS.get(encoding),
                                time_s=time_s, seed=seed)
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
