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
The steps: `build` (clauses, numbering, first solver), `search` (rounds of `chunk`ed solve calls,
then `cut`), `add_faces` (`colour=late`), `finish` (stats). What each option below gave, measured,
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
(`harness.prooflog`; `harness.proof` checks both).
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

import random
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import chain, repeat
from typing import Any, ClassVar

from harness.encoding import SAT, UNKNOWN, UNSAT, Encoding, Limits, Outcome, cpu_time
from harness.options import Option, by_kind
from harness.prooflog import PROOF_SOLVERS, Recorder

from . import loop, rules
from ._cadical import parse as parse_cadical
from ._options import FACES, GRAPH, LOOP, PUZZLES, implied
from ._plain_sat import PLAIN_RULES, cadical_seed, chunk_budget, solve_plain
from .loop.arcs import arc_clauses, directed_cuts
from .loop.arrays import COMPONENTS
from .loop.cnf import loop_clause_parts, num_variables
from .loop.colour import colour_clauses
from .loop.cuts import CUT_FAMILIES, exclusion
from .loop.fix import fixed_edges
from .loop.join import MOVES, join, merge
from .loop.split import Split, parts

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
# `colour=late` starts again with the faces after this many conflicts per face, and at least COLOUR_FLOOR
COLOUR_AFTER = 3
COLOUR_FLOOR = 4000
ALONE_BUDGET = 1000  # conflicts for a complete loop tried alone: every edge is assumed, so it propagates
ROUNDS_KEPT = 1000  # per-round figures kept in the stats; a run of 20 000 rounds keeps its totals only
# `restart=luby`'s unit: a solver is replaced, between rounds, past this many rounds times the Luby term
# (docs/CEGAR.md, "Restarts", says how it was chosen)
RESTART_ROUNDS = 100


# `sat` on a graph: the best configuration measured there, the CEGAR configuration with `split=hubs` (its
# commands and sets: results/fhcp/README.md, "On 100 FHCP graphs outside fhcp-sample" and "`split=hubs` on the
# graphs that split"); its `cuts=cutset` is idle there (MERGED)
ON_GRAPHS = {"arcs": "true", "phase": "solver", "directed": "true", "join": "merge", "fix": "true",
             "split": "hubs"}
# `join=merge` and `directed=true` cut the loops merged (`Sat.merged`): on a graph every loop of a model of
# several separates, so `cuts` and `components` are never read there
MERGED = {"join": ("merge",), "directed": ("true",)}


def solver_name(wanted: str, allowed: tuple[str, ...] | None = None, encoding: str = "sat") -> str:
    """The canonical PySAT name for `wanted` (aliases like `cd19` allowed); refuses unusable ones, and with
    `allowed`, any other."""
    from pysat.solvers import SolverNames

    names = {k: v for k, v in vars(SolverNames).items() if not k.startswith("_")}
    name = next((k for k, aliases in names.items() if wanted.lower() in (k, *aliases)), None)
    if name is None:
        raise ValueError(f"unknown PySAT solver {wanted!r} (known: {', '.join(sorted(names))})")
    if name in REFUSED:
        raise ValueError(f"encoding {encoding!r} cannot use {name}: it {REFUSED[name]}")
    if allowed is not None and name not in allowed:
        raise ValueError(f"encoding {encoding!r} needs a solver with external propagators "
                         f"({', '.join(allowed)}), not {name}")
    return name


def cadical_text(text: str) -> str:
    """The `cadical` option, refused here when CaDiCaL 1.9.5 would not take it (`_cadical.parse`)."""
    parse_cadical(text)
    return text


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ..."""
    k = i.bit_length()
    while (1 << k) - 1 != i:  # i is not 2^k - 1: the sequence repeats its first 2^(k-1) - 1 terms
        i -= (1 << (k - 1)) - 1
        k = i.bit_length()
    return 1 << (k - 1)


def new_solver(name: str, clauses: Iterable[list[int]], cadical_options: dict[str, int] | None = None,
               with_proof: bool = False):
    """A PySAT solver `name` holding these clauses (any iterable, read once), as `Solver(name,
    bootstrap_with=clauses)` makes it.

    For CaDiCaL 1.9.5 the clauses go straight to the C function PySAT's own `add_clause` calls, without
    PySAT's loop around it (a type check and two method calls per clause; what it cost:
    results/performance/README.md). That function always answers True, so PySAT's `status`, which
    `add_clause` sets only on False, stays right; `cadical_options` are set first (CaDiCaL takes them only
    before any clause). Other solvers are bootstrapped by PySAT (some set options after the bootstrap).
    `with_proof`: CaDiCaL traces DRAT from its start, so clauses added by that C function are in the proof
    as with PySAT's `add_clause`.
    """
    from pysat.solvers import Solver

    if name != "cadical195":
        return Solver(name=name, bootstrap_with=clauses, with_proof=with_proof)
    from pysolvers import cadical195_add_cl as add

    solver = Solver(name=name, with_proof=with_proof)
    if cadical_options:
        solver.solver.configure(cadical_options)
    # map() rather than a loop: the Python around each call is a tenth of the hand-over
    deque(map(add, repeat(solver.solver.cadical), clauses), maxlen=0)
    return solver


def model_alone(solver, num_edges: int, whole: list[list[int]]) -> list[int] | None:
    """The first of these complete loops (each its edges) that is a model by itself, or None.

    Each is tried by a solve assuming its edges on and every other edge off, so propagation decides
    it; the learnt clauses such a solve leaves follow from the clauses alone, as every learnt clause does.
    """
    for edges in whole:
        assumptions = list(range(-1, -num_edges - 1, -1))
        for i in edges:
            assumptions[i] = i + 1
        solver.conf_budget(ALONE_BUDGET)
        if solver.solve_limited(assumptions=assumptions):
            return sorted(edges)
    return None


def edge_names(problem) -> list[tuple[int, int]]:
    """Each edge variable's ends as the kind numbers its vertices (a grid: row-major index from 0; a
    graph: its 1-based vertex numbers): what a proof's `c edge` lines say, and `harness.proof.cuts` reads."""
    number = problem.graph.number
    return [(number(u), number(v)) for u, v in problem.arrays.ends]


@dataclass
class Run:
    """One loop run's state across its solves: what a new solver is made of, and what the stats keep."""

    problem: Any
    clauses: list[list[int]] | None  # every clause before any cut where it is read again (`build`), else None
    excluded: list[list[int]]
    colour: str  # `late` until the faces come in (`add_faces`), then `on`
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
    helper: Any = None  # what `attach` connected (a propagator), or None
    stats: dict[str, Any] = field(default_factory=dict)
    added: list[list[int]] = field(default_factory=list)  # every cut so far, for a new solver
    faces: list[list[int]] = field(default_factory=list)  # the faces' clauses, once `colour=late` added them
    # [solver_cpu_s, outside_cpu_s, cuts] of the first ROUNDS_KEPT
    rounds: list[list] = field(default_factory=list)
    spent: int = 0  # the conflicts of the solvers before this one
    started: int = 0  # the round this solver started at
    restarts: int = 0

    def recording(self) -> Recorder:
        """The proof of a new solver given `clauses`, the exclusions marked."""
        made = Recorder(edge_names(self.problem))
        made.add(self.clauses, marked=self.excluded)
        return made


class Sat(Encoding):
    name = "sat"
    # the loop kinds, and the kinds without a loop whose rules module gives a whole CNF (_plain_sat)
    puzzles = loop.kinds() + rules.kinds_with(*PLAIN_RULES)
    excludes = True
    declared = by_kind("graph", ON_GRAPHS, (
        Option("solver", "cadical195", "the PySAT solver: any that takes clauses after a solve and a "
               "conflict budget (aliases such as cd19 allowed; kissat404 and lingeling refused)",
               check=solver_name),
        Option("cuts", "loop", "the cut of a wrong loop (`loop.cuts`): its edges not all together, an edge "
               "leaving it (cutset), or leaving its disc", CUT_FAMILIES, LOOP, idle=((GRAPH, MERGED),)),
        Option("phase", "false", "false: the solver tries edges off first; solver: its own phase",
               PHASES, LOOP),
        Option("components", "array", "how a model's edges are split into loops: integer arrays or networkx "
               "(the same loops, another cost)", COMPONENTS, LOOP, idle=((GRAPH, MERGED),)),
        Option("implied", "true", "the clauses the kind's rules give as implied by them", IMPLIED,
               implied("cnf_implied")),
        # a graph's shape is its own: nothing is kept for another run
        Option("cache", "off", "degree: the degree clauses kept per grid shape in the worker", CACHE,
               PUZZLES),
        Option("proof", "false", "log a DRAT proof (CaDiCaL 1.9.5), checked by harness.proof", PROOF,
               requires={"true": {"solver": PROOF_SOLVERS}},
               excludes={"true": {"fix": ("true",), "directed": ("true",), "split": ("hubs",)}}),
        Option("alone", "true", "a complete loop beside wrong ones is tried as the answer by itself first",
               ALONE, PUZZLES),
        Option("colour", "late", "the faces' inside/outside colouring: from the start (on), after "
               "COLOUR_AFTER conflicts a face (late), never (off)", COLOUR, FACES),
        Option("cadical", "", "CaDiCaL 1.9.5 settings KEY=INTEGER,... set before the first clause",
               kinds=LOOP, check=cadical_text),
        Option("join", "false", "join a model's loops along graph edges (2opt, 3opt) and take the one loop "
               "if it is an answer; merge: join as far as 2-opt goes and cut the loops left", JOIN, LOOP),
        Option("fix", "false", "`loop.fix`'s forced and forbidden edges as units", FIX, LOOP),
        Option("arcs", "false", "the arc model beside the edges (`loop.arcs`); asymmetry: with the published "
               "lowest-asymmetry clauses", ARCS, LOOP),
        Option("directed", "false", "each cut-set as an arc leaving it and one entering it", DIRECTED, LOOP,
               requires={"true": {"arcs": ("true", "asymmetry")}}),
        Option("degree", "all", "free: the edge degree clauses at the vertices not required only (the arcs "
               "hold the required ones)", DEGREE, LOOP,
               requires={"free": {"arcs": ("true", "asymmetry")}}, excludes={"free": {"cache": ("degree",)}}),
        Option("restart", "off", "luby: a new solver between rounds on the Luby sequence of RESTART_ROUNDS",
               RESTART, LOOP),
        Option("split", "off", "hubs: a graph whose hubs join blocks solved on two levels (`loop.split`)",
               SPLIT, GRAPH),
    ))
    imports = ("pysat.solvers", "networkx")
    # False: one solve() call per round, a helper that reads the clock keeping the time limit
    # (conflict budgets sized by time make the search depend on the clock, run to run).
    chunked: ClassVar[bool] = True
    # True: `attach` hands every clause its helper gives the solver to the proof's recorder
    helper_records: ClassVar[bool] = False

    @property
    def cadical_options(self) -> dict[str, int]:
        """The `cadical` option read: CaDiCaL 1.9.5's settings (`new_solver`)."""
        return parse_cadical(self.options["cadical"])

    def start_solver(self, clauses: Iterable[list[int]], num_edges: int, logging: bool, stats: dict,
                     cadical_options: dict[str, int], faces: range = range(0)):
        """A solver holding `clauses` (`new_solver`), its edges tried off first unless `phase=solver`,
        and so its `faces` (variables) outside: the empty drawing, which agrees with edges off
        (CaDiCaL's own phase, inside, puts the rim's edges on at once)."""
        solver = new_solver(self.options["solver"], clauses, cadical_options, logging)
        if self.options["phase"] == "false":
            try:
                solver.set_phases([*range(-1, -num_edges - 1, -1), *(-f for f in faces)])
            except NotImplementedError:  # cadical103
                stats["phase"] = "solver"
        return solver

    @staticmethod
    def joined(solver, problem, chosen: list[int], moves: str, stats: dict) -> list[int] | None:
        """`join`: the model's loops joined into one (`loop.join`), when that loop is an answer: it holds
        every demand and, tried alone (`model_alone`), the kind's rules; None otherwise."""
        arrays = problem.arrays
        loops = arrays.walk(chosen)
        if len(loops) < 2:
            return None
        stats["join_tried"] += 1
        edges = join(arrays, [vertices for vertices, _ in loops], moves)
        return None if edges is None else Sat.answer(solver, arrays, edges, stats)

    @staticmethod
    def answer(solver, arrays, edges: list[int], stats: dict) -> list[int] | None:
        """One loop joined from a model's loops (`edges`), when it is an answer: it holds every demand
        and, tried alone (`model_alone`), the kind's rules (counted in `joined`); None otherwise."""
        vertices = {v for i in edges for v in arrays.ends[i]}
        if not arrays.complete(vertices, edges) or model_alone(solver, arrays.num_edges, [edges]) is None:
            return None
        stats["joined"] += 1
        return edges

    def merged(self, run: Run, chosen: list[int]) -> tuple[list[int], list[list[int]]] | None:
        """`join=merge` and `directed=true`, the published CEGAR's blocking: the model's loops joined as
        far as 2-opt goes (`loop.join.merge`, with `merge`), then (edges, []) when one loop is left and
        it is an answer (as `joined`), else (chosen, the cut-set of each loop left: an edge leaving it,
        or with `directed` an arc leaving it and one entering it, `loop.arcs.directed_cuts`); None (the
        model's own cuts) when the model is one loop or none, or a loop left is no cut-set (it holds
        every required vertex or none)."""
        arrays, stats = run.problem.arrays, run.stats
        loops = [vertices for vertices, _ in arrays.walk(chosen)]
        if len(loops) < 2:  # one loop (the answer or not) or none: the model's own cuts say which
            return None
        if self.options["join"] == "merge":
            stats["join_tried"] += 1
            edges, left = merge(arrays, loops)
            stats["merged"] += len(loops) - len(left)
            if edges is not None:
                edges = self.answer(run.solver, arrays, edges, stats)
                return None if edges is None else (edges, [])
            loops = left
        if not all(map(arrays.separates, loops)):
            return None
        if self.options["directed"] == "true":
            return chosen, [c for vertices in loops for c in directed_cuts(arrays, run.arcs_from, vertices)]
        return chosen, [[i + 1 for i in arrays.boundary(vertices)] for vertices in loops]

    def attach(self, solver, problem, deadline: float, recorder: Recorder | None = None):
        """Hook for subclasses: connect a helper before the first solve; return it (or None).

        `recorder`: the proof's (with `proof=true`), for a helper that records its clauses (`helper_records`).

        A helper has `stats()`, a dict added to the run's stats, whose `cuts` add to the total, and
        `out_of_time()`: once `time.process_time()` passes `deadline` (CPU time) it may end a solve()
        call by handing over the empty clause, and that call's False is then no answer. It never raises
        out of a callback (`loop.watch` says why).
        """
        return None

    def solve(self, puzzle, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        """The loop until one complete loop or none (see the module docstring); a kind without a loop:
        one plain solve (`_plain_sat`)."""
        if puzzle.kind not in loop.kinds():
            return solve_plain(rules.of(puzzle.kind), puzzle, limits, seed, exclude, self.options["solver"],
                               proof=self.options["proof"] == "true")
        start = cpu_time()
        deadline = limits.deadline()  # CPU time, the clock the runner's limit counts
        problem = loop.problem(puzzle)
        if refused := loop.refuse(problem, start):
            return refused
        if self.options["split"] == "hubs" and not exclude and (found := self.split_parts(problem)):
            return self.solve_split(problem, found, limits, seed, start, deadline)
        run = self.build(puzzle, problem, seed, exclude, start)
        if isinstance(run, Outcome):
            return run
        try:
            run.helper = self.attach(run.solver, problem, deadline, run.recorder)
            run.stats["build_s"] = cpu_time() - start
            status, solution = self.search(run, deadline, limits)
            self.finish(run, status)
        finally:
            run.solver.delete()
        if self.options["split"] != "off":
            run.stats["parts"] = 0
        return Outcome(status, solution, run.stats)

    @staticmethod
    def split_parts(problem) -> list:
        """`split=hubs`: the problem's parts (`loop.split.parts`) when every vertex is required, else []."""
        graph = problem.graph
        if len(problem.required) != graph.num_vertices:
            return []
        ends = graph.ends  # edge i's far end from v is sum(ends[i]) - v
        return parts(tuple(tuple(sum(ends[i]) - v for i in here) for v, here in enumerate(graph.incident)))

    def solve_split(self, problem, found: list, limits: Limits, seed: int, start: float, deadline: float
                    ) -> Outcome:
        """`split=hubs`: the two levels of `loop.split`, each part's sub-solve this strategy's own with
        `split=off`, on the CPU clock's deadline."""
        inner = type(self)(**{**self.options, "split": "off"})
        graph = problem.graph

        def solve_part(part, seconds: float) -> Outcome:
            return inner.solve(part, Limits(time_s=seconds, memory_mb=limits.memory_mb), seed)

        stats = {"parts": len(found), "part_sizes": [len(p.vertices) for p in found], "top_models": 0,
                 "passes": 1, "sub_solves": 0, "sub_cpu_s": 0.0, "iterations": 0, "cuts": 0}
        two = Split(tuple(graph.ends), found, solve_part, stats)
        stats["build_s"] = cpu_time() - start
        status, edges = two.run(deadline, limits.report)
        stats["iterations"] = stats["top_models"]
        if status == UNKNOWN and time.process_time() >= deadline:
            stats["reason"] = f"time limit {limits.time_s:g} s reached"
        elif status == UNKNOWN:
            stats["reason"] = "the parts' sub-solves stopped undecided: too little time left for longer ones"
        elif status == UNSAT:
            stats["reason"] = "no top model's pairings can be held by the parts"
        solution = problem.solution(graph.edge_id(u, v) for u, v in edges) if edges else ""
        return Outcome(status, solution, stats)

    def build(self, puzzle, problem, seed: int, exclude: tuple[str, ...], start: float) -> Run | Outcome:
        """The first solver and the run's state: the clauses of the module docstring for the options, the
        variables numbered (edges and `loop.cnf`'s, faces, arcs), the exclusions, a seed's shuffle, the
        proof's recorder; `unsat` when `fix=true` finds the graph has no loop."""
        options = self.options
        run_options = dict(self.cadical_options)
        if options["solver"] == "cadical195":
            run_options.setdefault("seed", cadical_seed(seed))
        arrays = problem.arrays
        degree, clauses = loop_clause_parts(puzzle, problem, implied=options["implied"] == "true",
                                            keep=options["cache"] == "degree",
                                            free_only=options["degree"] == "free")
        graph, last = problem.graph, num_variables(arrays)
        colour, colour_after, face_vars = "off", 0, range(0)
        if graph.num_faces:  # a graph drawn with faces (a grid's unit squares), numbered after the edges
            colour = options["colour"]
            colour_after = max(COLOUR_FLOOR, int(COLOUR_AFTER * graph.num_faces))
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
                return Outcome(UNSAT, stats={"build_s": cpu_time() - start, "iterations": 0,
                                             "cuts": 0, "reason": fixed.reason})
            clauses += fixed.units()
        excluded = [exclusion(problem, solution) for solution in exclude]
        clauses += excluded
        # every clause in one list only where it is read again (shuffled, recorded for a proof, or given
        # to a new solver: `colour=late`, `restart`); otherwise the solver reads the degree clauses as
        # they are made
        restart = options["restart"] != "off"
        kept = None
        if seed or options["proof"] == "true" or colour == "late" or restart:
            kept = [*chain.from_iterable(degree), *clauses]
            if seed:
                random.Random(seed).shuffle(kept)
        given = kept if kept is not None else chain(chain.from_iterable(degree), clauses)
        run = Run(problem, kept, excluded, colour, restart, seed, colour_after, face_vars, last, top,
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
        if options["restart"] != "off":
            stats["restarts"] = 0
        run.solver = self.start_solver(given, arrays.num_edges, run.recorder is not None, stats, run_options,
                                       face_vars if colour == "on" else range(0))
        return run

    def search(self, run: Run, deadline: float, limits: Limits) -> tuple[str, str]:
        """Solve, cut, solve again until an answer, unsat or the deadline (the CPU clock's, or the
        helper's `out_of_time`): (status, solution).

        A round is the solve calls (`chunk`) until a model or unsat, then the model's cuts (`cut`)."""
        stats = run.stats
        # calls: solve_limited() calls so far in this round, which size the next one's budget
        calls, in_round, round_s = 0, False, 0.0
        while True:
            t0, c0 = cpu_time(), run.solver.accum_stats()["conflicts"] + run.spent
            if run.colour == "late" and c0 >= run.colour_after:
                self.add_faces(run, c0)
                t0, calls = cpu_time(), 0
            if time.process_time() >= deadline or (run.helper is not None and run.helper.out_of_time()):
                stats["iterations"] += in_round
                stats["reason"] = f"time limit {limits.time_s:g} s reached"
                return UNKNOWN, ""
            limits.report({**stats, "conflicts": c0})
            answer = self.chunk(run, calls, c0)
            t1 = cpu_time()
            stats["solver_cpu_s"] += t1 - t0
            round_s += t1 - t0
            stats["chunks"] += 1
            in_round = answer is None
            if in_round:
                calls += 1
                continue
            calls = 0
            stats["iterations"] += 1
            if answer is False:
                return UNSAT, ""
            chosen, cuts = self.cut(run)
            solution = "" if cuts else run.problem.arrays.solution(chosen)
            outside = cpu_time() - t1
            stats["outside_cpu_s"] += outside
            if len(run.rounds) < ROUNDS_KEPT:
                run.rounds.append([round(round_s, 6), round(outside, 6), len(cuts)])
            round_s = 0.0
            if not cuts:
                return SAT, solution
            if self.restart_due(run):
                self.restart(run)

    def add_faces(self, run: Run, conflicts: int) -> None:
        """`colour=late`, a hard one: a new solver holding the faces too and the cuts made so far."""
        stats = run.stats
        run.colour, stats["coloured_at"] = "on", stats["iterations"] + 1
        stats["conflicts_before_faces"], stats["variables"] = conflicts, run.top
        run.faces = colour_clauses(run.problem.graph, run.last)
        self.start_again(run, run.run_options)

    def restart_due(self, run: Run) -> bool:
        """`restart=luby`: whether this solver's rounds have passed its Luby budget."""
        rounds = run.stats["iterations"] - run.started
        return run.restart and rounds >= luby(run.restarts + 1) * RESTART_ROUNDS

    def restart(self, run: Run) -> None:
        """`restart=luby`: a new solver holding the clauses and the cuts so far, in the order of the next
        seed, CaDiCaL's seed the next too (a `seed` given in `cadical=` stays)."""
        run.restarts += 1
        run.stats["restarts"], run.started = run.restarts, run.stats["iterations"]
        seed = run.seed + run.restarts
        options = {**run.run_options}
        if self.options["solver"] == "cadical195" and "seed" not in self.cadical_options:
            options["seed"] = cadical_seed(seed)
        self.start_again(run, options, seed)

    def start_again(self, run: Run, cadical_options: dict[str, int], shuffle: int | None = None) -> None:
        """Replace the solver by one holding every clause so far: the run's, the cuts and the faces' (once
        added), in the order of the seed `shuffle` if given; the old one's conflicts go to `spent`."""
        run.spent += run.solver.accum_stats()["conflicts"]
        run.solver.delete()
        if run.recorder is not None:  # the new solver's proof is of its own clauses
            run.recorder = run.recording()
            run.recorder.add(run.added, "cut")
            run.recorder.add(run.faces, "face")  # marked: made again by harness.proof
        given = run.clauses + run.added + run.faces  # the order colour=late has always given
        if shuffle is not None:
            random.Random(shuffle).shuffle(given)
        faces = run.face_vars if run.colour == "on" else range(0)
        run.solver = self.start_solver(given, run.problem.arrays.num_edges, run.recorder is not None,
                                       run.stats, cadical_options, faces)

    def chunk(self, run: Run, calls: int, conflicts: int) -> bool | None:
        """One solve call: True (a model), False (unsat) or None (its budget spent, or the helper out of
        time: its empty clause ended the call, and the loop's top stops).

        Chunked: `calls` sizes its conflict budget (`chunk_budget`), and under `colour=late` the chunk
        ends where the faces would come in (`conflicts` so far)."""
        solver = run.solver
        if not self.chunked:
            answer = solver.solve()
            return None if run.helper is not None and run.helper.out_of_time() else answer
        budget = chunk_budget(calls)
        solver.conf_budget(budget if run.colour != "late" else min(budget, run.colour_after - conflicts))
        return solver.solve_limited()

    def cut(self, run: Run) -> tuple[list[int], list[list[int]]]:
        """The model's chosen edges and the cuts given to the solver (none: the chosen edges are the
        answer); a complete loop beside others is tried alone first (`alone`), then `join`."""
        solver, problem, stats = run.solver, run.problem, run.stats
        arrays = problem.arrays
        chosen = arrays.chosen(solver.get_model())
        moves = self.options["join"]
        # `merge` and `directed` first: where they apply, the model's own cuts would be made for nothing
        if (moves == "merge" or self.options["directed"] == "true") and (
                found := self.merged(run, chosen)) is not None:
            chosen, cuts = found
        else:
            cuts, whole = arrays.split(chosen, self.options["cuts"], self.options["components"])
            if whole and self.options["alone"] == "true":  # a complete loop beside others
                stats["tried_alone"] += 1
                if (edges := model_alone(solver, arrays.num_edges, whole)) is not None:
                    chosen, cuts = edges, []
            if cuts and moves in MOVES and (
                    edges := self.joined(solver, problem, chosen, moves, stats)) is not None:
                chosen, cuts = edges, []
        for clause in cuts:
            solver.add_clause(clause)
        if run.colour == "late" or run.restart:  # a new solver to come: it is given them
            run.added += cuts
        if run.recorder is not None:
            run.recorder.add(cuts, "cut")
        stats["cuts"] += len(cuts)
        return chosen, cuts

    @staticmethod
    def finish(run: Run, status: str) -> None:
        """The last stats: the solver's conflicts and clauses, the rounds, an unsat's proof, a helper's."""
        stats, solver = run.stats, run.solver
        stats["conflicts"] = solver.accum_stats()["conflicts"] + run.spent
        stats["clauses"] = solver.nof_clauses()
        stats["rounds"] = run.rounds
        if run.recorder is not None and status == UNSAT:
            stats["proof"] = run.recorder.proof(solver)
        if run.helper is not None:
            more = run.helper.stats()
            stats.update(more, cuts=stats["cuts"] + more.get("cuts", 0))
