"""The CEGAR driver: solve without "one loop", read the model's loops, refine, solve again, until an answer.

One incremental PySAT solver holds the model (`model.build`); a round is the solve calls until a
model or unsat, then the model's refinement (`refine.cut`): no cut means the chosen edges are one
complete loop, the answer; no model left means unsat. The same solver object is asked again, so its
learnt clauses are kept, except where a rebuild policy (`rebuild`: `colour=late`, `restart=luby`)
replaces it. Deterministic: a chunked strategy's solve calls are `conf_budget` + `solve_limited`
chunks of a fixed number of conflicts (`_plain_sat.chunk_budget`, never sized by the clock), the CPU
clock read between them only to stop; a strategy with a helper (`Strategy.attach`) may make one
solve() a round, the helper keeping the time. Before each chunk the stats so far go to
`limits.report`, so a run stopped past its limit keeps them.
"""

from __future__ import annotations

import time

from harness.encoding import SAT, UNKNOWN, UNSAT, Limits, Outcome, cpu_time

from .. import loop
from .._plain_sat import chunk_budget
from . import rebuild, refine
from .model import Run, Strategy, build

ROUNDS_KEPT = 1000  # per-round figures kept in the stats; a run of 20 000 rounds keeps its totals only


def prepare(strategy: Strategy, puzzle, start: float):
    """The loop problem, and an `unsat` Outcome when the strategy's `check` or `loop.refuse` finds the
    graph holds no loop before any clause (else None)."""
    problem = loop.problem(puzzle)
    if strategy.check is not None and (reason := strategy.check(problem)):
        return problem, Outcome(UNSAT, stats={"build_s": cpu_time() - start, "iterations": 0, "cuts": 0,
                                              "reason": reason})
    return problem, loop.refuse(problem, start)


def solve(strategy: Strategy, puzzle, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
    """The loop until one complete loop or none, on a puzzle of a loop kind."""
    start = cpu_time()
    deadline = limits.deadline()  # CPU time, the clock the runner's limit counts
    problem, refused = prepare(strategy, puzzle, start)
    if refused is not None:
        return refused
    return run(strategy, puzzle, problem, limits, seed, exclude, start, deadline)


def run(strategy: Strategy, puzzle, problem, limits: Limits, seed: int, exclude: tuple[str, ...],
        start: float, deadline: float) -> Outcome:
    """Build, connect the strategy's helper, search, and the stats (`finish`); the solver deleted after."""
    state = build(strategy, puzzle, problem, seed, exclude, start)
    if isinstance(state, Outcome):
        return state
    try:
        if strategy.attach is not None:
            state.helper = strategy.attach(state.solver, problem, deadline, state.recorder)
        state.stats["build_s"] = cpu_time() - start
        status, solution = search(state, deadline, limits)
        finish(state, status)
    finally:
        state.solver.delete()
    return Outcome(status, solution, state.stats)


class Resumable:
    """One search given its CPU time in instalments (`advance`): where an instalment ends undecided, the
    next goes on from there, its solver with every cut and learnt clause kept, instead of a new search
    paying again for the ground the last one covered. The chunks go on as one search's would (`search`):
    a search given its time in instalments is the search given it at once, step for step. `split=hubs`
    keeps its parts' undecided sub-solves so (`loop.split`). Only a chunked strategy without a helper
    can: a helper past its deadline ends the solve with the empty clause, after which the solver answers
    unsat; such a strategy starts afresh on each instalment (`resumes` False). `close` deletes the
    solver."""

    def __init__(self, strategy: Strategy, puzzle, seed: int, memory_mb: int) -> None:
        self.strategy, self.puzzle, self.seed, self.memory_mb = strategy, puzzle, seed, memory_mb
        self.resumes = strategy.chunked and strategy.attach is None
        self.state: Run | None = None

    def advance(self, seconds: float) -> Outcome:
        """`seconds` more of CPU: the answer, unsat, or unknown (kept for the next instalment)."""
        limits = Limits(time_s=seconds, memory_mb=self.memory_mb)
        start = cpu_time()
        if self.state is None or not self.resumes:
            problem, refused = prepare(self.strategy, self.puzzle, start)
            if refused is not None:
                return refused
            if not self.resumes:
                deadline = limits.deadline()
                return run(self.strategy, self.puzzle, problem, limits, self.seed, (), start, deadline)
            state = build(self.strategy, self.puzzle, problem, self.seed, (), start)
            if isinstance(state, Outcome):
                return state
            self.state = state
            state.stats["build_s"] = cpu_time() - start
        self.state.stats.pop("reason", None)  # the last instalment's "time limit reached"
        status, solution = search(self.state, limits.deadline(), limits)
        if status != UNKNOWN:
            finish(self.state, status)
        outcome = Outcome(status, solution, dict(self.state.stats))
        if status != UNKNOWN:
            self.close()
        return outcome

    def close(self) -> None:
        if self.state is not None:
            self.state.solver.delete()
            self.state = None


def search(run: Run, deadline: float, limits: Limits) -> tuple[str, str]:
    """Solve, cut, solve again until an answer, unsat or the deadline (the CPU clock's, or the helper's
    `out_of_time`): (status, solution).

    A round is the solve calls (`chunk`) until a model or unsat, then the model's cuts (`refine.cut`)."""
    stats = run.stats
    # calls: solve_limited() calls so far in this round, which size the next one's budget; a search that
    # resumes (`Resumable`) goes on with the round where the last one stopped, so its chunks are the ones
    # a search never stopped would make: the same search, whatever its instalments
    calls, in_round, round_s = run.calls, run.partial > 0, 0.0
    stats["iterations"] -= run.partial
    while True:
        t0, c0 = cpu_time(), run.solver.accum_stats()["conflicts"] + run.spent
        if run.colour == "late" and c0 >= run.colour_after:
            rebuild.add_faces(run, c0)
            t0, calls = cpu_time(), 0
        if time.process_time() >= deadline or (run.helper is not None and run.helper.out_of_time()):
            run.calls, run.partial = calls, int(in_round)
            stats["iterations"] += in_round
            stats["reason"] = f"time limit {limits.time_s:g} s reached"
            return UNKNOWN, ""
        limits.report({**stats, "conflicts": c0})
        answer = chunk(run, calls, c0)
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
        chosen, cuts = refine.cut(run)
        solution = "" if cuts else run.problem.arrays.solution(chosen)
        outside = cpu_time() - t1
        stats["outside_cpu_s"] += outside
        if len(run.rounds) < ROUNDS_KEPT:
            run.rounds.append([round(round_s, 6), round(outside, 6), len(cuts)])
        round_s = 0.0
        if not cuts:
            return SAT, solution
        if rebuild.restart_due(run):
            rebuild.restart(run)


def chunk(run: Run, calls: int, conflicts: int) -> bool | None:
    """One solve call: True (a model), False (unsat) or None (its budget spent, or the helper out of
    time: its empty clause ended the call, and the loop's top stops).

    Chunked: `calls` sizes its conflict budget (`chunk_budget`), and under `colour=late` the chunk
    ends where the faces would come in (`conflicts` so far)."""
    solver = run.solver
    if not run.strategy.chunked:
        answer = solver.solve()
        return None if run.helper is not None and run.helper.out_of_time() else answer
    budget = chunk_budget(calls)
    solver.conf_budget(budget if run.colour != "late" else min(budget, run.colour_after - conflicts))
    return solver.solve_limited()


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
