"""Whether each lazily added clause of a logged CNF holds for every answer of its puzzle, apart from solvers.

A DRAT proof shows that the CNF has no model; the CNF's `c cut` clauses were made by the encoding
between solves, so they are checked here, against the puzzle (the `c edge VAR U V` lines name
each variable's edge):
- a clause of negative literals forbids a set F of edges together. Valid when F is one cycle
  that the kind's own checker rejects as the whole solution (an answer holding every edge of a
  cycle is that cycle), or such a cycle plus one edge off it (the company edge: an answer
  holding the cycle holds nothing else);
- a clause of positive literals asks for one of its edges. Valid when it holds every edge (the
  empty drawing is never an answer), or when the graph without its edges leaves apart two demands
  of the puzzle's loop problem (each required vertex; each `hits` group, met by an answer that
  uses one of its edges): an answer meets both, and is connected, so uses an edge of the clause;
- a clause of positive literals is valid too when one edge e off it, removed with its edges, leaves
  two demands apart (`_separates_with_one_more`): an answer without the clause's edges, meeting
  both demands, has vertices in two parts of the graph left (through e or not) and so crosses the
  cut around one of them, made of removed edges, an even number of times, at least twice: an edge
  besides e (a connectivity propagator's parity clauses, `loop.connect`);
- a clause marked `c exclude` rules out an answer already found: the question asked
  (another answer?) is what makes it valid, so it is counted, not judged.
Anything else, or a `c cut` in a kind without a loop, is invalid, with the reason.
The vertex names are the kind's own (`loop.graph`'s `number`: a grid's row-major index, a
graph's 1-based vertex numbers).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from harness import kinds
from harness.proof.drat import STOPPED, Cnf


@dataclass
class CutResult:
    """`problems`: one line per invalid clause (its line in the CNF and why); empty means every cut holds."""

    cuts: int = 0
    excluded: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        head = f"{self.cuts} cuts, {self.excluded} excluded answers"
        if self.ok:
            return f"cuts valid: {head}"
        return f"invalid cuts: {len(self.problems)} of {head}; first: {self.problems[0]}"


def name_of(problem: Any, vertex: int) -> int:
    """How a proof names vertex `vertex` of the loop problem's graph (`loop.graph`'s `number`)."""
    return problem.graph.number(vertex)


def edge_names(cnf: Cnf) -> dict[int, tuple[int, int]]:
    """The `c edge VAR U V` lines: variable -> (U, V)."""
    out = {}
    for line in cnf.comments:
        parts = line.split()
        if len(parts) == 5 and parts[1] == "edge":
            var, u, v = (int(p) for p in parts[2:])
            out[var] = (u, v)
    return out


def check_cuts(cnf: Cnf, puzzle: Any, deadline: float | None = None) -> CutResult:
    """Judge every `c cut` clause of `cnf` against `puzzle` (see the module docstring).

    `deadline`: a `time.process_time()` instant; past it the check stops with a problem that says so.
    """
    from loopbench_encodings import loop

    result = CutResult()
    marked = [(k, notes) for k, notes in enumerate(cnf.notes) if "c cut" in notes or "c exclude" in notes]
    result.excluded = sum("c exclude" in notes for _, notes in marked)
    result.cuts = len(marked) - result.excluded
    if not result.cuts:
        return result
    if puzzle.kind not in loop.kinds():
        result.problems.append(f"{puzzle.kind} has no loop, yet the CNF has {result.cuts} `c cut` clauses")
        return result
    problem = loop.problem(puzzle)
    names = edge_names(cnf)
    # each edge of the puzzle's graph by the names a proof gives its ends, made once for every cut
    edge_of = {tuple(sorted((name_of(problem, a), name_of(problem, b)))): i
               for i, (a, b) in enumerate(problem.graph.ends)}
    named = {tuple(sorted(e)) for e in names.values()}
    if named != set(edge_of) or len(names) != len(edge_of):
        result.problems.append("the CNF's `c edge` lines do not name the puzzle's edges")
        return result
    # what every answer meets: a required vertex, or a hits group's edges (by the names of their ends)
    demands = [{(name_of(problem, v),)} for v in problem.required]
    demands += [{tuple(sorted((name_of(problem, a), name_of(problem, b)))) for a, b in
                 (problem.graph.ends[i] for i in group)} for group in problem.hits]
    adjacent: dict[int, list[tuple[int, tuple[int, int]]]] = {}  # vertex -> (neighbour, edge), made once
    for edge in named:
        u, v = edge
        adjacent.setdefault(u, []).append((v, edge))
        adjacent.setdefault(v, []).append((u, edge))
    for k, notes in marked:
        if "c exclude" in notes:
            continue
        if deadline is not None and time.process_time() >= deadline:
            result.problems.append(f"line {cnf.lines[k]}: {STOPPED} (cuts from here not judged)")
            break
        why = _judge(cnf.clauses[k], names, demands, adjacent, edge_of, problem, puzzle)
        if why:
            result.problems.append(f"line {cnf.lines[k]}: {why}")
    return result


def _judge(clause: list[int], names: dict[int, tuple[int, int]], demands: list[set[tuple[int, ...]]],
           adjacent: dict[int, list[tuple[int, tuple[int, int]]]], edge_of: dict[tuple[int, int], int],
           problem: Any, puzzle: Any) -> str:
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
        if _separates(adjacent, edges, demands) or _separates_with_one_more(adjacent, edges, demands):
            return ""
        return ("a clause of edges to use that does not separate two demands (required vertices, hits "
                "groups), not even with one edge more")
    if any(lit > 0 for lit in clause):
        return "mixes edges to use and edges to leave out"
    edges = [names[-lit] for lit in clause]
    if _one_cycle(edges):
        return _not_alone(edges, edge_of, problem, puzzle)
    for company in _candidates(edges):
        rest = [e for e in edges if e != company]
        if _one_cycle(rest):
            return ""  # an answer holding the cycle `rest` is that cycle, so it lacks the company edge
    return "forbids edges that are not one cycle (or one cycle and one edge off it)"


def _not_alone(cycle: list[tuple[int, int]], edge_of: dict[tuple[int, int], int], problem: Any,
               puzzle: Any) -> str:
    """"" when the kind's checker rejects `cycle` as the whole solution; else why the cut is wrong."""
    ids = [edge_of[(u, v) if u < v else (v, u)] for u, v in cycle]
    try:
        solution = problem.solution(ids)
    except ValueError:  # the kind cannot even write it as an answer (a cycle missing vertices of a graph)
        return ""
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
