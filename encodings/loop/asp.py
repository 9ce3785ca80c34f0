"""The loop problem as an answer-set program for clingo, shared by every loop kind: facts, then rules.

Facts: the graph. A graph with the grid capability (`shape`) is written as rules over `rows`
and `cols`: `vertex(V)` and `next(U,D,V)` (V is U's neighbour in direction D, one of r u l d; the
kinds' rules use the directions), vertices written as `(R,C)`, and `edge(U,V)` when V is right
of or below U; any other graph as facts `vertex(V)` and `edge(U,V)` (U < V, vertices numbered from 0).
Rules: a choice `on(U,V)` per edge, `link` in both directions, `loop(V)` for a vertex with an
edge; every vertex on the loop has exactly two edges; `required(V)` vertices are on it; every
`hits` group (`hit(G,U,V)`) has an edge on; some vertex is on. One loop: every vertex on the
loop is reached from the root along chosen edges; `reach` is recursive, so clingo's
unfounded-set check refutes a sub-loop that holds no root, inside the solver. The root is the
smallest required vertex; with none, the smallest on-loop vertex in vertex order (`before`
along a chain `succ` of the vertices), so each answer has exactly one answer set.
Then the kind's local rules (`rules.<kind>.asp`) and one constraint per cut or excluded answer
(a clause over the edges, `loop.cuts`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from loopbench_encodings import loop, rules
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.graph import LoopGraph

# A rows x cols grid, written as rules, not facts.
GRID = """
vertex((R,C)) :- R = 0..rows-1, C = 0..cols-1.
next((R,C),r,(R,C+1)) :- vertex((R,C)), C+1 < cols.
next((R,C),d,(R+1,C)) :- vertex((R,C)), R+1 < rows.
next(V,l,U) :- next(U,r,V).
next(V,u,U) :- next(U,d,V).
edge(U,V) :- next(U,r,V).
edge(U,V) :- next(U,d,V).
"""

# The vertices in order, for FIRST_ON_LOOP: a grid's row-major order, or any other graph's numbers.
GRID_CHAIN = """
succ((R,C),(R,C+1)) :- vertex((R,C)), C+1 < cols.
succ((R,cols-1),(R+1,0)) :- vertex((R+1,0)).
"""
NUMBER_CHAIN = """
succ(V,V+1) :- vertex(V), vertex(V+1).
"""

RULES = """
#defined required/1. #defined hit/3.
{ on(U,V) } :- edge(U,V).
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

# With no required vertex: the root is the first on-loop vertex along `succ`.
FIRST_ON_LOOP = """
before(V) :- succ(U,V), loop(U).
before(V) :- succ(U,V), before(U).
root(V) :- loop(V), not before(V).
"""


class Terms:
    """How the program names the vertices and edges of one loop graph: a grid's (its `shape`
    capability) as `(R,C)`, so the kinds' rules can use the directions, any other's by number."""

    def __init__(self, graph: LoopGraph) -> None:
        self.graph, self.shape = graph, graph.shape
        if self.shape is not None:
            cols = self.shape.cols
            self.vertex = [f"({v // cols},{v % cols})" for v in range(graph.num_vertices)]
        else:
            self.vertex = [str(v) for v in range(graph.num_vertices)]
        self.atom = [f"on({self.vertex[u]},{self.vertex[v]})" for u, v in graph.ends]

    def facts(self) -> list[str]:
        """The graph itself: rules for a grid, facts for any other graph."""
        graph, shape = self.graph, self.shape
        if shape is not None:
            return [f"#const rows = {shape.rows}.", f"#const cols = {shape.cols}.", GRID]
        out = [f"vertex(0..{graph.num_vertices - 1})."] if graph.num_vertices else []
        return out + [f"edge({u},{v})." for u, v in graph.ends]

    def chain(self) -> str:
        """The vertices in order, for FIRST_ON_LOOP: a grid's row-major, any other graph's numbers."""
        return GRID_CHAIN if self.shape is not None else NUMBER_CHAIN

    def clause_rule(self, clause: list[int]) -> str:
        """A cut or excluded answer (literal i + 1: edge i on) as an integrity constraint."""
        return ":- " + ", ".join(self.atom[-lit - 1] if lit < 0 else f"not {self.atom[lit - 1]}"
                                 for lit in clause) + "."

    def edges_of(self, symbols: Iterable[Any]) -> list[int]:
        """The edges (by index) named by the shown `on/2` atoms of a model."""
        index = {a: i for i, a in enumerate(self.atom)}
        return sorted(index[str(s)] for s in symbols if s.name == "on")


def program(puzzle: Any, problem: LoopProblem, clauses: Iterable[list[int]] = ()) -> str:
    """The whole program for `puzzle`: the loop problem's facts and rules, the kind's rules, the cuts."""
    terms = Terms(problem.graph)
    name = terms.vertex
    out = terms.facts()
    out += [f"required({name[v]})." for v in problem.required]
    out += [f"hit({g},{name[u]},{name[v]})." for g, group in enumerate(problem.hits)
            for u, v in (problem.graph.ends[i] for i in group)]
    if problem.required:
        out.append(f"root({name[min(problem.required)]}).")
    else:
        out += [terms.chain(), FIRST_ON_LOOP]
    out.append(RULES)
    out.append(rules.of(puzzle.kind).asp(puzzle))
    out += [terms.clause_rule(clause) for clause in clauses]
    return "\n".join(out) + "\n"


def kinds() -> tuple[str, ...]:
    """The loop kinds whose rules module also writes its local rules in ASP."""
    return rules.kinds_with(*loop.RULES, "asp")
