"""Depth-first search that grows the loop one edge at a time (the public Java Masyu solver's first method).

Model: one open path, started at the most constrained pearl, grown at either end with backtracking.
Each node adds one edge from an end to a free cell (or to the other end, closing the loop). A move is
refused at once if a pearl within two cells can no longer take any of its shapes (white: straight,
with a turn beyond one end; black: a corner, each arm straight for two cells, not into a black
pearl), if a pearl (any cell of a `full` puzzle) off the path is left with fewer than two ways in,
if the pearls still to visit and the far end are not all reachable through free cells, or if it
closes the loop before every pearl is on it. Forced moves first: the end with fewer legal moves
is the one grown. Complete: an exhausted search is `unsat`; `exclude`d loops are passed over.
Pure Python and deterministic (the seed is unused); stats: `nodes` (moves tried). The clock is read
every 64 nodes; out of time it returns `unknown` with the path so far as stats["partial"].
"""

from __future__ import annotations

import time

from harness.encoding import SAT, UNKNOWN, UNSAT, Encoding, Limits, Outcome, cpu_time
from harness.grid import DIRECTIONS
from harness.kinds.masyu.model import Masyu, Pearl

from . import rules

ON, OFF, OPEN = 1, 0, -1
OPPOSITE = {d: d.opposite for d in DIRECTIONS}
ACROSS = {d: [p for p in DIRECTIONS if p.horizontal != d.horizontal] for d in DIRECTIONS}
SHAPES = {Pearl.WHITE: [(1, 4), (2, 8)], Pearl.BLACK: [(1, 2), (2, 4), (4, 8), (8, 1)]}
DEGREE = [bin(b).count("1") for b in range(16)]


class OutOfTime(Exception):
    pass


class Search:
    def __init__(self, puzzle: Masyu, deadline: float, exclude: tuple[str, ...]) -> None:
        grid = puzzle.grid
        self.rows, self.cols, self.deadline, self.exclude = grid.rows, grid.cols, deadline, exclude
        index = grid.index
        self.nb = [{d: (index(n) if (n := grid.step(c, d)) else -1) for d in DIRECTIONS} for c in grid.cells]
        self.pearl = [puzzle.pearls.get(c) for c in grid.cells]
        self.must = [puzzle.full or p is not None for p in self.pearl]
        self.near = [[index(p) for p in puzzle.pearls if abs(p[0] - c[0]) + abs(p[1] - c[1]) <= 2]
                     for c in grid.cells]
        self.bits = [0] * grid.num_cells
        self.missing, self.length, self.nodes = sum(self.must), 0, 0
        self.floor = 0  # cells below it are barred (a pearl-less puzzle tries each start in turn)

    def state(self, i: int, d: int, final: bool = False) -> int:
        j = self.nb[i][d]
        if j < 0:
            return OFF
        if self.bits[i] & d:
            return ON
        return OFF if final or DEGREE[self.bits[i]] == 2 or DEGREE[self.bits[j]] == 2 else OPEN

    def fits(self, i: int, final: bool = False) -> bool:
        """Whether the pearl at cell i can still take one of its shapes, given the edges so far."""
        white = self.pearl[i] is Pearl.WHITE
        for shape in SHAPES[self.pearl[i]]:
            if any(self.state(i, d, final) == OFF for d in shape) or any(
                    self.state(i, d, final) == ON for d in DIRECTIONS if d not in shape):
                continue
            ends = [(self.nb[i][d], d) for d in shape]
            if white:
                if all(self.pearl[j] is Pearl.WHITE or self.state(j, d, final) == ON for j, d in ends):
                    continue
            elif any(self.pearl[j] is Pearl.BLACK or self.state(j, d, final) == OFF
                     or any(self.state(j, p, final) == ON for p in ACROSS[d]) for j, d in ends):
                continue
            return True
        return False

    def add(self, i: int, d: int, sign: int = 1) -> None:
        """Put (sign 1) or take back (-1) the edge from cell i going d."""
        j = self.nb[i][d]
        for cell, bit in ((i, d), (j, OPPOSITE[d])):
            was = self.bits[cell]
            self.bits[cell] ^= bit
            if self.must[cell] and bool(was) != bool(self.bits[cell]):  # newly on, or back off
                self.missing += 1 if was else -1
        self.length += sign

    def legal(self, i: int, d: int) -> bool:
        """Move i -> d is on the board now: pearls near both cells and cells next to i still fit."""
        j = self.nb[i][d]
        if any(not self.fits(p) for p in {*self.near[i], *self.near[j]}):
            return False
        for k in self.nb[i].values():  # i is full now: a must-visit cell beside it loses a way in
            if k >= 0 and self.must[k] and not self.bits[k]:
                if sum(n >= 0 and DEGREE[self.bits[n]] < 2 for n in self.nb[k].values()) < 2:
                    return False
        return True

    def moves(self, ends: tuple[int, int]) -> list[tuple[int, int]]:
        """The legal moves of the end with fewest, as (end, direction); [] if an end is stuck."""
        best = None
        for i in dict.fromkeys(ends):
            other = ends[1] if i == ends[0] else ends[0]
            found = []
            for d in DIRECTIONS:
                j = self.nb[i][d]
                closing = j == other and self.length >= 3 and self.missing == 0
                if j < self.floor or self.bits[i] & d or (self.bits[j] and not closing):
                    continue
                self.add(i, d)
                if self.legal(i, d):
                    found.append((i, d))
                self.add(i, d, -1)
            if best is None or len(found) < len(best):
                best = found
        return best or []

    def reachable(self, a: int, b: int) -> bool:
        """Every missing pearl, and the end b, reachable from end a through cells off the path."""
        seen, todo = {a}, [a]
        while todo:
            for j in self.nb[todo.pop()].values():
                if j >= self.floor and j not in seen and not self.bits[j]:
                    seen.add(j)
                    todo.append(j)
        if sum(self.must[j] and not self.bits[j] for j in seen) < self.missing:
            return False
        if any(j != a and j in seen for j in self.nb[b].values()):
            return True
        return self.missing == 0 and self.length >= 3 and b in self.nb[a].values()  # close at once

    def solution(self) -> str:
        return "/".join("".join(format(self.bits[r * self.cols + c], "x") for c in range(self.cols))
                        for r in range(self.rows))

    def run(self, start: int) -> str | None:
        """The first loop found (not excluded), or None when there is none."""
        stack = [[(start, start), self.moves((start, start)), 0, None]]  # ends, moves, next, move to undo
        while stack:
            frame = stack[-1]
            ends, moves, k, done = frame
            if done is not None:
                self.add(*done, -1)
                frame[3] = None
            if k == len(moves):
                stack.pop()
                continue
            if self.nodes % 64 == 0 and time.process_time() > self.deadline:
                raise OutOfTime
            self.nodes += 1
            i, d = frame[3] = moves[k]
            frame[2] = k + 1
            self.add(i, d)
            j, other = self.nb[i][d], ends[1] if i == ends[0] else ends[0]
            if j == other:  # the loop is closed: every pearl is on it (moves() saw to that)
                if all(self.fits(p, final=True) for p, pearl in enumerate(self.pearl) if pearl):
                    if (found := self.solution()) not in self.exclude:
                        return found
                continue
            if self.reachable(j, other) and (after := self.moves((j, other))):
                stack.append([(j, other), after, 0, None])
        return None


class Dfs(Encoding):
    name = "dfs"
    # and every kind whose rules say the loop problem is the whole puzzle (a Hamiltonian cycle: `_cycle_dfs`)
    puzzles = ("masyu", *rules.kinds_with("cycle_only"))
    defaults: dict = {}
    excludes = True

    def solve(self, puzzle: Masyu, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        if getattr(rules.of(puzzle.kind), "cycle_only", False):
            from . import loop
            from ._cycle_dfs import solve_cycle

            problem = loop.problem(puzzle)
            return loop.refuse(problem, cpu_time()) or solve_cycle(problem, limits, exclude)
        search = Search(puzzle, limits.deadline(), exclude)
        # Start at a pearl with fewest ways through (a black one); with no pearl, at each cell in turn.
        pearls = sorted(puzzle.pearls, key=lambda c: puzzle.pearls[c] is not Pearl.BLACK)
        if pearls or puzzle.full:
            plan = [(0, puzzle.grid.index(pearls[0]) if pearls else 0)]  # (floor, start)
        else:
            plan = [(start, start) for start in range(puzzle.grid.num_cells)]
        found = None
        try:
            for search.floor, start in plan:
                if (found := search.run(start)) is not None:
                    break
        except OutOfTime:
            stats = {"nodes": search.nodes, "partial": search.solution(),
                     "reason": f"time limit of {limits.time_s:g} s reached after {search.nodes} nodes"}
            return Outcome(UNKNOWN, stats=stats)
        if found is None:
            return Outcome(UNSAT, stats={"nodes": search.nodes})
        return Outcome(SAT, found, {"nodes": search.nodes})
