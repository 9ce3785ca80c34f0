"""Geradeweg's rules for the loop strategies: the loop on the cells through every number, and the
run lengths as clauses over the edges, the same clauses for every backend (CP-SAT, CNF, ASP).

For a number k at a cell and a direction d whose first edge e1, e2, ... runs to the grid's edge
(f1 the first edge the opposite way): turning there (e1 on, f1 off, so the other edge is across)
the arm going d is exactly k: e2..ek on, e(k+1) off, and no turn into d when fewer than k edges
fit. Passing straight (e1 and f1 on): the arm going d is at most k - 1, and when it is exactly j
(e1..ej on, e(j+1) off) the opposite arm is exactly k - j. A 0 (read as `?`): at a turn the two
arms are equal (each at least j when the other is). An edge past the border is off.
"""

from __future__ import annotations

from typing import Any

from harness.grid import Cell
from harness.kinds.geradeweg.model import Geradeweg
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.grid import on_grid
from loopbench_encodings.loop.gridrules import Edges, asp_clauses

OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e"}
ACROSS = {"n": "ew", "s": "ew", "e": "ns", "w": "ns"}


def loop_problem(puzzle: Geradeweg) -> LoopProblem:
    return on_grid(puzzle.grid, puzzle.numbers())


def clauses(puzzle: Geradeweg) -> list[list[int]]:
    edges = Edges(puzzle.rows, puzzle.cols)
    out: list[list[int]] = []
    for cell, k in puzzle.numbers().items():
        out += _equal_arms(edges, cell) if k == 0 else _runs(edges, cell, k)
    return out


def _runs(edges: Edges, cell: Cell, k: int) -> list[list[int]]:
    out = []
    for d in "nsew":
        e, f = edges.arm(cell, d), edges.arm(cell, OPPOSITE[d])
        if not e:
            continue
        turn = [-e[0], *f[:1]]  # e1 on and f1 off: a turn leaving by d
        if len(e) < k:
            out.append(turn)
        else:
            out += [[*turn, x] for x in e[1:k]]
            if len(e) > k:
                out.append([*turn, -e[k]])
        if not f:
            continue
        if len(e) >= k:
            out.append([-f[0], *(-x for x in e[:k])])  # straight: this arm is under k
        for j in range(1, min(k, len(e) + 1)):
            exact = [-f[0], *(-x for x in e[:j]), *e[j:j + 1]]  # straight, this arm exactly j
            rest = k - j
            if rest > len(f):
                out.append(exact)
                continue
            out += [[*exact, x] for x in f[1:rest]]
            if rest < len(f):
                out.append([*exact, -f[rest]])
    return out


def _equal_arms(edges: Edges, cell: Cell) -> list[list[int]]:
    out = []
    for d in "nsew":
        e = edges.arm(cell, d)
        for p in ACROSS[d]:
            q = edges.arm(cell, p)
            if not e or not q:
                continue
            for j in range(2, len(e) + 1):  # turning into d and p, the arm along p reaches as far as d's
                out.append([-e[0], -q[0], *(-x for x in e[1:j]), *q[j - 1:j]])
    return out


def cpsat(puzzle: Geradeweg, m: Any) -> None:
    for clause in clauses(puzzle):
        m.add_clause(clause)


def cnf(puzzle: Geradeweg, arrays: Any) -> list[list[int]]:
    return clauses(puzzle)


def asp(puzzle: Geradeweg) -> str:
    return asp_clauses(Edges(puzzle.rows, puzzle.cols), clauses(puzzle))
