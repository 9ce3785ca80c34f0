"""One plain PySAT solve of a kind's whole CNF (`rules.cnf`), for the kinds without a loop.

The `sat` encoding calls `solve_plain` for Walls and Marupeke: the rules module's clauses (a
non-zero seed shuffles their order), one clause per excluded solution (`rules.cnf_exclude`), one
solver object, and `conf_budget` + `solve_limited` chunks sized to about CHUNK_S each, the clock
read between them, so the time limit holds with solvers that cannot be interrupted (CaDiCaL).
`solver_name` must be a PySAT solver with `conf_budget` (not Lingeling or Kissat). `proof`: log a DRAT
proof and, on unsat, put it in the stats' `proof` with the CNF, excluded answers marked
(`harness.proof.record`).
"""

from __future__ import annotations

import random
import time
from types import ModuleType
from typing import Any

from harness.encoding import SAT, UNKNOWN, UNSAT, Limits, Outcome
from harness.proof.record import Recorder

CHUNK_S = 0.25  # aim each solve_limited() call at about this much time, so the clock is read often
FIRST_BUDGET = 100  # conflicts of the first chunk, before any rate is known
PLAIN_RULES = ("cnf_solution", "cnf_exclude")  # what a rules module gives besides `cnf`, for this path


def next_budget(conflicts: int, seconds: float, deadline: float) -> int:
    """The next chunk's conflict budget: the last chunk's rate, to end near CHUNK_S or the (CPU) deadline."""
    rate = (conflicts + 1) / max(seconds, 1e-4)
    left = max(deadline - time.process_time(), 0.01)
    return max(FIRST_BUDGET, min(1_000_000, int(rate * min(CHUNK_S, left))))


def solve_plain(rules: ModuleType, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = (),
                solver_name: str = "cadical195", proof: bool = False) -> Outcome:
    """Solve `puzzle` with the CNF of `rules`, never returning a solution in `exclude`."""
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    start = time.perf_counter()
    deadline = limits.deadline()  # CPU time, the clock the runner's limit counts
    pool = IDPool()
    clauses = rules.cnf(puzzle, pool)
    blocked = [rules.cnf_exclude(puzzle, pool, solution) for solution in exclude]
    clauses += blocked
    if seed:
        random.Random(seed).shuffle(clauses)
    recorder = None
    if proof:
        recorder = Recorder()
        recorder.add(clauses, marked=blocked)
    stats: dict[str, Any] = {"solver": solver_name, "variables": pool.top, "clauses": len(clauses),
                             "excluded": len(exclude), "iterations": 1, "cuts": 0, "chunks": 0,
                             "solver_s": 0.0, "conflicts": 0}
    if [] in blocked:  # a puzzle without a free cell has one solution, and it is excluded
        stats["build_s"] = time.perf_counter() - start
        if recorder is not None:  # the CNF holds the empty clause: the empty proof refutes it
            stats["proof"] = recorder.proof(None, b"0\n")
        return Outcome(UNSAT, stats=stats)
    with Solver(name=solver_name, bootstrap_with=clauses, with_proof=proof) as solver:
        stats["build_s"] = time.perf_counter() - start
        answer, budget = None, FIRST_BUDGET
        while answer is None:
            t0 = time.perf_counter()
            if time.process_time() >= deadline:
                stats["reason"] = f"time limit {limits.time_s:g} s reached"
                break
            c0 = solver.accum_stats().get("conflicts", 0)
            solver.conf_budget(budget)
            answer = solver.solve_limited()
            t1 = time.perf_counter()
            stats["solver_s"] += t1 - t0
            stats["chunks"] += 1
            budget = next_budget(solver.accum_stats().get("conflicts", 0) - c0, t1 - t0, deadline)
        stats["conflicts"] = solver.accum_stats().get("conflicts", 0)
        if answer is None:
            return Outcome(UNKNOWN, stats=stats)
        if answer is False:
            if recorder is not None:
                stats["proof"] = recorder.proof(solver)
            return Outcome(UNSAT, stats=stats)
        return Outcome(SAT, rules.cnf_solution(puzzle, pool, solver.get_model()), stats)
