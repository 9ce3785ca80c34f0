"""One plain PySAT solve of a kind's whole CNF (`rules.cnf`), for the kinds without a loop.

The `sat` encoding calls `solve_plain` for Walls and Marupeke: the rules module's clauses (a
non-zero seed shuffles their order), one clause per excluded solution (`rules.cnf_exclude`), one
solver object, and `conf_budget` + `solve_limited` chunks of a fixed number of conflicts each
(`chunk_budget`: counts, never the clock, so the same seed makes the same search on any machine under
any load), the CPU clock read between them, so the time limit holds with solvers that cannot be
interrupted (CaDiCaL); CaDiCaL 1.9.5's `seed` option is the run's seed (`cadical_seed` in the stats).
`solver_name` must be a PySAT solver with `conf_budget` (not Lingeling or Kissat). `proof`: log a DRAT
proof and, on unsat, put it in the stats' `proof` with the CNF, excluded answers marked
(`harness.prooflog`).
"""

from __future__ import annotations

import random
import time
from types import ModuleType
from typing import Any

from harness.encoding import SAT, UNKNOWN, UNSAT, Limits, Outcome, cpu_time
from harness.prooflog import Recorder

# Conflicts of a solve's first solve_limited() call, doubling each further call of the same solve up
# to CHUNK_MAX. Each call starts CaDiCaL's restart and phase schedules again, so few calls are best;
# the CPU clock is read between calls, so CHUNK_MAX bounds how far past the limit a run goes before
# it stops itself (beyond, the runner's CPU limit kills it and its statistics are lost).
CHUNK_FIRST = 10_000
CHUNK_MAX = 40_000
CADICAL_SEED_MAX = 2_000_000_000  # CaDiCaL's `seed` option takes 0..2e9
PLAIN_RULES = ("cnf_solution", "cnf_exclude")  # what a rules module gives besides `cnf`, for this path


def chunk_budget(calls: int) -> int:
    """The conflict budget of a solve's call number `calls` (from 0): a count, never sized by the clock."""
    return min(CHUNK_FIRST << min(calls, 20), CHUNK_MAX)


def cadical_seed(seed: int) -> int:
    """CaDiCaL's `seed` option for a run of this seed (its range is 0..2e9)."""
    return seed % (CADICAL_SEED_MAX + 1)


def solve_plain(rules: ModuleType, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = (),
                solver_name: str = "cadical195", proof: bool = False) -> Outcome:
    """Solve `puzzle` with the CNF of `rules`, never returning a solution in `exclude`."""
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    start = cpu_time()
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
                             "solver_cpu_s": 0.0, "conflicts": 0}
    if [] in blocked:  # a puzzle without a free cell has one solution, and it is excluded
        stats["build_s"] = cpu_time() - start
        if recorder is not None:  # the CNF holds the empty clause: the empty proof refutes it
            stats["proof"] = recorder.proof(None, b"0\n")
        return Outcome(UNSAT, stats=stats)
    with Solver(name=solver_name, with_proof=proof) as solver:
        if solver_name == "cadical195":  # options before any clause, as CaDiCaL wants them
            stats["cadical_seed"] = cadical_seed(seed)
            solver.solver.configure({"seed": stats["cadical_seed"]})
        solver.append_formula(clauses)
        stats["build_s"] = cpu_time() - start
        answer = None
        while answer is None:
            t0 = cpu_time()
            if time.process_time() >= deadline:
                stats["reason"] = f"time limit {limits.time_s:g} s reached"
                break
            limits.report({**stats, "conflicts": solver.accum_stats().get("conflicts", 0)})
            solver.conf_budget(chunk_budget(stats["chunks"]))
            answer = solver.solve_limited()
            stats["solver_cpu_s"] += cpu_time() - t0
            stats["chunks"] += 1
        stats["conflicts"] = solver.accum_stats().get("conflicts", 0)
        if answer is None:
            return Outcome(UNKNOWN, stats=stats)
        if answer is False:
            if recorder is not None:
                stats["proof"] = recorder.proof(solver)
            return Outcome(UNSAT, stats=stats)
        return Outcome(SAT, rules.cnf_solution(puzzle, pool, solver.get_model()), stats)
