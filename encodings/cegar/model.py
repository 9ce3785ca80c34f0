"""A loop run's model and state: the clauses `sat`'s options give, numbered, on a first solver.

The model is `loop.cnf`'s (an edge a Boolean, variable i + 1 edge i; degree 0 or 2, required vertices,
the kind's rules and, with `implied`, the clauses they imply), then the faces' colouring on a grid
(`loop.colour`, from the start with `colour=on`), the arc model (`loop.arcs`, `arcs=true|asymmetry`),
`loop.fix`'s forced edges as units (`fix=true`), what a graph's small cuts imply (`loop.smallcuts`,
`smallcuts=true`) and one clause per excluded answer. Every clause is
kept in one list only where it is read again (a seed's shuffle, a proof, a new solver under
`colour=late` or `restart`); otherwise the solver reads the degree clauses as they are made, and a
dense graph's millions are never held as Python lists. `Run` holds what a new solver is made of and
what the stats keep, across the driver's solves.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from harness.encoding import UNSAT, Outcome, cpu_time
from harness.prooflog import Recorder

from .._plain_sat import cadical_seed
from ..loop.arcs import arc_clauses
from ..loop.cnf import loop_clause_parts, num_variables
from ..loop.colour import colour_clauses
from ..loop.cuts import exclusion
from ..loop.fix import fixed_edges
from ..loop.smallcuts import small_cuts
from . import solvers
from .rebuild import colour_after
from .solvers import edge_names


@dataclass(frozen=True)
class Strategy:
    """A loop strategy made of the driver's parts: its options and what it adds to the search."""

    options: dict[str, Any]  # the encoding's options, resolved
    cadical: dict[str, int]  # the `cadical` option read: CaDiCaL 1.9.5's settings (`solvers.new_solver`)
    # connects a helper (an IPASIR-UP propagator) to the first solver: (solver, problem, deadline,
    # recorder) -> the helper, with `stats()` (added to the run's, its `cuts` to the total) and
    # `out_of_time()` (past the deadline it ended the solve call with the empty clause). None: no helper.
    attach: Callable[[Any, Any, float, Recorder | None], Any] | None = None
    # True: `conf_budget` + `solve_limited` chunks, the clock read between them; False: one solve() a
    # round, the helper reading the clock (conflict budgets sized by time make the search depend on it)
    chunked: bool = True
    check: Callable[[Any], str] | None = None  # (problem) -> an unsat reason before any clause, or ""


@dataclass
class Run:
    """One loop run's state across its solves: what a new solver is made of, and what the stats keep."""

    strategy: Strategy
    problem: Any
    clauses: list[list[int]] | None  # every clause before any cut where it is read again (`build`), else None
    excluded: list[list[int]]
    colour: str  # `late` until the faces come in (`rebuild.add_faces`), then `on`
    restart: bool  # `restart=luby`: a new solver may start between rounds, so the cuts are kept in `added`
    seed: int
    colour_after: int
    face_vars: range
    last: int  # the last variable of `loop.cnf`'s
    top: int  # the last of the edges', counters', faces' and arcs'
    arcs_from: int  # the arc variables are numbered from arcs_from + 1 (`loop.arcs`; with arcs=false, unused)
    run_options: dict[str, int]  # CaDiCaL's settings for this run, its seed among them
    solver: Any = None
    recorder: Recorder | None = None
    helper: Any = None  # what the strategy's `attach` connected (a propagator), or None
    stats: dict[str, Any] = field(default_factory=dict)
    added: list[list[int]] = field(default_factory=list)  # every cut so far, for a new solver
    faces: list[list[int]] = field(default_factory=list)  # the faces' clauses, once `colour=late` added them
    # [solver_cpu_s, outside_cpu_s, cuts] of the first ROUNDS_KEPT
    rounds: list[list] = field(default_factory=list)
    spent: int = 0  # the conflicts of the solvers before this one
    started: int = 0  # the round this solver started at
    restarts: int = 0
    # where a search stopped at its deadline (`driver.search`), for the one that resumes it: the round's
    # solve calls so far (they size the next one's budget) and 1 when that round was counted unfinished
    calls: int = 0
    partial: int = 0

    @property
    def options(self) -> dict[str, Any]:
        return self.strategy.options

    def recording(self) -> Recorder:
        """The proof of a new solver given `clauses`, the exclusions marked."""
        made = Recorder(edge_names(self.problem))
        made.add(self.clauses, marked=self.excluded)
        return made


def build(strategy: Strategy, puzzle, problem, seed: int, exclude: tuple[str, ...], start: float
          ) -> Run | Outcome:
    """The first solver and the run's state: the clauses of the module docstring for the options, the
    variables numbered (edges and `loop.cnf`'s, faces, arcs), the exclusions, a seed's shuffle, the
    proof's recorder; `unsat` when `fix=true` finds the graph has no loop."""
    options = strategy.options
    run_options = dict(strategy.cadical)
    if options["solver"] == "cadical195":
        run_options.setdefault("seed", cadical_seed(seed))
    arrays = problem.arrays
    degree, clauses = loop_clause_parts(puzzle, problem, implied=options["implied"] == "true",
                                        keep=options["cache"] == "degree",
                                        free_only=options["degree"] == "free")
    graph, last = problem.graph, num_variables(arrays)
    colour, after, face_vars = "off", 0, range(0)
    if graph.num_faces:  # a graph drawn with faces (a grid's unit squares), numbered after the edges
        colour, after = options["colour"], colour_after(graph.num_faces)
        face_vars = range(last + 1, last + 1 + graph.num_faces)
    if colour == "on":
        clauses += colour_clauses(graph, last)
    top = last + len(face_vars)  # the last variable of edges, counters and faces
    arcs_from = top
    if options["arcs"] != "false":  # numbered after the faces, which `colour=late` may add
        oriented, top = arc_clauses(arrays, arcs_from, options["arcs"] == "asymmetry")
        clauses += oriented
    if options["fix"] == "true":
        fixed = fixed_edges(problem)
        if fixed.reason:
            return Outcome(UNSAT, stats={"build_s": cpu_time() - start, "iterations": 0, "cuts": 0,
                                         "reason": fixed.reason})
        clauses += fixed.units()
    if options["smallcuts"] == "true":
        cut = small_cuts(problem)
        if cut.reason:
            return Outcome(UNSAT, stats={"build_s": cpu_time() - start, "iterations": 0, "cuts": 0,
                                         "reason": cut.reason, **cut.stats()})
        clauses += cut.clauses
    excluded = [exclusion(problem, solution) for solution in exclude]
    clauses += excluded
    restart = options["restart"] != "off"
    kept = None
    if seed or options["proof"] == "true" or colour == "late" or restart:
        kept = [*chain.from_iterable(degree), *clauses]
        if seed:
            random.Random(seed).shuffle(kept)
    given = kept if kept is not None else chain(chain.from_iterable(degree), clauses)
    run = Run(strategy, problem, kept, excluded, colour, restart, seed, after, face_vars, last, top,
              arcs_from, run_options)
    run.recorder = run.recording() if options["proof"] == "true" else None
    stats = run.stats = {"solver": options["solver"], "iterations": 0,
                         "variables": top if colour == "on" or options["arcs"] != "false" else last,
                         "cuts": 0, "chunks": 0, "solver_cpu_s": 0.0, "outside_cpu_s": 0.0,
                         "tried_alone": 0, "join_tried": 0, "joined": 0, "merged": 0,
                         "shape_reused": arrays.shape_reused}
    if "seed" in run_options:
        stats["cadical_seed"] = run_options["seed"]
    if options["fix"] == "true":
        stats["fixed_on"], stats["fixed_off"] = len(fixed.on), len(fixed.off)
    if options["smallcuts"] == "true":
        stats.update(cut.stats())
    if restart:
        stats["restarts"] = 0
    faces = face_vars if colour == "on" else range(0)
    run.solver = solvers.start_solver(options, given, arrays.num_edges, run.recorder is not None, stats,
                                      run_options, faces)
    return run
