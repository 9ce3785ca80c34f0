"""Answer-set programming with clingo, for any loop kind whose rules speak ASP: one ground program, one solve.

Model (`loop.asp`): a choice atom `on(U,V)` per edge; every vertex on the loop has exactly two
edges; required vertices are on it, every `hits` group has an edge on, some vertex is on; the
kind's local rules (`rules.<kind>.asp`: pearls, clues) are integrity constraints.
Single loop: every on-loop vertex must be reached from one root along chosen edges. The rule
for `reach` is recursive, so a set of loops that misses the root's has no support: clingo's
unfounded-set check finds such sub-loops during search and learns a clause against each (the
lazy loop constraint, inside the solver). Root: the smallest required vertex; with none, the
smallest on-loop vertex in row-major order, so every answer is one answer set (sound: a
single loop reaches all its vertices from any of them, several loops never do).
`exclude`d answers are constraints forbidding all their edges together. Grounding is
`build_s`; the solve runs asynchronously and is cancelled at the time limit.
Options: `configuration` (clingo's --configuration; default `crafty`: on the slowest masyu-hard
puzzles the fastest with jumpy and trendy, and on large Slitherlink `auto` has heavy tails);
the run's seed is clingo's --seed (auto, tweety and many ignore it); `implied=true` (default, as
for every loop strategy) adds the kind's implied constraints (`rules.<kind>.asp_implied`: Masyu's
pearls, the constraints `sat` gets as `cnf_implied`; `loop.implied_clauses`: Slitherlink's, as
integrity constraints like the cuts). Single-threaded.
"""

from __future__ import annotations

from typing import Any

from harness.encoding import SAT, UNKNOWN, UNSAT, Encoding, Limits, Outcome, cpu_time
from harness.options import Option

from . import loop, rules
from ._options import implied
from .loop import asp as program
from .loop.cuts import exclusion

CONFIGURATIONS = ("auto", "crafty", "trendy", "frumpy", "jumpy", "tweety", "handy", "many")
IMPLIED = ("false", "true")


class Asp(Encoding):
    name = "asp"
    puzzles = program.kinds()
    excludes = True
    declared = (
        Option("configuration", "crafty", "clingo's --configuration (its preset search settings)",
               CONFIGURATIONS),
        Option("implied", "true", "the kind's implied constraints (`asp_implied`, `implied_clauses`)",
               IMPLIED, implied("asp_implied")),
    )
    imports = ("clingo",)

    def solve(self, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        import clingo

        start = cpu_time()
        clock = limits.clock()  # CPU time, the clock the runner's limit counts
        problem = loop.problem(puzzle)
        if refused := loop.refuse(problem, start):
            return refused
        implied = self.options["implied"] == "true"
        clauses = [exclusion(problem, s) for s in exclude] + (loop.implied_clauses(puzzle) if implied else [])
        text = program.program(puzzle, problem, clauses)
        hook = getattr(rules.of(puzzle.kind), "asp_implied", None)
        if implied and hook is not None:
            text += hook(puzzle)
        ctl = clingo.Control([f"--configuration={self.options['configuration']}", f"--seed={seed}"])
        ctl.add("base", [], text)
        ctl.ground([("base", [])])
        build_s = cpu_time() - start
        stats: dict[str, Any] = {"build_s": build_s, "iterations": 0, "cuts": 0, "solver_cpu_s": 0.0,
                                 "clingo_version": clingo.__version__}
        if clock.expired():
            stats["reason"] = "time limit reached while grounding"
            return Outcome(UNKNOWN, stats=stats)

        found: list[Any] = []
        began = cpu_time()
        with ctl.solve(async_=True, on_model=lambda m: found.append(m.symbols(shown=True))) as handle:
            while not handle.wait(0.05):  # clingo searches in its own thread; the budget is CPU time
                if clock.expired():
                    handle.cancel()
                    stats["reason"] = f"time limit {limits.time_s:g} s reached; solve cancelled"
                    break
            result = handle.get()
        stats["solver_cpu_s"] = cpu_time() - began
        stats["iterations"] = 1
        stats.update(_statistics(ctl.statistics))
        if result.satisfiable and found:
            return Outcome(SAT, problem.solution(program.Terms(problem.graph).edges_of(found[-1])), stats)
        if result.unsatisfiable:
            return Outcome(UNSAT, stats=stats)
        if result.unknown:
            return Outcome(UNKNOWN, stats=stats)
        raise RuntimeError(f"clingo returned an unexpected result {result}")


def _statistics(s: Any) -> dict[str, Any]:
    """clingo's own counts and times (seconds) for the run's stats; `conflicts` is a database column."""
    solvers, times, lp = s["solving"]["solvers"], s["summary"]["times"], s["problem"]["lp"]
    return {
        "conflicts": int(solvers["conflicts"]),
        "choices": int(solvers["choices"]),
        "restarts": int(solvers["restarts"]),
        "clingo_total_s": times["total"],
        "clingo_cpu_s": times["cpu"],
        "clingo_solve_s": times["solve"],
        "atoms": int(lp["atoms"]),
        "rules": int(lp["rules"]),
        "ufs_nodes": int(lp["ufs_nodes"]),
    }
