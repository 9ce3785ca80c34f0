"""Second solutions found without a solver: the Masyu loop with the rim of one small block of cells flipped.

Flipping a block's rim (toggling each edge of the cycle around a 2x2, 2x3, 3x2 or 3x3 block of
cells) turns a loop into another loop when every cell keeps 0 or 2 edges and one loop remains:
adding, removing or moving a two-cell bump, swapping two parallel edges, moving a corner. These
are the second solutions a generated loop nearly always has, and a flip changes the pearl rules
only in the block and one cell around it, so testing one costs a few dozen look-ups, not a solve.
The generator uses them to repair its loop and to test a batch of pearls before asking a solver;
every verdict that counts still comes from a solver and the independent checker.
"""

from __future__ import annotations

from collections import ChainMap, deque
from collections.abc import Iterable, Iterator, Mapping

from harness.grid import DIRECTIONS, Cell, Direction, Grid, parse_solution
from harness.kinds.masyu.check import _pearl
from harness.kinds.masyu.model import Pearl

SHAPES = ((2, 2), (2, 3), (3, 2), (3, 3))  # block sizes whose rims are flipped
Block = tuple[int, int, int, int]  # top row, left column, height, width
_DELTA = {int(d): d.delta for d in DIRECTIONS}
_BACK = {int(d): int(d.opposite) for d in DIRECTIONS}  # the bit by which the next cell is entered
_BIT = {(0, 1): Direction.RIGHT, (-1, 0): Direction.UP, (0, -1): Direction.LEFT, (1, 0): Direction.DOWN}


def rim(block: Block) -> list[Cell]:
    """The cells around a block, in cycle order (clockwise from the top left)."""
    r, c, h, w = block
    top = [(r, c + j) for j in range(w)]
    right = [(r + i, c + w - 1) for i in range(1, h)]
    bottom = [(r + h - 1, c + j) for j in range(w - 2, -1, -1)]
    left = [(r + i, c) for i in range(h - 2, 0, -1)]
    return top + right + bottom + left


def blocks_near(grid: Grid, cells: Iterable[Cell], reach: int = 1) -> set[Block]:
    """Every block whose flip can change a pearl rule at one of `cells` (or `reach` - 1 cells further)."""
    out = set()
    for r0, c0 in cells:
        for h, w in SHAPES:
            for r in range(max(0, r0 - h - reach + 1), min(grid.rows - h, r0 + reach) + 1):
                for c in range(max(0, c0 - w - reach + 1), min(grid.cols - w, c0 + reach) + 1):
                    out.add((r, c, h, w))
    return out


def every_block(grid: Grid) -> list[Block]:
    return [(r, c, h, w) for h, w in SHAPES
            for r in range(grid.rows - h + 1) for c in range(grid.cols - w + 1)]


def rim_edges(block: Block) -> list[tuple[Cell, Cell]]:
    """The edges of a block's rim, in cycle order."""
    cells = rim(block)
    return list(zip(cells, cells[1:] + cells[:1], strict=True))


def region(grid: Grid, block: Block) -> list[Cell]:
    """The cells whose pearl rule a flip of `block` can change: the block and one cell around it."""
    r, c, h, w = block
    return [(i, j) for i in range(max(0, r - 1), min(grid.rows, r + h + 1))
            for j in range(max(0, c - 1), min(grid.cols, c + w + 1))]


def allowed_at(grid: Grid, bits: Mapping[Cell, int], cell: Cell) -> Pearl | None:
    """The pearl the loop allows at `cell` (a cell allows at most one: black turns, white goes straight)."""
    if not bits[cell]:
        return None
    for pearl in (Pearl.BLACK, Pearl.WHITE):
        if not _pearl(grid, bits, cell, pearl):
            return pearl
    return None


class Loop:
    """A simple loop as each cell's direction bits, changed one flip at a time."""

    def __init__(self, grid: Grid, solution: str) -> None:
        self.grid = grid
        self.bits = parse_solution(grid, solution)
        self.size = sum(1 for v in self.bits.values() if v)
        self.recent: deque[Block] = deque()  # the generator's record of its last changes

    def solution(self) -> str:
        g = self.grid
        return "/".join("".join(f"{self.bits[(r, c)]:x}" for c in range(g.cols)) for r in range(g.rows))

    def flip(self, block: Block) -> dict[Cell, int] | None:
        """The changed bits when `block`'s rim is flipped, or None if that is not one loop."""
        edges = rim_edges(block)
        bits = self.bits
        used = [bool(bits[a] & _BIT[(b[0] - a[0], b[1] - a[1])]) for a, b in edges]
        if not any(used) or all(used):
            return None  # a second loop beside it, or none left
        new = {a: bits[a] for a, _ in edges}
        for a, b in edges:
            new[a] ^= _BIT[(b[0] - a[0], b[1] - a[1])]
            new[b] ^= _BIT[(a[0] - b[0], a[1] - b[1])]
        if any(v.bit_count() not in (0, 2) for v in new.values()):
            return None
        return new

    def one_loop(self, new: dict[Cell, int], block: Block) -> bool:
        """Whether the loop with `new` bits (`block` flipped) is still one loop."""
        used = [bool(self.bits[a] & _BIT[(b[0] - a[0], b[1] - a[1])]) for a, b in rim_edges(block)]
        if sum(u and not v for u, v in zip(used, used[-1:] + used[:-1], strict=True)) == 1:
            return True  # one stretch of the loop swapped for the rest of the rim: still one loop
        size = self.size + self.growth(new)
        start = next((a for a, v in new.items() if v), None)
        if start is None or size < 4:
            return False
        bits = self.bits
        saved = {a: bits[a] for a in new}
        bits.update(new)  # followed in place (a ChainMap costs twice the time), then put back
        try:
            cell, out, steps = start, bits[start] & -bits[start], 0
            while steps <= size:
                dr, dc = _DELTA[out]
                cell = (cell[0] + dr, cell[1] + dc)
                steps += 1
                if cell == start:
                    return steps == size
                out = bits[cell] ^ _BACK[out]
            return False
        finally:
            bits.update(saved)

    def growth(self, new: dict[Cell, int]) -> int:
        """How many cells the loop gains (or loses, below 0) with `new` bits."""
        return sum(bool(v) - bool(self.bits[a]) for a, v in new.items())

    def apply(self, new: dict[Cell, int]) -> None:
        self.size += self.growth(new)
        self.bits.update(new)

    def alternative(self, block: Block, pearls: Mapping[Cell, Pearl]) -> dict[Cell, int] | None:
        """The flip of `block`, if it is another loop that passes every pearl of `pearls`."""
        new = self.flip(block)
        if new is None:
            return None
        view = ChainMap(new, self.bits)
        for cell in region(self.grid, block):
            pearl = pearls.get(cell)
            if pearl is not None and _pearl(self.grid, view, cell, pearl):
                return None
        return new if self.one_loop(new, block) else None

    def alternatives(self, blocks: Iterable[Block], pearls: Mapping[Cell, Pearl]
                     ) -> Iterator[tuple[Block, dict[Cell, int]]]:
        for block in blocks:
            new = self.alternative(block, pearls)
            if new is not None:
                yield block, new

    def allowed(self, cells: Iterable[Cell], new: dict[Cell, int] | None = None) -> dict[Cell, Pearl]:
        """The pearls the loop (with `new` bits, if given) allows at `cells`."""
        view = ChainMap(new, self.bits) if new else self.bits
        out = {}
        for cell in cells:
            pearl = allowed_at(self.grid, view, cell)
            if pearl is not None:
                out[cell] = pearl
        return out
