"""Whether each lazily added clause of a logged CNF holds for every answer of its puzzle, apart from solvers.

A DRAT proof shows that the CNF has no model; the CNF's `c cut` clauses were made by the encoding
between solves, so they are judged here, against what the puzzle's kind states of every answer
(`harness.kinds.demands`: its edges, its demands, its answers written; the `c edge VAR U V` lines
name each variable's edge):
- a clause of negative literals forbids a set F of edges together. Valid when F is one cycle that
  misses a demand, or that the kind's own checker rejects as the whole solution (an answer holding
  every edge of a cycle is that cycle), or such a cycle plus one edge off it (the company edge: an
  answer holding the cycle holds nothing else);
- a clause of positive literals asks for one of its edges. Valid when it holds every edge (the
  empty drawing is never an answer), or when the graph without its edges leaves apart two of the
  kind's demands: an answer meets both, and is connected, so uses an edge of the clause;
- a clause of positive literals is valid too when one edge e off it, removed with its edges, leaves
  two demands apart (`_separates_with_one_more`): an answer without the clause's edges, meeting
  both demands, has vertices in two parts of the graph left (through e or not) and so crosses the
  cut around one of them, made of removed edges, an even number of times, at least twice: an edge
  besides e (a connectivity propagator's parity clauses, `encodings/connect.py`).
Anything else is invalid, with the reason: a cut in a kind without a loop or one that states
nothing here, a cycle the kind cannot write as an answer yet meets every demand, `c edge` lines
that do not name the kind's edges. `c exclude` clauses are not cuts (`harness.proof.contents`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from harness import kinds
from harness.kinds.demands import Stated, stated
from harness.proof.drat import Cnf
from harness.proof.reasons import STOPPED
from harness.prooflog import CUT, EDGE, mark_line


@dataclass
class CutResult:
    """`problems`: one line per invalid clause (its line in the CNF and why); empty means every cut holds."""

    cuts: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if self.ok:
            return f"cuts valid: {self.cuts} cuts"
        return f"invalid cuts: {len(self.problems)} of {self.cuts} cuts; first: {self.problems[0]}"


def edge_names(cnf: Cnf) -> dict[int, tuple[int, int]]:
    """The `c edge VAR U V` lines: variable -> (U, V)."""
    out = {}
    for line in cnf.comments:
        parts = line.split()
        if len(parts) == 5 and parts[1] == EDGE:
            var, u, v = (int(p) for p in parts[2:])
            out[var] = (u, v)
    return out


def check_cuts(cnf: Cnf, puzzle: Any, deadline: float | None = None) -> CutResult:
    """Judge every `c cut` clause of `cnf` against `puzzle` (see the module docstring).

    `deadline`: a `time.process_time()` instant; past it the check stops with a problem that says so.
    """
    result = CutResult()
    marked = [k for k, notes in enumerate(cnf.notes) if mark_line(CUT) in notes]
    result.cuts = len(marked)
    if not marked:
        return result
    kind = stated(puzzle)
    if kind is None:
        result.problems.append(f"{puzzle.kind} states no loop to judge cuts by, yet the CNF has "
                               f"{result.cuts} `c cut` clauses")
        return result
    names = {var: (u, v) if u < v else (v, u) for var, (u, v) in edge_names(cnf).items()}
    if set(names.values()) != kind.edges or len(names) != len(kind.edges):
        result.problems.append("the CNF's `c edge` lines do not name the puzzle's edges")
        return result
    adjacent: dict[int, list[tuple[int, tuple[int, int]]]] = {}  # vertex -> (neighbour, edge), made once
    for edge in kind.edges:
        u, v = edge
        adjacent.setdefault(u, []).append((v, edge))
        adjacent.setdefault(v, []).append((u, edge))
    for k in marked:
        if deadline is not None and time.process_time() >= deadline:
            result.problems.append(f"line {cnf.lines[k]}: {STOPPED} (cuts from here not judged)")
            break
        why = _judge(cnf.clauses[k], names, kind, adjacent, puzzle)
        if why:
            result.problems.append(f"line {cnf.lines[k]}: {why}")
    return result


def _judge(clause: list[int], names: dict[int, tuple[int, int]], kind: Stated,
           adjacent: dict[int, list[tuple[int, tuple[int, int]]]], puzzle: Any) -> str:
    """Why `clause` may not hold for every answer, or "" when it does."""
    if not clause:
        return "the empty clause"
    unnamed = [lit for lit in clause if abs(lit) not in names]
    if unnamed:
        return f"variable {abs(unnamed[0])} is not an edge"
    if all(lit > 0 for lit in clause):
        edges = {names[lit] for lit in clause}
        if len(edges) == len(names):
            return ""
        demands = kind.demands
        if _separates(adjacent, edges, demands) or _separates_with_one_more(adjacent, edges, demands):
            return ""
        return ("a clause of edges to use that does not separate two demands (required vertices, hits "
                "groups), not even with one edge more")
    if any(lit > 0 for lit in clause):
        return "mixes edges to use and edges to leave out"
    edges = [names[-lit] for lit in clause]
    if _one_cycle(edges):
        return _not_alone(edges, kind, puzzle)
    for company in _candidates(edges):
        rest = [e for e in edges if e != company]
        if _one_cycle(rest):
            return ""  # an answer holding the cycle `rest` is that cycle, so it lacks the company edge
    return "forbids edges that are not one cycle (or one cycle and one edge off it)"


def _not_alone(cycle: list[tuple[int, int]], kind: Stated, puzzle: Any) -> str:
    """"" when `cycle` cannot be the whole answer (it misses a demand, or the kind's checker rejects
    it); else why the cut is wrong."""
    vertices = {v for edge in cycle for v in edge}
    used = set(cycle)
    for demand in kind.demands:
        if not any(place in used if len(place) == 2 else place[0] in vertices for place in demand):
            return ""  # every answer meets this demand; the cycle alone does not
    try:
        solution = kind.write(cycle)
    except ValueError as exc:  # it meets every demand, so the kind must be able to write it
        return f"forbids a cycle meeting every demand that the kind cannot write as an answer ({exc})"
    if kinds.check(puzzle, solution):
        return ""
    return f"forbids a loop the checker accepts as an answer: {solution}"


def _degrees(edges) -> dict[int, int]:
    degree: dict[int, int] = {}
    for u, v in edges:
        degree[u] = degree.get(u, 0) + 1
        degree[v] = degree.get(v, 0) + 1
    return degree


def _one_cycle(edges: list[tuple[int, int]]) -> bool:
    if len(edges) < 3 or len(set(edges)) != len(edges) or any(d != 2 for d in _degrees(edges).values()):
        return False
    adjacent: dict[int, list[int]] = {}
    for u, v in edges:
        adjacent.setdefault(u, []).append(v)
        adjacent.setdefault(v, []).append(u)
    start = edges[0][0]
    seen, todo = {start}, [start]
    while todo:
        for w in adjacent[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return len(seen) == len(adjacent)


def _candidates(edges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The edges whose removal could leave one cycle: those touching a vertex of degree other than 2."""
    degree = _degrees(edges)
    return [e for e in edges if degree[e[0]] != 2 or degree[e[1]] != 2]


def _separates(adjacent: dict[int, list[tuple[int, tuple[int, int]]]], removed: set[tuple[int, int]],
               demands: list[set[tuple[int, ...]]]) -> bool:
    """Whether the graph (`adjacent`: each vertex's neighbours and the edges to them) without
    `removed` leaves two demands apart: no one part of it meets them all.

    A demand is a set of places an answer may meet it: a vertex `(v,)`, or edges `(u, v)` (an edge
    met in a part has both ends there; a removed edge is not in the graph left).
    """
    removed = {tuple(sorted(e)) for e in removed}  # as the demands name edges
    part: dict[int, int] = {}  # vertex -> the first vertex of its part (a vertex cut off: its own)
    for start in adjacent:
        if start in part:
            continue
        part[start], todo = start, [start]
        while todo:
            for w, edge in adjacent[todo.pop()]:
                if w not in part and edge not in removed:
                    part[w] = start
                    todo.append(w)
    common: set[int] | None = None
    for demand in demands:
        # a vertex without edges is a part of its own (-1 - v: no vertex starts it)
        kept = (place for place in demand if len(place) == 1 or place not in removed)
        where = {part.get(place[0], -1 - place[0]) for place in kept}
        common = where if common is None else common & where
        if not common:
            return True
    return False


def _separates_with_one_more(adjacent: dict[int, list[tuple[int, tuple[int, int]]]],
                             removed: set[tuple[int, int]], demands: list[set[tuple[int, ...]]]) -> bool:
    """Whether some edge e not in `removed` makes `_separates` true with `removed` and e gone.

    Only a bridge of the graph left can: its other edges leave each part joined as before.
    """
    removed = {tuple(sorted(e)) for e in removed}
    return any(_separates(adjacent, removed | {bridge}, demands) for bridge in _bridges(adjacent, removed))


def _bridges(adjacent: dict[int, list[tuple[int, tuple[int, int]]]], removed: set[tuple[int, int]]) -> list:
    """The bridges of the graph (`adjacent`) without `removed`: iterative Tarjan, by low points."""
    pre: dict[int, int] = {}
    low: dict[int, int] = {}
    out = []
    for start in adjacent:
        if start in pre:
            continue
        pre[start] = low[start] = len(pre)
        stack = [(start, None, iter(adjacent[start]))]
        while stack:
            v, via, it = stack[-1]
            for w, edge in it:
                if edge == via or edge in removed:
                    continue
                if w in pre:
                    low[v] = min(low[v], pre[w])
                else:
                    pre[w] = low[w] = len(pre)
                    stack.append((w, edge, iter(adjacent[w])))
                    break
            else:
                stack.pop()
                if stack:
                    u = stack[-1][0]
                    low[u] = min(low[u], low[v])
                    if low[v] > pre[u]:
                        out.append(via)
    return out
