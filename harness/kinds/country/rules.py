"""Country Road's rules for the loop strategies: the loop on the cells using a border edge of every
region (`hits`), and per backend: exactly two border edges of each region on (in once, out once),
a numbered region's count of on-loop cells, no two off-loop cells beside each other across a border,
and cells of no region (`@`) off the loop.
"""

from __future__ import annotations

from typing import Any

from harness.kinds.country.model import CountryRoad
from harness.kinds.janko_loop import NO_REGION
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.gridrules import CnfKit, Edges, asp_cell, asp_ends, crossings, visiting


def _parts(puzzle: CountryRoad) -> tuple[Edges, dict, list, list]:
    """The edges, each region's border edges, the pairs across borders, the cells of no region."""
    edges = Edges(puzzle.rows, puzzle.cols)
    borders = crossings(edges, puzzle.areas)
    outside = borders.pop(NO_REGION, None) is not None
    pairs = sorted({tuple(sorted((a, b))) for group in borders.values() for a, b, _ in group
                    if puzzle.areas[b[0]][b[1]] != NO_REGION})
    none = [(r, c) for r, row in enumerate(puzzle.areas) for c, a in enumerate(row) if a == NO_REGION]
    assert outside == bool(none)
    return edges, borders, pairs, none


def loop_problem(puzzle: CountryRoad) -> LoopProblem:
    edges, borders, _, _ = _parts(puzzle)
    return visiting(puzzle.grid, borders)


def cpsat(puzzle: CountryRoad, m: Any) -> None:
    edges, borders, pairs, none = _parts(puzzle)
    for group in borders.values():
        m.model.add(sum(m.x[lit - 1] for _, _, lit in group) == 2)
    regions = puzzle.regions()
    for a, k in puzzle.numbers().items():
        m.model.add(sum(m.on[edges.vertex(c)] for c in regions[a]) == k)
    for a, b in pairs:
        m.model.add_bool_or([m.on[edges.vertex(a)], m.on[edges.vertex(b)]])
    for c in none:
        m.model.add(m.on[edges.vertex(c)] == 0)


def cnf(puzzle: CountryRoad, arrays: Any) -> list[list[int]]:
    edges, borders, pairs, none = _parts(puzzle)
    kit = CnfKit(arrays, edges)
    for group in borders.values():
        kit.count([lit for _, _, lit in group], 2)
    regions = puzzle.regions()
    for a, k in puzzle.numbers().items():
        kit.count([kit.on(c) for c in regions[a]], k)
    out = kit.clauses
    out += [edges.at(a) + edges.at(b) for a, b in pairs]  # some edge at one of the two is on
    out += [[-e] for c in none for e in edges.at(c)]
    return out


ASP_RULES = """
#defined border/3. #defined clue/2. #defined inside/2. #defined apart/2. #defined nowhere/1.
:- border(G,_,_), #count { U,V : border(G,U,V), on(U,V) } != 2.
:- clue(G,K), #count { X : inside(X,G), loop(X) } != K.
:- apart(X,Y), not loop(X), not loop(Y).
:- nowhere(X), loop(X).
"""


def asp(puzzle: CountryRoad) -> str:
    edges, borders, pairs, none = _parts(puzzle)
    ids = {a: n for n, a in enumerate(borders)}
    out = [f"border({ids[a]},{asp_ends(edges, lit)})." for a, group in borders.items()
           for _, _, lit in group]
    out += [f"inside({asp_cell(c)},{ids[a]})." for a, cells in puzzle.regions().items() for c in cells]
    out += [f"clue({ids[a]},{k})." for a, k in puzzle.numbers().items()]
    out += [f"apart({asp_cell(a)},{asp_cell(b)})." for a, b in pairs]
    out += [f"nowhere({asp_cell(c)})." for c in none]
    return "\n".join(out) + ASP_RULES
