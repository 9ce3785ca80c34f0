"""Branch-and-cut on SCIP (pyscipopt), for any loop kind: sub-loop cuts inside one search, at LP points too.

Model: a binary x_e per edge and y_v per vertex (on the loop); x(δ(v)) = 2·y_v at every vertex
(degree 0 or 2), y_v = 1 at required vertices, x(group) >= 1 per `hits` group, some y on when
neither is given; the kind's local rules are its CNF (`rules.<kind>.cnf`, auxiliaries as more
binaries), each clause the linear constraint "literals sum to at least 1" (SCIP upgrades them to
its clause constraints), with `implied=true` its implied clauses too; each `exclude`d answer a
no-good. No objective: the first feasible point is the answer. One loop is a constraint handler
(`SubLoops`): it checks candidates and, at integral LP points, cuts their sub-loops by the cut-set
inequalities of Dantzig, Fulkerson and Johnson (x(δ(S)) >= 2, or >= 2·y_v for a loop with no
required vertex; `loop.mincut.integral_cuts`); with `separate=fractional` it also separates
fractional LP points (components of the support, then minimum cuts between required vertices,
`loop.mincut.fractional_cuts`), the method of Concorde and of every lazy-constraint callback;
`separate=integral` cuts integral points only, as `lazy` does on CP-SAT. SCIP's own options:
`presolve`, `emphasis`, `threads` (LP threads), seed shift = the run's seed; time limit on SCIP's
CPU clock, memory limit from the run's. An `unsat` is SCIP's word, with no certificate.
"""

from __future__ import annotations

import resource
from typing import Any

from harness.encoding import SAT, UNKNOWN, UNSAT, Encoding, Limits, Outcome, cpu_time
from harness.options import Option

from . import loop, rules
from ._options import implied
from .loop import problem as loop_problem
from .loop import refuse
from .loop.cuts import exclusion
from .loop.mincut import Cut, fractional_cuts, integral_cuts

SEPARATE = ("fractional", "integral")
PRESOLVE = ("default", "off", "fast", "aggressive")
EMPHASIS = ("default", "feasibility", "easycip", "hardlp", "cpsolver", "counter")
IMPLIED = ("true", "false")


def at_least_one(threads: int) -> int:
    """The `threads` option checked: a count of threads, at least 1."""
    if threads < 1:
        raise ValueError(f"option threads: must be at least 1, got {threads}")
    return threads
STATUSES = {"optimal": SAT, "infeasible": UNSAT, "timelimit": UNKNOWN, "memlimit": UNKNOWN,
            "userinterrupt": UNKNOWN}  # any other SCIP status is an error here (no node or gap limits set)
MIN_MEMORY_MB = 64  # SCIP's own memory limit never below this, whatever the process holds already


def _handler(base: type, state: dict[str, Any]) -> Any:
    """The "one loop" constraint handler over `state`'s variables: `base` is pyscipopt's Conshdlr,
    imported inside solve like every solver package."""
    from pyscipopt import SCIP_RESULT, quicksum

    arrays, x, y = state["arrays"], state["x"], state["y"]
    counts = state["counts"]

    class SubLoops(base):
        def _chosen(self, solution: Any) -> list[int]:
            value = self.model.getSolVal
            return [i for i, v in enumerate(x) if value(solution, v) > 0.5]

        def _add_rows(self, cuts: list[Cut], clauses: list[list[int]]) -> bool:
            """Each as a global LP row (and in the cut pool); True when one is infeasible here."""
            model, infeasible = self.model, False
            for edges, on in cuts:
                row = model.createEmptyRowUnspec("subloop", lhs=2.0 - 2 * len(on), rhs=None,
                                                 local=False, removable=True)
                model.cacheRowExtensions(row)
                for i in edges:
                    model.addVarToRow(row, x[i], 1.0)
                for v in on:
                    model.addVarToRow(row, y[v], -2.0)
                model.flushRowExtensions(row)
                infeasible |= model.addCut(row, forcecut=True)
                model.addPoolCut(row)
                model.releaseRow(row)
            for clause in clauses:
                row = model.createEmptyRowUnspec("subloop", lhs=1.0 - sum(lit < 0 for lit in clause),
                                                 rhs=None, local=False, removable=True)
                model.cacheRowExtensions(row)
                for lit in clause:
                    model.addVarToRow(row, x[abs(lit) - 1], 1.0 if lit > 0 else -1.0)
                model.flushRowExtensions(row)
                infeasible |= model.addCut(row, forcecut=True)
                model.addPoolCut(row)
                model.releaseRow(row)
            return infeasible

        def _integral(self, solution: Any) -> tuple[list[Cut], list[list[int]]] | None:
            began = cpu_time()
            try:
                return integral_cuts(arrays, self._chosen(solution))
            except ValueError:  # a degree not 0 or 2: no set of loops (the degree rows reject it too)
                return None
            finally:
                counts["callback_cpu_s"] += cpu_time() - began

        def conscheck(self, constraints, solution, checkintegrality, checklprows, printreason, completely):
            found = self._integral(solution)
            ok = found is not None and not found[0] and not found[1]
            return {"result": SCIP_RESULT.FEASIBLE if ok else SCIP_RESULT.INFEASIBLE}

        def _enforce(self, add) -> dict:
            """At an integral point: infeasible (a degree not 0 or 2), feasible (one loop), or its sub-loops
            cut by `add(cuts, clauses)`, which says SCIP's result."""
            found = self._integral(None)
            if found is None:
                return {"result": SCIP_RESULT.INFEASIBLE}
            cuts, clauses = found
            if not cuts and not clauses:
                return {"result": SCIP_RESULT.FEASIBLE}
            counts["rounds"] += 1
            counts["integral_cuts"] += len(cuts) + len(clauses)
            state["report"]()
            return {"result": add(cuts, clauses)}

        def consenfolp(self, constraints, nusefulconss, solinfeasible):
            return self._enforce(lambda cuts, clauses: SCIP_RESULT.CUTOFF if self._add_rows(cuts, clauses)
                                 else SCIP_RESULT.SEPARATED)

        def consenfops(self, constraints, nusefulconss, solinfeasible, objinfeasible):
            return self._enforce(self._add_constraints)

        def _add_constraints(self, cuts: list[Cut], clauses: list[list[int]]):
            """No LP here (a pseudo solution): the cuts become constraints, which SCIP propagates."""
            model = self.model
            for edges, on in cuts:
                crossing = quicksum(x[i] for i in edges)
                model.addCons(crossing - quicksum(2 * y[v] for v in on) >= 2 - 2 * len(on))
            for clause in clauses:
                model.addCons(quicksum(x[lit - 1] if lit > 0 else 1 - x[-lit - 1] for lit in clause) >= 1)
            return SCIP_RESULT.CONSADDED

        def conssepalp(self, constraints, nusefulconss):
            began = cpu_time()
            value = self.model.getSolVal
            cuts = fractional_cuts(arrays, [value(None, v) for v in x], [value(None, v) for v in y])
            counts["callback_cpu_s"] += cpu_time() - began
            if not cuts:
                return {"result": SCIP_RESULT.DIDNOTFIND}
            counts["sepa_rounds"] += 1
            counts["fractional_cuts"] += len(cuts)
            if self.model.getDepth() == 0:
                counts["root_cuts"] += len(cuts)
            state["report"]()  # a run stopped while separating keeps its counts
            return {"result": SCIP_RESULT.CUTOFF if self._add_rows(cuts, []) else SCIP_RESULT.SEPARATED}

        def conslock(self, constraint, locktype, nlockspos, nlocksneg):
            # Rounding any edge or vertex either way may make a sub-loop: without these locks SCIP's
            # dual presolving fixes variables as if the rows were the whole problem.
            model, both = self.model, nlockspos + nlocksneg
            original = constraint.isOriginal()
            for var in (*x, *y):
                model.addVarLocksType(var if original else model.getTransformedVar(var), locktype, both, both)

    return SubLoops()


class Mip(Encoding):
    name = "mip"
    puzzles = loop.kinds()
    excludes = True
    imports = ("pyscipopt", "networkx")
    declared = (
        Option("separate", "fractional", "where sub-loops are cut: at fractional LP points too (minimum "
               "cuts between required vertices), or at integral points only", SEPARATE),
        Option("presolve", "default", "SCIP's presolving setting", PRESOLVE),
        Option("emphasis", "default", "SCIP's emphasis setting", EMPHASIS),
        Option("threads", 1, "SCIP's LP threads", check=at_least_one),
        Option("implied", "true", "the kind's implied clauses as rows (`cnf_implied`, `implied_clauses`)",
               IMPLIED, implied("cnf_implied")),
    )

    def solve(self, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        from pyscipopt import SCIP_PARAMEMPHASIS, SCIP_PARAMSETTING, Conshdlr, Model, quicksum

        clock = limits.clock()
        start = cpu_time()
        problem = loop_problem(puzzle)
        if refused := refuse(problem, start):
            return refused
        arrays = problem.arrays
        graph = problem.graph
        model = Model("loop")
        model.hideOutput()
        x = [model.addVar(f"x{i}", vtype="B") for i in range(graph.num_edges)]
        y = [model.addVar(f"y{v}", vtype="B") for v in range(graph.num_vertices)]
        for v, here in enumerate(graph.incident):
            model.addCons(quicksum(x[i] for i in here) == 2 * y[v])
        for v in problem.required:
            model.chgVarLb(y[v], 1.0)
        for group in problem.hits:
            model.addCons(quicksum(x[i] for i in group) >= 1)
        if not problem.required and not problem.hits:
            model.addCons(quicksum(y) >= 1)
        arrays.own["variables"] = graph.num_edges  # the rules' auxiliaries follow the edges
        module = rules.of(puzzle.kind)
        clauses = module.cnf(puzzle, arrays)
        if self.options["implied"] == "true":
            if hasattr(module, "cnf_implied"):
                clauses += module.cnf_implied(puzzle, arrays)
            clauses += loop.implied_clauses(puzzle)
        clauses += [exclusion(problem, solution) for solution in exclude]
        aux = [model.addVar(f"a{k}", vtype="B") for k in range(arrays.own["variables"] - graph.num_edges)]
        literal = x + aux
        for clause in clauses:
            model.addCons(quicksum(literal[k - 1] if k > 0 else 1 - literal[-k - 1] for k in clause) >= 1)
        self._settings(model, seed, limits, SCIP_PARAMSETTING, SCIP_PARAMEMPHASIS)

        rows = len(clauses)  # the model's size: the kind's clauses (and implied ones) as rows
        counts = {"rounds": 0, "sepa_rounds": 0, "integral_cuts": 0, "fractional_cuts": 0, "root_cuts": 0,
                  "callback_cpu_s": 0.0}
        build_s = cpu_time() - start
        solver_s = 0.0

        def stats() -> dict[str, Any]:
            out = {"build_s": build_s, "iterations": counts["rounds"] + 1,
                   "cuts": counts["integral_cuts"] + counts["fractional_cuts"], **counts, "clause_rows": rows,
                   "solver_cpu_s": solver_s, "scip_version": f"{model.version()}",
                   "pyscipopt": _pyscipopt_version(), "seed": seed,
                   "threads": self.options["threads"], "presolve": self.options["presolve"],
                   "emphasis": self.options["emphasis"], "separate": self.options["separate"]}
            if model.getStage() >= 3:  # SCIP_STAGE_TRANSFORMED: its statistics exist
                out.update(nodes=model.getNNodes(), lp_iterations=model.getNLPIterations(),
                           max_depth=model.getMaxDepth(), scip_status=model.getStatus())
            return out

        state = {"arrays": arrays, "x": x, "y": y, "counts": counts, "report": lambda: limits.report(stats())}
        fractional = self.options["separate"] == "fractional"
        # after the linear handler in checks and enforcement (its priorities -1e6): the degree rows hold
        handler = _handler(Conshdlr, state)
        model.includeConshdlr(handler, "subloops", "one loop: sub-loop cut-sets",
                              sepapriority=100, enfopriority=-2_000_000, chckpriority=-2_000_000,
                              sepafreq=1 if fractional else -1)
        model.addPyCons(model.createCons(handler, "loop"))  # one constraint, which holds the locks
        left = clock.left()
        if left <= 0:
            return Outcome(UNKNOWN, stats={**stats(), "reason": "time limit reached before the solver ran"})
        # SCIP's clock counts from the model's creation, so what building spent is added back
        model.setParam("limits/time", left + model.getTotalTime())
        began = cpu_time()
        model.optimize()
        solver_s = cpu_time() - began
        status = model.getStatus()
        if status not in STATUSES:
            raise RuntimeError(f"SCIP returned status {status!r}")
        verdict = STATUSES[status]
        if verdict == SAT and model.getNSols() == 0:
            raise RuntimeError("SCIP says optimal without a solution")
        out = stats()
        if verdict == UNKNOWN:
            return Outcome(UNKNOWN, stats={**out, "reason": f"SCIP stopped: {status}"})
        if verdict == UNSAT:
            return Outcome(UNSAT, stats=out)
        best = model.getBestSol()
        chosen = [i for i, v in enumerate(x) if model.getSolVal(best, v) > 0.5]
        return Outcome(SAT, problem.solution(chosen), out)

    def _settings(self, model: Any, seed: int, limits: Limits, setting: Any, emphasis: Any) -> None:
        """SCIP's options, the run's seed, CPU time and memory; what would let SCIP reason past the
        handler it cannot see switched off."""
        options = self.options
        if options["emphasis"] != "default":
            model.setEmphasis(getattr(emphasis, options["emphasis"].upper()))
        if options["presolve"] != "default":
            model.setPresolve(getattr(setting, options["presolve"].upper()))
        model.setParam("lp/threads", options["threads"])
        model.setParam("parallel/maxnthreads", options["threads"])
        model.setParam("randomization/randomseedshift", seed % (1 << 30))
        model.setParam("timing/clocktype", 1)  # CPU time, the clock the runner's limit counts
        # symmetry handling and the components presolver read only the rows, not the loop handler
        model.setParam("misc/usesymmetry", 0)
        model.setParam("constraints/components/maxprerounds", 0)
        model.setParam("constraints/components/propfreq", -1)
        model.setParam("limits/memory", max(MIN_MEMORY_MB, limits.memory_mb - _resident_mb()))


def _resident_mb() -> int:
    """This process's resident memory in MB now (SCIP's limit counts only SCIP's own)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize() // (1 << 20)
    except OSError:
        return 0


def _pyscipopt_version() -> str:
    import pyscipopt

    return pyscipopt.__version__
