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
already give degree 2 (`eager` does the same); `degree=auto` chooses `free` on a graph with at most a
tenth of its vertices of degree 2 and `all` otherwise (stats: `degree_auto`).
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
`smallcuts=true` (off by default; graphs): what the graph's small cuts imply, made once per problem
(`loop.smallcuts`): no cycle where removing two vertices leaves three parts or more (the reason said),
else for each 2-vertex cut the edge between them off and an edge from each into each part, both edges of
a 2-edge cut on, exactly two of a 3-edge cut's three; in the parts of `split=hubs` too. Not with
`proof=true`: these clauses are no DRAT steps.
`prepass=rotations` (graphs; on by default there): before any clause, `loop.rotations` looks for the
cycle by Pósa's rotation-extension for at most a tenth of a second of CPU (a hundredth of a shorter limit);
what it finds is the answer, and a miss goes on to the solve with the time it took counted (stats:
`prepass` found or missed, `prepass_cpu_s`). Dense graphs, whose CNF is the slow part, are done
before it is built. `prepass=frontier` runs `frontier`'s search instead, on bounds that are counts
(a greedy order's frontier of 12 vertices, 1,000 states a layer, 500,000 in all) and a CPU budget
(a second, at most a sixtieth of the limit): narrow graphs (path-width about 10 or less, as many FHCP
graphs are) answered in a fraction of a second where the CEGAR's rounds take seconds; it gives a
cycle or nothing, never an unsat (`prepass_frontier` says what it met, `prepass_by` which pass found
the cycle). `prepass=frontier+rotations`: the frontier search, then the rotations.
Stats (times are CPU, `cpu_time`): build_s (clauses and solver set-up; `shape_reused` says whether
this run found its grid shape made), solver_cpu_s (inside solve calls), outside_cpu_s (reading
models, trying loops alone and cutting), tried_alone (rounds whose complete loops were tried alone),
join_tried and joined (rounds whose loops `join` tried, and made an answer), merged (loops `join=merge`
joined into others), fixed_on and fixed_off
(`fix`), smallcuts_* (`smallcuts`: the cuts used, the clauses and units made, whether every search ended
within its budget), coloured_at and conflicts_before_faces (the round and the conflicts where `colour=late`
started again), restarts (`restart`), and `rounds`: per round [solver_cpu_s, outside_cpu_s, cuts],
the first ROUNDS_KEPT.
Before each chunk the stats so far go to `limits.report`, so a run stopped past its limit keeps them.
"""

from __future__ import annotations

from harness.encoding import Encoding, Limits, Outcome
from harness.options import Option, by_kind
from harness.presets import PRESETS
from harness.prooflog import PROOF_SOLVERS

from . import loop, rules
from ._cadical import parse as parse_cadical
from ._options import DEMANDS, FACES, GRAPH, LOOP, PUZZLES, implied
from ._plain_sat import PLAIN_RULES, solve_plain
from .cegar.model import Strategy
from .cegar.split import solve_loop
from .loop.arrays import COMPONENTS
from .loop.cuts import CUT_FAMILIES
from .loop.features import share_degree2
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
DEGREE = ("all", "free", "auto")
# `degree=auto`: `free` on a graph with at most this share of degree-2 vertices, `all` above it and on
# puzzles: the arc model alone is faster per conflict on the near-regular and hub graphs without
# degree-2 vertices, the edge clauses pay where many are (results/fhcp/README.md, "The mean-degree-4.59
# family"; the share's cut is the selector families' first class, `harness.select.search`)
AUTO_FREE_UP_TO_SHARE2 = 0.1
RESTART = ("off", "luby")
SPLIT = ("off", "hubs")
SMALLCUTS = ("false", "true")
PREPASS = ("off", "rotations", "frontier", "frontier+rotations")
# `sat` on a graph: the preset `cegar-split-auto`, the CEGAR configuration with `split=hubs` after
# `prepass=frontier+rotations`, with `degree=auto` (results/fhcp/README.md, "The headline on one machine"
# and "degree=auto on the headline"; docs/CEGAR.md), but for its `cuts=cutset`, idle there (MERGED)
ON_GRAPHS = {k: v for k, v in PRESETS["cegar-split-auto"].options.items() if k != "cuts"}
# `join=merge` and `directed=true` cut the loops merged (`cegar.refine`): on a graph every loop of a model of
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



class Sat(Encoding):
    name = "sat"
    # the loop kinds, and the kinds without a loop whose rules module gives a whole CNF (_plain_sat)
    puzzles = loop.kinds() + rules.kinds_with(*PLAIN_RULES)
    excludes = True
    declared = by_kind("graph", ON_GRAPHS, (
        Option("solver", "cadical195", "the PySAT solver: any that takes clauses after a solve and a "
               "conflict budget (aliases such as cd19 allowed; kissat404 and lingeling refused)",
               check=solver_name),
        # Castle Wall and Yajilin name nothing a loop must hold: every loop is complete, cut alike (DEMANDS)
        Option("cuts", "loop", "the cut of a wrong loop (`loop.cuts`): its edges not all together, an edge "
               "leaving it (cutset), or leaving its disc", CUT_FAMILIES, DEMANDS, idle=((GRAPH, MERGED),)),
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
               excludes={"true": {"fix": ("true",), "directed": ("true",), "split": ("hubs",),
                                  "smallcuts": ("true",)}}),
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
               "hold the required ones); auto: free on a graph with at most AUTO_FREE_UP_TO_SHARE2 of its "
               "vertices of degree 2, all otherwise", DEGREE, LOOP,
               requires={v: {"arcs": ("true", "asymmetry")} for v in DEGREE[1:]},
               excludes={v: {"cache": ("degree",)} for v in DEGREE[1:]}),
        Option("restart", "off", "luby: a new solver between rounds on the Luby sequence of RESTART_ROUNDS",
               RESTART, LOOP),
        Option("split", "off", "hubs: a graph whose hubs join blocks solved on two levels (`loop.split`)",
               SPLIT, GRAPH),
        Option("smallcuts", "false", "what a graph's 2-vertex, 2-edge and 3-edge cuts imply, as clauses "
               "(`loop.smallcuts`)", SMALLCUTS, GRAPH),
        Option("prepass", "off", "rotations: a moment of Posa's rotation-extension before any clause "
               "(`loop.rotations`): dense graphs' cycles before their CNF is built; frontier: the "
               "frontier search on small bounds (`frontier.prepass_cycle`): narrow graphs' cycles; "
               "frontier+rotations: both, in that order", PREPASS, GRAPH),
    ))
    imports = ("pysat.solvers", "networkx")
    @property
    def cadical_options(self) -> dict[str, int]:
        """The `cadical` option read: CaDiCaL 1.9.5's settings (`cegar.solvers.new_solver`)."""
        return parse_cadical(self.options["cadical"])

    def solve(self, puzzle, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        """The CEGAR loop (`cegar.driver`, wrapped by `cegar.split`) until one complete loop or none; a kind
        without a loop: one plain solve (`_plain_sat`)."""
        if puzzle.kind not in loop.kinds():
            return solve_plain(rules.of(puzzle.kind), puzzle, limits, seed, exclude, self.options["solver"],
                               proof=self.options["proof"] == "true")
        chose = {"degree_auto": auto_degree(puzzle)} if self.options["degree"] == "auto" else {}
        options = {**self.options, "degree": chose["degree_auto"]} if chose else self.options
        outcome = solve_loop(Strategy(options, self.cadical_options), puzzle,
                             limits.saying(chose) if chose else limits, seed, exclude)
        outcome.stats.update(chose)
        return outcome


def auto_degree(puzzle) -> str:
    """`degree=auto`'s choice for this puzzle: `free` or `all` (AUTO_FREE_UP_TO_SHARE2)."""
    if puzzle.kind != "graph":
        return "all"
    return "free" if share_degree2([len(a) for a in puzzle.neighbours]) <= AUTO_FREE_UP_TO_SHARE2 else "all"
