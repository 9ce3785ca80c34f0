"""A loop kind's CNF on CaDiCaL with a connectivity propagator: cuts of two edges or fewer, during search.

The propagator's model and loop watch (`propagator`: paths of true edges, sub-cycles cut as they
close, every complete model checked), with `loop.connect` in front of it: on the graph H of the
edges not yet false, a required vertex cut off from the root or a bridge between required vertices
is a conflict, and the two edges of a 2-edge cut between required vertices are set true, each with
the cut less the other edge as its reason (a loop crosses such a cut an even number of times, at
least twice). `ratio=1` (default) searches H once the assignments since the last search reach its work
(vertices and edges visited) / 1, so the searches cost about what the assignments do; `all` searches
after every propagation that made an edge false (the two measured: results/graph/README.md).
`proof=true` logs a DRAT proof like `sat`'s: every clause either watch hands the solver (cuts,
conflicts, and reasons when the solver asks for them) is in the proof's CNF marked `c cut`, where
`harness.proof.cuts` judges it. Stats: the propagator's, and connect_searches, connect_work
(vertices and edges visited), connect_conflicts, connect_propagations, connect_reasons.
"""

from __future__ import annotations

from dataclasses import replace

from harness.options import Option
from harness.prooflog import CUT

from ._options import LOOP
from .cegar.model import Strategy
from .loop.connect import connect_watch, static_cut
from .loop.watch import loop_watch
from .propagator import Propagator
from .sat import Sat


def ratio(text: str) -> str:
    """The `ratio` option checked: `all` or a number above 0."""
    try:
        value = float("inf") if text == "all" else float(text)
    except ValueError:
        raise ValueError(f"option ratio: {text!r} is neither `all` nor a number") from None
    if not value > 0:
        raise ValueError(f"option ratio: {text!r} must be above 0")
    return text


class Connect(Propagator):
    """The propagator's options and parts, `loop.connect`'s watch in front of the loop watch."""

    name = "connect"
    # its helpers' clauses are recorded: `proof` is an option again, with `sat`'s rules
    fixed = {k: v for k, v in Propagator.fixed.items() if k != "proof"}
    declared = (*Propagator.declared, *(o for o in Sat.declared if o.name == "proof"),
                Option("ratio", "1", "search the edges not yet false once the assignments since the last "
                       "search reach its work / RATIO; all: after every propagation that made an edge false",
                       kinds=LOOP, check=ratio))

    @property
    def ratio(self) -> float:
        return float("inf") if self.options["ratio"] == "all" else float(self.options["ratio"])

    def strategy(self) -> Strategy:
        """The propagator's, and `unsat` before any solver when the graph itself has required vertices
        apart or a bridge between them (the clause would be empty: no solver's proof, the reason in the
        stats, as `loop.refuse` does for a vertex of degree 1)."""
        return replace(super().strategy(), check=static_cut)

    def attach(self, solver, problem, deadline, recorder=None):
        """The loop watch behind `loop.connect`'s, connected, its clauses recorded with `proof=true`."""
        opts = self.options
        watch = loop_watch(problem, opts["cuts"], deadline, opts["eager"], opts["components"])
        record = None if recorder is None else (lambda clause: recorder.add([clause], CUT))
        helper = connect_watch(problem, watch, self.ratio, record)
        solver.connect_propagator(helper)
        for var in range(1, problem.arrays.num_edges + 1):
            solver.observe(var)
        return helper
