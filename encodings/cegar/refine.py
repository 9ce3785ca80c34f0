"""The refinement policies: what a model that is no answer teaches the solver, as clauses over its edges.

The model's chosen edges are split into loops and each wrong loop cut (`loop.cuts`, the family of
`cuts=loop|cutset|disc`). Before any cut, a complete loop beside wrong ones is tried as the answer by
itself (`alone=true`: the wrong loops often sit where no rule needs an edge, and cutting one exact
shape a round can take tens of thousands of rounds); `join=2opt|3opt` joins the model's loops along
graph edges into one (`loop.join`) and takes it if it is an answer. The published Hamiltonian-cycle
CEGAR's blocking (docs/CEGAR.md) replaces the model's own cuts where it applies: `join=merge` joins
the loops as far as 2-opt goes and cuts the loops left by their cut-sets, `directed=true` gives each
cut-set as an arc leaving it and one entering it (`loop.arcs.directed_cuts`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness.prooflog import CUT

from ..loop.arcs import directed_cuts_labelled
from ..loop.join import MOVES, join, merge_labelled
from .solvers import model_alone

if TYPE_CHECKING:
    from .model import Run


def cut(run: Run) -> tuple[list[int], list[list[int]]]:
    """The model's chosen edges and the cuts given to the solver (none: the chosen edges are the
    answer); a complete loop beside others is tried alone first (`alone`), then `join`."""
    solver, problem, stats, options = run.solver, run.problem, run.stats, run.options
    arrays = problem.arrays
    chosen = arrays.chosen(solver.get_model())
    moves = options["join"]
    # `merge` and `directed` first: where they apply, the model's own cuts would be made for nothing
    if (moves == "merge" or options["directed"] == "true") and (found := merged(run, chosen)) is not None:
        chosen, cuts = found
    else:
        cuts, whole = arrays.split(chosen, options["cuts"], options["components"])
        if whole and options["alone"] == "true":  # a complete loop beside others
            stats["tried_alone"] += 1
            if (edges := model_alone(solver, arrays.num_edges, whole)) is not None:
                chosen, cuts = edges, []
        if cuts and moves in MOVES and (edges := joined(solver, problem, chosen, moves, stats)) is not None:
            chosen, cuts = edges, []
    for clause in cuts:
        solver.add_clause(clause)
    if run.colour == "late" or run.restart:  # a new solver to come: it is given them
        run.added += cuts
    if run.recorder is not None:
        run.recorder.add(cuts, CUT)
    stats["cuts"] += len(cuts)
    return chosen, cuts


def joined(solver, problem, chosen: list[int], moves: str, stats: dict) -> list[int] | None:
    """`join`: the model's loops joined into one (`loop.join`), when that loop is an answer (`answer`);
    None otherwise."""
    arrays = problem.arrays
    loops = arrays.walk(chosen)
    if len(loops) < 2:
        return None
    stats["join_tried"] += 1
    edges = join(arrays, [vertices for vertices, _ in loops], moves)
    return None if edges is None else answer(solver, arrays, edges, stats)


def answer(solver, arrays, edges: list[int], stats: dict) -> list[int] | None:
    """One loop joined from a model's loops (`edges`), when it is an answer: it holds every demand
    and, tried alone (`model_alone`), the kind's rules (counted in `joined`); None otherwise."""
    vertices = {v for i in edges for v in arrays.ends[i]}
    if not arrays.complete(vertices, edges) or model_alone(solver, arrays.num_edges, [edges]) is None:
        return None
    stats["joined"] += 1
    return edges


def merged(run: Run, chosen: list[int]) -> tuple[list[int], list[list[int]]] | None:
    """`join=merge` and `directed=true`, the published CEGAR's blocking: the model's loops joined as
    far as 2-opt goes (`loop.join.merge`, with `merge`), then (edges, []) when one loop is left and
    it is an answer (as `joined`), else (chosen, the cut-set of each loop left: an edge leaving it,
    or with `directed` an arc leaving it and one entering it, `loop.arcs.directed_cuts`); None (the
    model's own cuts) when the model is one loop or none, or a loop left is no cut-set (it holds
    every required vertex or none)."""
    arrays, stats = run.problem.arrays, run.stats
    walked, where = arrays.labelled_walk(chosen)
    loops = [vertices for vertices, _ in walked]
    if len(loops) < 2:  # one loop (the answer or not) or none: the model's own cuts say which
        return None
    ids = list(range(len(loops)))
    if run.options["join"] == "merge":
        stats["join_tried"] += 1
        edges, left, where, ids = merge_labelled(arrays, loops, where)
        stats["merged"] += len(loops) - len(left)
        if edges is not None:
            edges = answer(run.solver, arrays, edges, stats)
            return None if edges is None else (edges, [])
        loops = left
    if not all(map(arrays.separates, loops)):
        return None
    if run.options["directed"] == "true":  # every vertex of a loop is labelled with it: one pass for all
        return chosen, directed_cuts_labelled(arrays, run.arcs_from, where, ids)
    return chosen, [[i + 1 for i in arrays.boundary(vertices)] for vertices in loops]
