"""The rebuild policies: a new solver, between solves, holding every clause and cut so far.

`colour=late`: on a grid, a run past COLOUR_AFTER conflicts a face (COLOUR_FLOOR at least) starts
again on a new solver holding the faces' colouring too (`loop.colour`): a solver whose search has
gone where the edges alone led it gains less from faces added to it. `restart=luby`: between rounds,
once the rounds since the solver started pass RESTART_ROUNDS times the next term of the Luby
sequence (Luby, Sinclair and Zuckerman 1993), a new solver takes the clauses in another seeded order
and CaDiCaL's next seed, since CaDiCaL's saved phases can give round after round nearly the same
model (docs/CEGAR.md, "Restarts"). Rounds, not conflicts: a long solve is never cut short, since the
solver restarts its own search. With a proof, the new solver's proof is of its own clauses, the cuts
and faces among them marked.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from harness.prooflog import CUT, FACE

from .._plain_sat import cadical_seed
from ..loop.colour import colour_clauses
from . import solvers

if TYPE_CHECKING:
    from .model import Run

# `colour=late` starts again with the faces after this many conflicts per face, and at least COLOUR_FLOOR
COLOUR_AFTER = 3
COLOUR_FLOOR = 4000
# `restart=luby`'s unit: a solver is replaced, between rounds, past this many rounds times the Luby term
# (docs/CEGAR.md, "Restarts", says how it was chosen)
RESTART_ROUNDS = 100


def colour_after(num_faces: int) -> int:
    """The conflicts after which `colour=late` brings in the faces of a graph with `num_faces`."""
    return max(COLOUR_FLOOR, int(COLOUR_AFTER * num_faces))


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ..."""
    k = i.bit_length()
    while (1 << k) - 1 != i:  # i is not 2^k - 1: the sequence repeats its first 2^(k-1) - 1 terms
        i -= (1 << (k - 1)) - 1
        k = i.bit_length()
    return 1 << (k - 1)


def add_faces(run: Run, conflicts: int) -> None:
    """`colour=late`, a hard one: a new solver holding the faces too and the cuts made so far."""
    stats = run.stats
    run.colour, stats["coloured_at"] = "on", stats["iterations"] + 1
    stats["conflicts_before_faces"], stats["variables"] = conflicts, run.top
    run.faces = colour_clauses(run.problem.graph, run.last)
    start_again(run, run.run_options)


def restart_due(run: Run) -> bool:
    """`restart=luby`: whether this solver's rounds have passed its Luby budget."""
    rounds = run.stats["iterations"] - run.started
    return run.restart and rounds >= luby(run.restarts + 1) * RESTART_ROUNDS


def restart(run: Run) -> None:
    """`restart=luby`: a new solver holding the clauses and the cuts so far, in the order of the next
    seed, CaDiCaL's seed the next too (a `seed` given in `cadical=` stays)."""
    run.restarts += 1
    run.stats["restarts"], run.started = run.restarts, run.stats["iterations"]
    seed = run.seed + run.restarts
    options = {**run.run_options}
    if run.options["solver"] == "cadical195" and "seed" not in run.strategy.cadical:
        options["seed"] = cadical_seed(seed)
    start_again(run, options, seed)


def start_again(run: Run, cadical_options: dict[str, int], shuffle: int | None = None) -> None:
    """Replace the solver by one holding every clause so far: the run's, the cuts and the faces' (once
    added), in the order of the seed `shuffle` if given; the old one's conflicts go to `spent`."""
    run.spent += run.solver.accum_stats()["conflicts"]
    run.solver.delete()
    if run.recorder is not None:  # the new solver's proof is of its own clauses
        run.recorder = run.recording()
        run.recorder.add(run.added, CUT)
        run.recorder.add(run.faces, FACE)  # marked: made again by harness.proof
    given = run.clauses + run.added + run.faces  # the order colour=late has always given
    if shuffle is not None:
        random.Random(shuffle).shuffle(given)
    faces = run.face_vars if run.colour == "on" else range(0)
    run.solver = solvers.start_solver(run.options, given, run.problem.arrays.num_edges,
                                      run.recorder is not None, run.stats, cadical_options, faces)
