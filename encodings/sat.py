"""A loop kind as CNF on one incremental PySAT solver, with sub-loops cut lazily between solve() calls.

Model: one Boolean per edge and the clauses of `loop.cnf` (degree 0 or 2, required vertices,
the kind's local rules); variable i + 1 is edge i, so a model's chosen edges are its first E
literals. Single loop: solve, split the chosen edges into loops (`components=array` walks them
on integer arrays, `components=networkx` takes networkx's components as `lazy` does), add each
cut of `loop.cuts` as a clause (`cuts=loop` forbids a wrong loop's edges together; `cuts=cutset`
asks a loop holding some but not all required vertices for an edge leaving it; `cuts=disc` asks a
loop for an edge leaving its disc, the loop and what it encloses), and solve again
on the same solver object, so learnt clauses are kept; until one complete loop remains (sat) or
no model is left (unsat). `exclude`d answers become clauses.
Kinds without a loop (Walls, Marupeke) get one plain solve of their whole CNF (`_plain_sat`).
The parts (encodings/cegar/): `model` (clauses, numbering, first solver), `driver` (rounds of chunked
solve calls, then `refine`'s cuts), `rebuild` (`colour=late`, `restart`), `split` (`split=hubs`,
around the driver), `solvers`; this class holds the options. What each option below gave, measured,
is in results/performance/, results/reference-slither/ and results/graph/ (their READMEs).
`implied=true` (default) adds the clauses the kind's rules give as implied by them (`cnf_implied`:
Masyu's pearls; `loop.implied_clauses`: Slitherlink's, which every backend takes alike;
`implied=false` leaves them out).
`alone=true` (default): when a model holds a complete loop beside wrong ones, that loop is tried as
the answer by itself (`model_alone`: a solve assuming every edge, so propagation decides) before
any cut; the wrong loops often sit where no rule needs an edge, and cutting one exact shape a
round can take tens of thousands of rounds.
`colour=late` (default): on a grid, a run past COLOUR_AFTER conflicts a face (COLOUR_FLOOR at least)
starts again on a new solver holding the faces' colouring too (`loop.colour`: a Boolean per unit
square, inside or outside, each edge on exactly where its two faces differ) and the cuts made so far:
a solver whose search has gone where the edges alone led it gains less from faces added to it. The
faces are tried outside first, as the edges off. `colour=on` gives them from the start (their
clauses cost puzzles that need few conflicts, which `late` never starts again); `colour=off` never.
With `proof=true` the new solver's proof is of its own clauses, the cuts among them marked.
`phase=false` (default) makes the solver try edges off first: CaDiCaL's own phase (on) fills
empty regions with small loops, one cut each.
Backend: any PySAT solver that takes clauses after a solve and a conflict budget (default
`cadical195`); Kissat (aborts the process on a clause after a solve) and Lingeling (no
`solve_limited`) are refused. Deterministic: the same seed and options make the same search on any
machine under any load. Time limit: `conf_budget` + `solve_limited` chunks of a fixed number of
conflicts (`_plain_sat.chunk_budget`: 10,000 doubling to 40,000 within a round, never sized by the
clock), the CPU clock read between them only to stop. A non-zero seed shuffles the clause order, and
is CaDiCaL's `seed` option (stats: `cadical_seed`; a `seed` given in `cadical=` wins).
`cadical=KEY=INTEGER,...` sets CaDiCaL 1.9.5's options before its first clause (default empty:
CaDiCaL's own; a name CaDiCaL 1.9.5 does not have, or a value outside its range, is refused with
the list of its names: `_cadical`); `inprocessing=0,rephase=0` helps some kinds and hurts others,
so it is no default.
`cache=off` (default) makes the degree clauses for each puzzle, handed to the solver as they are
made (`loop.cnf.loop_clause_parts`: a dense graph's millions never held as Python lists, unless a
seed's shuffle, a proof or `colour=late` reads them again); `cache=degree` keeps them per grid
shape in the worker (a head start CP-SAT and clingo, which rebuild their models, never get). The
grid shape's arrays are shared by every strategy alike. `proof=true` (CaDiCaL 1.9.5 only) logs a
DRAT proof: on unsat the stats' `proof` holds it with the CNF of every clause the solver was given
(`harness.proof.record`; `harness.proof` checks both).
The published Hamiltonian-cycle CEGAR's options (docs/CEGAR.md; all off by default, each slower on
puzzles): `join=2opt|3opt` joins a model's loops along graph edges (`loop.join`) and takes the one
loop if it is an answer; `join=merge` (the published `2opt3`) joins them as far as 2-opt goes and cuts
the loops left (their cut-sets) instead of the model's own; `fix=true` adds `loop.fix`'s forced edges
as units (not with `proof=true`); `arcs=true` adds the arc model beside the edges (`loop.arcs`),
`arcs=asymmetry` with the published lowest-asymmetry clauses; `directed=true` (with arcs, not with
`proof=true`) gives each cut-set as the published blocking clauses, an arc leaving the set and one
entering it; `degree=free` (with arcs) makes the edge degree clauses at the vertices not required
only, as the published arc model has none: at a required vertex exactly one arc in and one out
already give degree 2 (`eager` does the same).
`restart=luby` (off by default): between rounds, once the rounds since the solver started pass
RESTART_ROUNDS times the next term of the Luby sequence (1, 1, 2, 1, 1, 2, 4, ...; Luby, Sinclair
and Zuckerman 1993), the run starts again on a new solver holding the clauses and every cut so far,
the clauses in another seeded order and CaDiCaL's seed the next (`seed` + restarts): CaDiCaL's
saved phases can give round after round nearly the same model, each one cut (docs/CEGAR.md,
"Restarts"). Rounds, not conflicts: a long solve is never cut short, since the solver restarts its
own search.
`split=hubs` (off by default): a graph whose hubs join blocks with few edges between them is solved on two
levels (`loop.split`): the edges between the blocks by a small SAT problem, each block by this strategy
with `split=off`, against the paths outside it; a graph that does not split so (or a run with `exclude`)
is solved whole, its stats' `parts` 0. Not with `proof=true`: its unsat rests on many solvers' answers.
Stats (times are CPU, `cpu_time`): build_s (clauses and solver set-up; `shape_reused` says whether
this run found its grid shape made), solver_cpu_s (inside solve calls), outside_cpu_s (reading
models, trying loops alone and cutting), tried_alone (rounds whose complete loops were tried alone),
join_tried and joined (rounds whose loops `join` tried, and made an answer), merged (loops `join=merge`
joined into others), fixed_on and fixed_off
(`fix`), coloured_at and conflicts_before_faces (the round and the conflicts where `colour=late`
started again), restarts (`restart`), and `rounds`: per round [solver_cpu_s, outside_cpu_s, cuts],
the first ROUNDS_KEPT.
Before each chunk the stats so far go to `limits.report`, so a run stopped past its limit keeps them.
"""

from __future__ import annotations

from typing import ClassVar

from harness.encoding import Encoding, Limits, Outcome
from harness.proof.record import refuse_unproved

from . import loop, rules
from ._cadical import parse as parse_cadical
from ._plain_sat import PLAIN_RULES, solve_plain
from .cegar.model import Strategy
from .cegar.split import solve_loop
from .loop.arrays import COMPONENTS
from .loop.cuts import CUT_FAMILIES
from .loop.join import MOVES

REFUSED = {
    "kissat404": "is not incremental: a clause added after solve() aborts the whole process",
    "lingeling": "has no solve_limited() in PySAT, so it cannot keep a time limit",
}
PHASES = ("false", "solver")
IMPLIED = ("false", "true")
CACHE = ("off", "degree")
PROOF = ("false", "true")
ALONE = ("false", "true")
COLOUR = ("off", "on", "late")
JOIN = ("false", *MOVES, "merge")
DIRECTED = ("false", "true")
FIX = ("false", "true")
ARCS = ("false", "true", "asymmetry")
DEGREE = ("all", "free")
RESTART = ("off", "luby")
SPLIT = ("off", "hubs")


class Sat(Encoding):
    name = "sat"
    # the loop kinds, and the kinds without a loop whose rules module gives a whole CNF (_plain_sat)
    puzzles = loop.kinds() + rules.kinds_with(*PLAIN_RULES)
    excludes = True
    defaults = {"solver": "cadical195", "cuts": "loop", "phase": "false", "components": "array",
                "implied": "true", "cache": "off", "proof": "false", "alone": "true",
                "colour": "late", "cadical": "", "join": "false", "fix": "false", "arcs": "false",
                "directed": "false", "degree": "all", "restart": "off", "split": "off"}
    choices = {"cuts": CUT_FAMILIES, "phase": PHASES, "components": COMPONENTS, "implied": IMPLIED,
               "cache": CACHE, "proof": PROOF, "alone": ALONE, "colour": COLOUR, "join": JOIN, "fix": FIX,
               "arcs": ARCS, "directed": DIRECTED, "degree": DEGREE, "restart": RESTART, "split": SPLIT}
    imports = ("pysat.solvers", "networkx")
    allowed_solvers: ClassVar[tuple[str, ...] | None] = None  # None: any PySAT solver not in REFUSED
    cadical_options: dict[str, int]  # the `cadical` option read: CaDiCaL 1.9.5's settings (`new_solver`)
    # False: a helper's clauses never reach the proof's recorder, so `proof=true` is refused (propagator)
    logs_proof: ClassVar[bool] = True

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.options["solver"] = self._solver_name(self.options["solver"])
        self.cadical_options = parse_cadical(self.options["cadical"])
        if self.options["proof"] == "true":
            refuse_unproved(self.options["solver"])
            if not self.logs_proof:  # clauses never recorded
                raise ValueError(f"encoding {self.name!r} cannot log a proof (proof=true is for sat)")
            if self.options["fix"] == "true":  # a forced path's closing edge off is no cut the checker knows
                raise ValueError("proof=true cannot be given with fix=true")
            if self.options["directed"] == "true":  # the checker's cuts are over edges
                raise ValueError("proof=true cannot be given with directed=true")
            if self.options["split"] != "off":  # its unsat rests on many solvers' answers
                raise ValueError("proof=true cannot be given with split=hubs")
        if self.options["directed"] == "true" and self.options["arcs"] == "false":
            raise ValueError("directed=true cuts over the arcs: it needs arcs=true or arcs=asymmetry")
        if self.options["degree"] == "free":
            if self.options["arcs"] == "false":  # nothing else would hold a required vertex to degree 2
                raise ValueError("degree=free leaves degree 2 at required vertices to the arcs: it needs "
                                 "arcs=true or arcs=asymmetry")
            if self.options["cache"] == "degree":
                raise ValueError("degree=free makes the degree clauses per puzzle: not with cache=degree")

    def _solver_name(self, wanted: str) -> str:
        """The canonical PySAT name for `wanted` (aliases like `cd19` allowed); refuses unusable ones."""
        from pysat.solvers import SolverNames

        names = {k: v for k, v in vars(SolverNames).items() if not k.startswith("_")}
        name = next((k for k, aliases in names.items() if wanted.lower() in (k, *aliases)), None)
        if name is None:
            raise ValueError(f"unknown PySAT solver {wanted!r} (known: {', '.join(sorted(names))})")
        if name in REFUSED:
            raise ValueError(f"encoding {self.name!r} cannot use {name}: it {REFUSED[name]}")
        if self.allowed_solvers is not None and name not in self.allowed_solvers:
            raise ValueError(
                f"encoding {self.name!r} needs a solver with external propagators "
                f"({', '.join(self.allowed_solvers)}), not {name}"
            )
        return name

    def solve(self, puzzle, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        """The CEGAR loop (`cegar.driver`, wrapped by `cegar.split`) until one complete loop or none; a kind
        without a loop: one plain solve (`_plain_sat`)."""
        if puzzle.kind not in loop.kinds():
            return solve_plain(rules.of(puzzle.kind), puzzle, limits, seed, exclude, self.options["solver"],
                               proof=self.options["proof"] == "true")
        return solve_loop(Strategy(self.options, self.cadical_options), puzzle, limits, seed, exclude)
