"""A loop kind's CNF on CaDiCaL with an IPASIR-UP external propagator that cuts sub-loops during search.

Model: the edge variables and clauses of `loop.cnf`, as in `sat`. Single loop: `loop.watch` observes
every edge variable and keeps the true edges as paths. `eager=propagate` (default) sets false the
edge between a path's two ends when closing the path there would make a wrong loop (a required
vertex off it, a `hits` group missed, true edges besides it), with the reason [-edge, -path edges]
(valid for every answer: an answer holding a cycle is that cycle), and cuts closed cycles without a
required vertex; `eager=pearlfree` only cuts those; `eager=all` cuts every wrong cycle as it closes
(it is lost in near-copies of long loops missing a pearl on some janko puzzles, and cutting the
pearl-holding ones under `propagate` has a long tail: results/reference/README.md). `check_model`
cuts every wrong complete model (`components=array|networkx`, `cuts=loop|cutset` as in `sat`), always
with a clause. Solvers:
cadical195 (option `cadical`, default `vivify=0,probe=0`: CaDiCaL options KEY=INTEGER, comma-separated,
set before the first clause; vivification and probing off, see `cadical_options`; empty: CaDiCaL's own
defaults), cadical300, minisatep, ergo. Time limit:
the watch reads the clock in `propagate()` and, past the deadline, hands over the empty clause, which
ends the one solve() call (conflict budgets sized by the clock made runs differ; an exception raised
from a callback left CaDiCaL searching with empty reasons, a SIGSEGV: `loop.watch`).
Stats: propagations, reasons (asked by the solver), assignments, cycles_seen, check_model_calls,
callback_cpu_s (CPU in the Python callbacks, part of solver_cpu_s; on_assignment's, propagate's and
on_backtrack's estimated from 1 call in `loop.watch.SAMPLE` timed).
"""

from __future__ import annotations

from harness.encoding import Limits, Outcome
from harness.options import Option, amend

from . import loop
from ._options import LOOP, REQUIRED
from .cegar.model import Strategy
from .cegar.split import solve_loop
from .loop.watch import EAGER, loop_watch
from .sat import ON_GRAPHS, Sat, solver_name

SOLVERS = ("cadical195", "cadical300", "minisatep", "ergo")  # the PySAT solvers with external propagators


class Propagator(Sat):
    """`sat`'s options (declared there, with `eager`), and the CEGAR driver with the watch as its helper."""

    name = "propagator"
    puzzles = loop.kinds()
    imports = (*Sat.imports, "pysat.engines")
    # `sat`'s options less those this one solve with the watch never reads: `join`, `directed`, `alone`
    # and `restart` work on a model's loops between solves, which the watch cuts inside its one solve;
    # `proof`: its helper's clauses are not recorded (`connect` records them)
    fixed = {"join": "false", "directed": "false", "alone": "true", "restart": "off", "proof": "false"}
    declared = (*amend(
        Sat.declared, drop=tuple(fixed),
        solver={"check": lambda name: solver_name(name, SOLVERS, "propagator"), "choices": None},
        # the watch cuts cycles as they close, before their disc is known: `disc` is for whole models
        # and cutset acts on a loop holding required vertices only (REQUIRED)
        cuts={"choices": ("loop", "cutset"), "idle": (), "kinds": REQUIRED},
        components={"idle": ()},
        # CaDiCaL 1.9.5's in-processing with a connected propagator can loop: no assignment, no
        # propagate() call (so no clock reading), memory growing ~20 MB/s. Vivification did it on
        # masyu-100x100-s2026-002 with implied=false (no answer in 100 s; 1.9 s without it), probing
        # (which vivifies too) on masyu-200x200-s2026-001 (8-10 s without). Known upstream: in-
        # processing moves levels behind an external propagator's back (arminbiere/cadical#92).
        # What turning both off costs: results/performance/README.md.
        cadical={"default": "vivify=0,probe=0"},
        # `colour=late` starts a new solver, which the watch would have to follow: faces from the start or
        # none
        colour={"default": "off", "choices": ("off", "on")},
        # no defaults per kind: `sat`'s on graphs were measured for `sat`'s search
        **{k: {"by_kind": {}} for k in ON_GRAPHS.keys() - fixed.keys()}),
        Option("eager", "propagate", "what the watch cuts as paths close: propagate (an edge that would "
               "close a wrong loop set false), pearlfree (only cycles without a required vertex), all (every "
               "wrong cycle)", EAGER, LOOP))

    def solve(self, puzzle, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        """The driver (`cegar`), one solve() a round with the watch connected: propagate() reads the clock."""
        return solve_loop(self.strategy(), puzzle, limits, seed, exclude)

    def strategy(self) -> Strategy:
        return Strategy(self.options, self.cadical_options, attach=self.attach, chunked=False)

    def attach(self, solver, problem, deadline, recorder=None):
        """The watch (`loop.watch`), connected to the solver and observing every edge variable."""
        opts = self.options
        watch = loop_watch(problem, opts["cuts"], deadline, opts["eager"], opts["components"])
        solver.connect_propagator(watch)
        for var in range(1, problem.arrays.num_edges + 1):
            solver.observe(var)
        return watch
