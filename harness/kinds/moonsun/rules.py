"""Moon or Sun's rules for the loop strategies: the loop on the cells using a border edge of every
region (`hits`), and per backend: exactly two border edges of each region on, a Boolean per region
(a sun region: the loop passes all its suns and no moon; else all its moons and no sun), the
regions at the two ends of an on border edge of different kinds, and every region passing a symbol.
"""

from __future__ import annotations

from typing import Any

from harness.kinds.moonsun.model import MOON, SUN, MoonSun
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.gridrules import CnfKit, Edges, asp_cell, asp_ends, crossings, visiting


def _parts(puzzle: MoonSun) -> tuple[Edges, dict, list]:
    """The edges, each region's border edges, and each border edge once as (region, region, literal)."""
    edges = Edges(puzzle.rows, puzzle.cols)
    borders = crossings(edges, puzzle.areas)
    area = puzzle.areas
    across = sorted({(area[a[0]][a[1]], area[b[0]][b[1]], lit) for group in borders.values()
                     for a, b, lit in group if a < b})
    return edges, borders, across


def loop_problem(puzzle: MoonSun) -> LoopProblem:
    _, borders, _ = _parts(puzzle)
    return visiting(puzzle.grid, borders)


def _symbols(puzzle: MoonSun) -> list[tuple[str, tuple[int, int], bool]]:
    """Each symbol as (its region, its cell, whether it is a sun)."""
    return [(puzzle.areas[r][c], (r, c), t == SUN) for (r, c), t in puzzle.clues().items()
            if t in (MOON, SUN)]


def cpsat(puzzle: MoonSun, m: Any) -> None:
    edges, borders, across = _parts(puzzle)
    sun = {a: m.model.new_bool_var(f"sun{a}") for a in borders}
    for group in borders.values():
        m.model.add(sum(m.x[lit - 1] for _, _, lit in group) == 2)
    for a, cell, is_sun in _symbols(puzzle):
        on = m.on[edges.vertex(cell)]
        m.model.add(on == sun[a]) if is_sun else m.model.add(on + sun[a] == 1)
    for a, b, lit in across:
        m.model.add_bool_or([~m.x[lit - 1], sun[a], sun[b]])
        m.model.add_bool_or([~m.x[lit - 1], ~sun[a], ~sun[b]])
    for cells in puzzle.regions().values():  # the loop passes some symbol of every region
        m.model.add_bool_or([m.on[edges.vertex(c)] for c in cells if puzzle.token(c) != "-"])


def cnf(puzzle: MoonSun, arrays: Any) -> list[list[int]]:
    edges, borders, across = _parts(puzzle)
    kit = CnfKit(arrays, edges)
    first = kit.new(len(borders))
    sun = {a: first + n for n, a in enumerate(borders)}
    for group in borders.values():
        kit.count([lit for _, _, lit in group], 2)
    out = kit.clauses
    for a, cell, is_sun in _symbols(puzzle):
        on, s = kit.on(cell), sun[a]
        out += [[-s, on], [s, -on]] if is_sun else [[s, on], [-s, -on]]
    for a, b, lit in across:
        out += [[-lit, sun[a], sun[b]], [-lit, -sun[a], -sun[b]]]
    for cells in puzzle.regions().values():
        out.append([e for c in cells if puzzle.token(c) != "-" for e in edges.at(c)])
    return out


ASP_RULES = """
#defined border/3. #defined symbol/3. #defined across/4.
region(G) :- border(G,_,_).
{ sun(G) } :- region(G).
:- region(G), #count { U,V : border(G,U,V), on(U,V) } != 2.
:- symbol(X,G,sun), sun(G), not loop(X).
:- symbol(X,G,sun), not sun(G), loop(X).
:- symbol(X,G,moon), not sun(G), not loop(X).
:- symbol(X,G,moon), sun(G), loop(X).
:- across(G,H,U,V), on(U,V), sun(G), sun(H).
:- across(G,H,U,V), on(U,V), not sun(G), not sun(H).
passes(G) :- symbol(X,G,_), loop(X).
:- region(G), not passes(G).
"""


def asp(puzzle: MoonSun) -> str:
    edges, borders, across = _parts(puzzle)
    ids = {a: n for n, a in enumerate(borders)}
    out = [f"border({ids[a]},{asp_ends(edges, lit)})." for a, group in borders.items()
           for _, _, lit in group]
    out += [f"symbol({asp_cell(c)},{ids[a]},{'sun' if s else 'moon'})." for a, c, s in _symbols(puzzle)]
    out += [f"across({ids[a]},{ids[b]},{asp_ends(edges, lit)})." for a, b, lit in across]
    return "\n".join(out) + ASP_RULES
