"""The loop problem as CNF over one Boolean per edge, shared by the PySAT strategies.

Variable i + 1 is true when the loop uses edge i of the graph (`graph.edges[i]`, the numbering of
`loop.arrays`); there are no other variables. The clauses say everything but "one loop": every
vertex has degree 0 or 2 (direct clauses, no auxiliaries, made from the incidence arrays in bulk),
every required vertex lies on the loop, every `hits` group has an edge on it, and a problem with
neither asks for some edge, so the empty drawing is no answer; then the kind's local rules
(`rules.<kind>.cnf`, given the `LoopArrays`: `var` names an edge by its two cells, and the edge
numbering is plain index arithmetic). The degree clauses depend on the grid's shape alone, so they
are made once per shape in a process (kept with `LoopArrays.shape`) and shared: never change them.
"""

from __future__ import annotations

from typing import Any

from loopbench_encodings import rules
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.arrays import Clause, LoopArrays
from loopbench_encodings.loop.cuts import Cut


def degree_clauses(arrays: LoopArrays) -> list[Clause]:
    """Degree 0 or 2 at every vertex: no edge alone (`[-e] + others`), and no three edges together.

    Made once per grid shape and shared by every puzzle of that shape: the caller must not change it.
    """
    cache = arrays.shape.cache
    if "degree" not in cache:
        cache["degree"] = _degree_clauses(arrays.incident)
    return cache["degree"]  # type: ignore[return-value]


def _degree_clauses(incident) -> list[Clause]:
    out: list[Clause] = []
    add = out.extend
    for here in incident:
        if len(here) == 4:
            a, b, c, d = (i + 1 for i in here)
            add(([-a, b, c, d], [-b, a, c, d], [-c, a, b, d], [-d, a, b, c],
                 [-a, -b, -c], [-a, -b, -d], [-a, -c, -d], [-b, -c, -d]))
        elif len(here) == 3:
            a, b, c = (i + 1 for i in here)
            add(([-a, b, c], [-b, a, c], [-c, a, b], [-a, -b, -c]))
        elif len(here) == 2:
            a, b = (i + 1 for i in here)
            add(([-a, b], [-b, a]))
        elif here:
            out.append([-here[0] - 1])
    return out


def loop_clauses(puzzle: Any, problem: LoopProblem, implied: bool = False) -> list[Clause]:
    """Every clause of the module docstring, the kind's local rules last; `implied`: then the
    clauses its rules module gives as implied by them (`cnf_implied`, where it has one)."""
    arrays = problem.arrays
    out = list(degree_clauses(arrays))  # a copy: the shared list stays as it is
    out += [[i + 1 for i in arrays.incident[v]] for v in arrays.required]
    out += [[i + 1 for i in group] for group in arrays.hits]
    if not arrays.required and not arrays.hits:
        out.append(list(range(1, arrays.num_edges + 1)))
    module = rules.of(puzzle.kind)
    out += module.cnf(puzzle, arrays)
    if implied and hasattr(module, "cnf_implied"):
        out += module.cnf_implied(puzzle, arrays)
    return out


def cut_clause(arrays: LoopArrays, cut: Cut) -> Clause:
    """`forbid`: not all of these edges; `require`: one of these edges."""
    if cut.forbid:
        return [-arrays.var(*e) for e in cut.forbid]
    return [arrays.var(*e) for e in cut.require]
