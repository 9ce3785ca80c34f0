"""The clauses a run's encoding must have given its solver before any cut, made again from puzzle and options.

A proof's CNF is compared with these (`harness.proof.contents`): its `c edge` numbering, its
unmarked clauses (as a multiset: a seed only shuffles their order) and its `c face` clauses must be
exactly what the encoding's model code makes for this puzzle and these options. The clauses are
made by that same code (`loop.cnf.loop_clauses`, `loop.colour.colour_clauses`, the kinds' `rules`
modules): what a certificate trusts of the model is named in docs/FORMATS.md; what it rules out is
a CNF that differs from it (a clause added by hand, by a bug in the solve loop, or left over).
Options read: `implied` (the implied clauses), `colour` (`on`: faces among the base clauses;
`late`: faces may come later, marked `c face`) and `arcs` (`loop.arcs`' orientation); `fix` is
refused with proofs; the others change the search, not the clauses.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

Key = tuple[int, ...]


def key(clause: list[int]) -> Key:
    """A clause as compared: its literals sorted (the order inside a clause means nothing)."""
    return tuple(sorted(clause))


@dataclass
class Made:
    """`edges`: the `c edge` lines' ends, variable i + 1 first (none for a kind without a loop);
    `base`: the clauses given before any solve (exclusions apart); `faces`: what `colour=late` adds;
    `exclude(answer)`: the clause ruling out that answer, for a kind whose exclusions are its rules'."""

    edges: list[tuple[int, int]]
    base: Counter[Key]
    faces: Counter[Key] = field(default_factory=Counter)
    exclude: Any = None


def options_of(options: dict[str, Any] | None, encoding: str = "sat") -> dict[str, Any]:
    """The run's options over the defaults of the encoding that logged the proof, and its fixed settings:
    what its code read (`Encoding.take`; a row's options hold only those that applied to its kind)."""
    from harness import registry
    from harness.options import every_option

    cls = registry.encodings()[encoding]
    return {**every_option(cls), **cls.fixed, **(options or {})}


def made(puzzle: Any, options: dict[str, Any] | None = None, encoding: str = "sat") -> Made | None:
    """What the encoding's code gives the solver for `puzzle` with `options`; None for a kind it cannot.

    `sat`'s clauses (its subclasses' too) are made here; another encoding that logs proofs says what
    it gives its solver with a `proof_clauses(puzzle, options)` function of its class (`eager`), the
    same code its solve uses.
    """
    from harness import registry
    from loopbench_encodings import loop, rules
    from loopbench_encodings.sat import Sat

    options = options_of(options, encoding)
    cls = registry.encodings()[encoding]
    hook = getattr(cls, "proof_clauses", None)
    if hook is None and not issubclass(cls, Sat):
        return None
    if hook is not None:  # otherwise a subclass of `sat` (propagator, connect): sat's clauses, below
        if puzzle.kind not in loop.kinds():
            return None
        problem = loop.problem(puzzle)
        edges = [(problem.graph.number(u), problem.graph.number(v)) for u, v in problem.arrays.ends]
        return Made(edges, Counter(map(key, hook(puzzle, options))))
    if puzzle.kind in loop.kinds():
        return _loop(puzzle, options)
    from loopbench_encodings._plain_sat import PLAIN_RULES

    if puzzle.kind in rules.kinds_with(*PLAIN_RULES):
        return _plain(puzzle, rules.of(puzzle.kind))
    return None


def _loop(puzzle: Any, options: dict[str, Any]) -> Made:
    from loopbench_encodings import loop
    from loopbench_encodings.loop.arcs import arc_clauses
    from loopbench_encodings.loop.cnf import loop_clauses, num_variables
    from loopbench_encodings.loop.colour import colour_clauses

    problem = loop.problem(puzzle)
    graph = problem.graph
    base = loop_clauses(puzzle, problem, implied=options["implied"] == "true", keep=False)
    faces: list[list[int]] = []
    last = num_variables(problem.arrays)
    if graph.num_faces and options["colour"] in ("on", "late"):
        faces = colour_clauses(graph, last)
        if options["colour"] == "on":
            base, faces = base + faces, []
    if options.get("arcs", "false") != "false":  # numbered after a grid's faces, as `sat` numbers them
        first = last + graph.num_faces
        base += arc_clauses(problem.arrays, first, options["arcs"] == "asymmetry")[0]
    edges = [(graph.number(u), graph.number(v)) for u, v in problem.arrays.ends]
    return Made(edges, Counter(map(key, base)), Counter(map(key, faces)))


def _plain(puzzle: Any, module: Any) -> Made:
    from pysat.formula import IDPool

    pool = IDPool()
    base = module.cnf(puzzle, pool)

    def exclude(answer: str) -> Key:  # the rules' variables for the answer's cells, as the solve made them
        return key(module.cnf_exclude(puzzle, pool, answer))

    return Made([], Counter(map(key, base)), exclude=exclude)
