"""The loop problem as an answer-set program for clingo, shared by every loop kind: facts, then rules.

Facts: `vertex(V)` for each vertex and `next(U,D,V)` (V is U's neighbour in direction D, one of
r u l d), vertices written as `(R,C)`. Rules: a choice `on(U,V)` per edge (U before V in
row-major order: V is right of or below U), `link` in both directions, `loop(V)` for a vertex
with an edge; every vertex on the loop has exactly two edges; `required(V)` vertices are on it;
every `hits` group (`hit(G,U,V)`) has an edge on; some vertex is on. One loop: every vertex on
the loop is reached from the root along chosen edges; `reach` is recursive, so clingo's
unfounded-set check refutes a sub-loop that holds no root, inside the solver. The root is the
smallest required vertex; with none, the smallest on-loop vertex in row-major order (`before`
along a chain of the vertices), so each answer has exactly one answer set.
Then the kind's local rules (`rules.<kind>.asp`) and one constraint per excluded answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from harness.grid import Cell, Edge
from loopbench_encodings import loop, rules
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.cuts import Cut

# The graph: a rows x cols grid (`loop.problem`'s graph is always one), written as rules, not facts.
GRID = """
vertex((R,C)) :- R = 0..rows-1, C = 0..cols-1.
next((R,C),r,(R,C+1)) :- vertex((R,C)), C+1 < cols.
next((R,C),d,(R+1,C)) :- vertex((R,C)), R+1 < rows.
next(V,l,U) :- next(U,r,V).
next(V,u,U) :- next(U,d,V).
"""

RULES = """
#defined required/1. #defined hit/3.
{ on(U,V) } :- next(U,r,V).
{ on(U,V) } :- next(U,d,V).
link(U,V) :- on(U,V).
link(V,U) :- on(U,V).
loop(V) :- link(V,_).
:- loop(V), #count { U : link(V,U) } != 2.
:- required(V), not loop(V).
used(G) :- hit(G,U,V), on(U,V).
:- hit(G,_,_), not used(G).
some :- loop(_).
:- not some.
reach(V) :- root(V).
reach(V) :- reach(U), link(U,V).
:- loop(V), not reach(V).
#show on/2.
"""

# With no required vertex: the root is the first on-loop vertex in row-major order.
FIRST_ON_LOOP = """
succ((R,C),(R,C+1)) :- vertex((R,C)), C+1 < cols.
succ((R,cols-1),(R+1,0)) :- vertex((R+1,0)).
before(V) :- succ(U,V), loop(U).
before(V) :- succ(U,V), before(U).
root(V) :- loop(V), not before(V).
"""


def term(v: Cell) -> str:
    return f"({v[0]},{v[1]})"


def atom(e: Edge) -> str:
    """The atom of an edge: `on((R1,C1),(R2,C2))`, its ends in canonical order."""
    a, b = sorted(e)
    return f"on({term(a)},{term(b)})"


def none_of(edges: Iterable[Edge]) -> str:
    """An integrity constraint: not every one of these edges is on."""
    return ":- " + ", ".join(atom(e) for e in edges) + "."


def cut_rule(cut: Cut) -> str:
    """A cut of `loop.cuts` as a rule: `forbid` not all on, `require` some on."""
    if cut.forbid:
        return none_of(cut.forbid)
    return ":- " + ", ".join(f"not {atom(e)}" for e in cut.require) + "."


def program(puzzle: Any, problem: LoopProblem, cuts: Iterable[Cut] = ()) -> str:
    """The whole program for `puzzle`: the loop problem's facts and rules, the kind's rules, the cuts."""
    grid = problem.graph
    out = [f"#const rows = {grid.rows}.", f"#const cols = {grid.cols}.", GRID]
    out += [f"required({term(v)})." for v in sorted(problem.required)]
    out += [f"hit({g},{term(a)},{term(b)})." for g, group in enumerate(problem.hits) for a, b in group]
    if problem.required:
        out.append(f"root({term(min(problem.required))}).")
    else:
        out.append(FIRST_ON_LOOP)
    out.append(RULES)
    out.append(rules.of(puzzle.kind).asp(puzzle))
    out += [cut_rule(cut) for cut in cuts]
    return "\n".join(out) + "\n"


def edges_of(symbols: Iterable[Any]) -> list[Edge]:
    """The edges named by the shown `on/2` atoms of a model."""
    def cell(t: Any) -> Cell:
        r, c = t.arguments
        return (r.number, c.number)

    return sorted((cell(s.arguments[0]), cell(s.arguments[1])) for s in symbols if s.name == "on")


def kinds() -> tuple[str, ...]:
    """The loop kinds whose rules module also writes its local rules in ASP."""
    return rules.kinds_with(*loop.RULES, "asp")
