"""The Masyu generator's local second solutions: a block's rim flipped, judged as the checker judges."""

from __future__ import annotations

import random
from collections import deque

from harness import kinds
from harness.grid import Grid
from harness.kinds.masyu import generate as masyu_generate
from harness.kinds.masyu import local
from harness.kinds.masyu.model import Masyu, Pearl

# a 4x4 grid: the loop around the top 2x3 block (row 0 and row 1, columns 0-2)
BOX = "9c5c/3565/0000/0000"


def loop_of(rows: int, cols: int, solution: str) -> local.Loop:
    loop = local.Loop(Grid(rows, cols), solution)
    assert loop.solution() == solution  # written back exactly as read
    return loop


def test_the_rim_goes_round_the_block_once():
    assert local.rim((0, 0, 2, 2)) == [(0, 0), (0, 1), (1, 1), (1, 0)]
    assert local.rim((1, 2, 3, 3)) == [(1, 2), (1, 3), (1, 4), (2, 4), (3, 4), (3, 3), (3, 2), (2, 2)]
    assert len(local.rim_edges((0, 0, 2, 3))) == 6


def test_a_flip_that_adds_a_bump_is_another_loop_the_checker_accepts():
    grid = Grid(4, 4)
    loop = loop_of(4, 4, "9c5c/3565/0000/0000".replace("9c5c", "95c0").replace("3565", "3560"))
    # the 2x3 box's bottom edge (1,0)-(1,1) bulges down through (2,0), (2,1)
    new = loop.flip((1, 0, 2, 2))
    assert new is not None and loop.one_loop(new, (1, 0, 2, 2))
    loop.apply(new)
    assert loop.size == 8
    assert kinds.check(Masyu(grid, {}), loop.solution()) == []


def test_a_flip_that_splits_the_loop_or_adds_a_second_is_refused():
    loop = loop_of(4, 4, "955c/3556/0000/0000")  # round a 2x4 box
    # swapping the box's two middle edges for the two across cuts it into two 2x2 loops
    new = loop.flip((0, 1, 2, 2))
    assert new is not None and not loop.one_loop(new, (0, 1, 2, 2))
    assert loop.alternative((0, 1, 2, 2), {}) is None
    # a block whose rim holds no loop edge would add a second loop beside it
    assert loop.flip((2, 2, 2, 2)) is None
    # shrinking the box by its last column is one loop again
    new = loop.flip((0, 2, 2, 2))
    assert new is not None and loop.one_loop(new, (0, 2, 2, 2))


def test_pearls_rule_out_local_alternatives_as_the_checker_would():
    grid = Grid(5, 5)
    loop = loop_of(5, 5, "95c00/a0a00/35600/00000/00000")  # round the top-left 3x3 block
    pearls = {(0, 0): Pearl.BLACK}  # a turn with arms of two
    blocks = local.every_block(grid)
    found = list(loop.alternatives(blocks, pearls))
    assert found  # e.g. a bump out of the right side passes the one black pearl
    for _, new in found:
        other = local.Loop(grid, loop.solution())
        other.apply(new)
        assert kinds.check(Masyu(grid, pearls), other.solution()) == []  # the checker agrees
        assert other.solution() != loop.solution()
    every = loop.allowed(grid.cells)
    assert every == masyu_generate.allowed_pearls(grid, loop.solution())  # the checker's rule
    assert every == {**dict.fromkeys([(0, 0), (0, 2), (2, 0), (2, 2)], Pearl.BLACK),
                     **dict.fromkeys([(0, 1), (1, 0), (1, 2), (2, 1)], Pearl.WHITE)}
    assert list(loop.alternatives(blocks, every)) == []  # the corners' blacks pin the ring


def test_the_repair_leaves_no_local_alternative():
    grid = Grid(14, 14)
    rng = random.Random(4)
    loop = local.Loop(grid, masyu_generate.random_loop(grid, rng))
    loop.recent = deque(maxlen=masyu_generate.TABU)
    pearls = loop.allowed(grid.cells)
    assert masyu_generate.repair(loop, pearls, local.every_block(grid), rng)
    assert pearls == loop.allowed(grid.cells)  # still every pearl the repaired loop allows
    assert kinds.check(Masyu(grid, pearls), loop.solution()) == []
    assert list(loop.alternatives(local.every_block(grid), pearls)) == []
