"""Human-style deduction (the KrazyDad Masyu userscript's method), with a replayable trace of its steps.

Model: every edge is open, on or off. Local rules run until nothing changes: degree (two lines: the
rest off; one line and one open side: it continues; a pearl, or any cell of a `full` puzzle, with two
open sides: both on; a cell with one open side and no line: off), white pearls (straight through;
turn at one end; a run of whites, or lines beyond both ends, bars an axis), black pearls (turn; each
arm goes straight two; an arm into an adjacent black pearl, off the grid or across a line is off) and
no loop closed while pearls or other lines lie outside it. When stuck, each open edge is tried both
ways, one level deep: a branch ending in a contradiction fixes the edge the other way; edges both
surviving branches decide alike are kept. Still stuck: `unknown`, the decided-on edges in
stats["partial"]. A contradiction outside a hypothesis proves `unsat`. Every deduction is sound, so a
complete answer is the only one: an excluded answer means `unsat`.
stats["steps"]: one [rule, value, edges, hypothesis] per deduction: value 1 on, 0 off, -1 a
contradiction; edges index Grid.edges; hypothesis 1 inside a branch ("assume" ... "rollback").
"""

from __future__ import annotations

import time
from collections import Counter, deque

from harness.encoding import SAT, UNKNOWN, UNSAT, Encoding, Limits, Outcome
from harness.grid import DIRECTIONS, Direction, edge, solution_string
from harness.kinds.masyu.model import Masyu, Pearl
from harness.options import Option

ON, OFF, OPEN = 1, 0, -1
H, V = (Direction.RIGHT, Direction.LEFT), (Direction.UP, Direction.DOWN)
ACROSS = {d: V if d.horizontal else H for d in DIRECTIONS}


class Contradiction(Exception):
    def __init__(self, rule: str, edges: list[int]) -> None:
        super().__init__(rule)
        self.rule, self.edges = rule, [k for k in edges if k is not None]


class OutOfTime(Exception):
    pass


class Geometry:
    """What the rules look up, built once per puzzle: edge numbers by cell and direction."""

    def __init__(self, puzzle: Masyu) -> None:
        grid = puzzle.grid
        self.grid, self.pearls, self.edges = grid, puzzle.pearls, grid.edges
        number = {e: k for k, e in enumerate(grid.edges)}
        self.at = {c: {d: number[edge(c, n)] for d, n in grid.neighbours(c)} for c in grid.cells}
        self.must = set(grid.cells) if puzzle.full else set(puzzle.pearls)
        near = {c: [p for p in self.pearls if abs(p[0] - c[0]) + abs(p[1] - c[1]) <= 2] for c in grid.cells}
        # An edge's change can wake its two cells' degree rules and any pearl within two cells.
        self.touch = [sorted({a, b, *near[a], *near[b]}) for a, b in grid.edges]


class Board:
    """One state of the edges, with the queue of cells whose rules may fire and the steps taken."""

    def __init__(self, geo: Geometry, state: list[int], deadline: float, hypothesis: int = 0) -> None:
        self.geo, self.state, self.deadline, self.hypothesis = geo, state, deadline, hypothesis
        self.steps: list[list] = []
        self.queue: deque = deque(() if hypothesis else geo.grid.cells)  # a branch wakes what it sets
        self.queued = set(self.queue)

    def get(self, cell, d) -> int:
        k = self.geo.at[cell].get(d)
        return OFF if k is None else self.state[k]

    def fix(self, rule: str, value: int, edges) -> None:
        new = []
        for k in edges:
            if k is None or self.state[k] == value:
                if k is None and value == ON:
                    raise Contradiction(rule, [])
                continue
            if self.state[k] != OPEN:
                raise Contradiction(rule, [k])
            self.state[k] = value
            new.append(k)
            for cell in self.geo.touch[k]:
                if cell not in self.queued:
                    self.queued.add(cell)
                    self.queue.append(cell)
        if new:
            self.steps.append([rule, value, new, self.hypothesis])

    def propagate(self) -> None:
        """Apply every rule until none fires; raises Contradiction or OutOfTime."""
        pops = 0
        while True:
            while self.queue:
                pops += 1
                if pops % 256 == 0 and time.process_time() > self.deadline:
                    raise OutOfTime
                cell = self.queue.popleft()
                self.queued.discard(cell)
                self.degree(cell)
                pearl = self.geo.pearls.get(cell)
                if pearl is Pearl.WHITE:
                    self.white(cell)
                elif pearl is Pearl.BLACK:
                    self.black(cell)
            self.loops()
            if not self.queue:
                return

    def degree(self, cell) -> None:
        ks = self.geo.at[cell].values()
        on = [k for k in ks if self.state[k] == ON]
        open_ = [k for k in ks if self.state[k] == OPEN]
        if len(on) > 2:
            raise Contradiction("degree", on)
        if len(on) == 2:
            self.fix("degree-full", OFF, open_)
        elif len(on) == 1:
            if not open_:
                raise Contradiction("degree-dead-end", on)
            if len(open_) == 1:
                self.fix("degree-continue", ON, open_)
        elif cell in self.geo.must:
            if len(open_) < 2:
                raise Contradiction("must-visit", open_)
            if len(open_) == 2:
                self.fix("must-visit", ON, open_)
        elif len(open_) == 1:
            self.fix("degree-dead-end", OFF, open_)

    def white(self, cell) -> None:
        at, step = self.geo.at[cell], self.geo.grid.step
        for axis, other in ((H, V), (V, H)):
            if ON in (self.get(cell, d) for d in axis) or OFF in (self.get(cell, d) for d in other):
                self.fix("white-straight", ON, [at.get(d) for d in axis])
                self.fix("white-straight", OFF, [at.get(d) for d in other])
                (n1, d1), (n2, d2) = ((step(cell, d), d) for d in axis)
                if self.get(n1, d1) == ON:  # no turn at this end: the loop turns at the other
                    self.fix("white-turn", OFF, [self.geo.at[n2].get(d2)])
                elif self.get(n2, d2) == ON:
                    self.fix("white-turn", OFF, [self.geo.at[n1].get(d1)])
                return
        for axis in (H, V):  # both axes open: one is barred if neither of its ends could turn
            ends = [(step(cell, d), d) for d in axis]
            if all(self.geo.pearls.get(n) is Pearl.WHITE or self.get(n, d) == ON for n, d in ends):
                self.fix("white-run", OFF, [at[d] for d in axis])

    def black(self, cell) -> None:
        at, step = self.geo.at[cell], self.geo.grid.step
        for d in DIRECTIONS:
            value = self.get(cell, d)
            if value == ON:
                self.fix("black-arm", ON, [self.geo.at[step(cell, d)].get(d)])
                self.fix("black-turn", OFF, [at.get(d.opposite)])
            elif value == OFF:
                self.fix("black-turn", ON, [at.get(d.opposite)])
            else:
                n = step(cell, d)
                if self.geo.pearls.get(n) is Pearl.BLACK:
                    self.fix("black-adjacent", OFF, [at[d]])
                elif self.get(n, d) == OFF or any(self.get(n, p) == ON for p in ACROSS[d]):
                    self.fix("black-blocked", OFF, [at[d]])

    def loops(self) -> None:
        """No loop closed while pearls or other lines lie outside it; a complete loop ends the puzzle."""
        geo, state = self.geo, self.state
        lines = {c: [k for k in geo.at[c].values() if state[k] == ON] for c in geo.grid.cells}
        total = state.count(ON)
        if not total and OPEN not in state:
            raise Contradiction("no-loop", [])
        seen: set = set()
        chains = []
        for start in (c for c, ks in lines.items() if len(ks) == 1):
            if start not in seen:
                end, length = self.walk(lines, start, lines[start][0], seen)
                chains.append((start, end, length))
        missing = any(not lines[c] for c in geo.must)
        closed = next((c for c, ks in lines.items() if len(ks) == 2 and c not in seen), None)
        if closed is not None:  # a closed loop: it must hold every line and every pearl
            ring: set = set()
            length = self.walk(lines, closed, lines[closed][0], ring)[1]
            if chains or missing or length != total:
                raise Contradiction("early-loop", sorted({k for c in ring for k in lines[c]}))
            self.fix("loop-closed", OFF, [k for k, s in enumerate(state) if s == OPEN])
            return
        for x, y, length in chains:
            k = next((k for k in geo.at[x].values() if y in geo.edges[k]), None)
            if k is not None and state[k] == OPEN and (length != total or missing):
                self.fix("early-loop", OFF, [k])

    def walk(self, lines: dict, cell, k: int, seen: set | None = None) -> tuple:
        """Follow the line from `cell` along edge `k` to its other end (or back round); (end, edges)."""
        start, length = cell, 0
        while True:
            if seen is not None:
                seen.add(cell)
            a, b = self.geo.edges[k]
            cell, length = (b if a == cell else a), length + 1
            if len(lines[cell]) != 2 or cell == start:
                break
            k = lines[cell][0] if lines[cell][1] == k else lines[cell][1]
        if seen is not None:
            seen.add(cell)
        return cell, length


class Inference(Encoding):
    name = "inference"
    puzzles = ("masyu",)
    declared = (Option("hypotheses", True, "one level of hypotheses when the rules are stuck"),)
    excludes = True

    def solve(self, puzzle: Masyu, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        geo = Geometry(puzzle)
        board = Board(geo, [OPEN] * len(geo.edges), limits.deadline())
        tries = Hypotheses()
        status, reason = UNKNOWN, ""
        try:
            board.propagate()
            while OPEN in board.state:
                if not (self.options["hypotheses"] and tries.teach(board)):
                    reason = "stuck: the rules and one-level hypotheses decide no more edges"
                    break
                board.propagate()
            else:
                status = SAT
        except Contradiction as exc:
            board.steps.append([exc.rule, -1, exc.edges, 0])
            status = UNSAT
        except OutOfTime:
            reason = f"time limit of {limits.time_s:g} s reached"
        solution = solution_string(geo.grid, [geo.edges[k] for k, s in enumerate(board.state) if s == ON])
        stats = {"steps": board.steps, "hypotheses": tries.tried, "edges": len(geo.edges),
                 "decided": len(geo.edges) - board.state.count(OPEN),
                 "rules": dict(Counter(step[0] for step in board.steps if not step[3]))}
        if status == SAT:
            return Outcome(UNSAT, stats=stats) if solution in exclude else Outcome(SAT, solution, stats)
        if status == UNKNOWN:
            stats.update(reason=reason, partial=solution)
        return Outcome(status, stats=stats)


class Hypotheses:
    """One level of trial: each open edge on, then off, in turn, resuming after the last useful one."""

    def __init__(self) -> None:
        self.tried, self.cursor = 0, 0

    def teach(self, board: Board) -> bool:
        """Fix what the first useful trial teaches (its branches go to the steps); False if none does."""
        state, n = board.state, len(board.state)
        for k in (j % n for j in range(self.cursor, self.cursor + n)):
            if state[k] != OPEN:
                continue
            if time.process_time() > board.deadline:
                raise OutOfTime
            self.tried += 1
            on, off = (self.branch(board, k, value) for value in (ON, OFF))
            if on.state is not None and off.state is not None:
                same = [j for j in range(n) if state[j] == OPEN and on.state[j] == off.state[j] != OPEN]
                if not same:
                    continue
                board.steps += on.steps + off.steps
                for value in (ON, OFF):
                    board.fix("both-branches", value, [j for j in same if on.state[j] == value])
            else:
                board.steps += [s for b in (on, off) if b.state is None for s in b.steps]
                if on.state is None and off.state is None:
                    raise Contradiction("hypothesis", [k])
                board.fix("hypothesis", OFF if on.state is None else ON, [k])
            self.cursor = k + 1
            return True
        return False

    @staticmethod
    def branch(board: Board, k: int, value: int) -> Board:
        """Edge k set to `value` on a copy and propagated; the copy's state is None on a contradiction."""
        branch = Board(board.geo, list(board.state), board.deadline, hypothesis=1)
        try:
            branch.fix("assume", value, [k])
            branch.propagate()
        except Contradiction as exc:
            branch.steps.append([exc.rule, -1, exc.edges, 1])
            branch.state = None
        branch.steps.append(["rollback", value, [k], 1])
        return branch
