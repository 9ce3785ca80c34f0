"""Uniqueness, for every kind and every encoding that can exclude solutions: ask again without the one found.

`ask_again` is the one mechanism: the run path (`harness.run.execute`, `--unique`) calls it with
the verified solution and the run's time limit, a CPU budget of its own counted from the second
solve's start; generators call it through
`is_unique` with the solution they built. The second answer is judged by the independent checker
like any other before it counts as a second solution.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from harness import kinds, registry
from harness.encoding import SAT, UNSAT, Encoding, Limits, cpu_time

# The options a generator's checks run with, pinned to those its bundled puzzles were made with: a
# clause added to sat's CNF (`implied=true`, `colour`'s faces) or a solve between its rounds
# (`alone=true`) changes its search, so the second solutions it finds, so the puzzles a seed gives.
GENERATOR_OPTIONS = {"sat": {"implied": "false", "alone": "false", "colour": "off"},
                     "propagator": {"implied": "false"}}


@dataclass(frozen=True)
class Verdict:
    """`unique`: 1 no other solution, 0 another (`second`, checked), None no verdict (`detail` says why).

    `solve_s` and `solve_cpu_s`: the second solve's wall and CPU time.
    """

    unique: int | None
    second: str = ""
    detail: str = ""
    solve_s: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    solve_cpu_s: float = 0.0


def ask_again(solver: Encoding, puzzle: Any, solution: str, limits: Limits, seed: int) -> Verdict:
    """Ask `solver` for a solution of `puzzle` other than `solution` (a correct one), within `limits`."""
    if not solver.excludes:
        why = f"uniqueness not asked: encoding {solver.name!r} cannot exclude a solution"
        return Verdict(None, detail=why)
    if limits.time_s <= 0:
        return Verdict(None, detail="uniqueness not asked: no time left in the run's budget")
    cpu0, spent0, start = cpu_time(), cpu_time(children=True), time.perf_counter()
    # The budget counts from this solve's start, whatever the first solve used; its CPU counts the
    # child processes the encoding waited for, as the first solve's does.
    outcome = solver.solve(puzzle, replace(limits, cpu_origin=cpu0), seed, exclude=(solution,))
    spent = {"solve_s": time.perf_counter() - start, "solve_cpu_s": cpu_time(children=True) - spent0,
             "stats": outcome.stats}
    if outcome.status == UNSAT:
        return Verdict(1, **spent)
    if outcome.status == SAT:
        if outcome.solution == solution:
            detail = "uniqueness unknown: the second solve returned the excluded solution"
            return Verdict(None, detail=detail, **spent)
        problems = kinds.check(puzzle, outcome.solution)
        if problems:
            detail = (f"uniqueness unknown: the checker rejects the second solution ({problems[0]}): "
                      f"{outcome.solution}")
            return Verdict(None, detail=detail, **spent)
        return Verdict(0, outcome.solution, f"second solution (checked): {outcome.solution}", **spent)
    reason = outcome.stats.get("reason") or f"the encoding said {outcome.status}"
    return Verdict(None, detail=f"uniqueness unknown: {reason}", **spent)


def is_unique(puzzle: Any, solution: str, encoding: str = "cpsat", options: dict[str, Any] | None = None,
              time_s: float = 60.0, seed: int = 0) -> Verdict:
    """Whether the correct `solution` is the only one of `puzzle`, asked of the encoding named `encoding`.

    ValueError when the encoding does not serve the puzzle's kind or cannot exclude solutions.
    """
    solver = registry.create(encoding, **(options or {}))
    if not solver.supports(puzzle):
        raise ValueError(f"encoding {encoding!r} does not support {puzzle.kind} puzzles")
    if not solver.excludes:
        raise ValueError(f"encoding {encoding!r} cannot exclude a solution, so it cannot check uniqueness")
    solver.prepare()
    return ask_again(solver, puzzle, solution, Limits(time_s=time_s), seed)


def is_unique_apart(puzzle: Any, solution: str, encoding: str = "cpsat",
                    options: dict[str, Any] | None = None, time_s: float = 60.0, seed: int = 0,
                    memory_mb: int = 2048) -> Verdict:
    """`is_unique` in a forked child with `memory_mb` MB to spare (`harness.apart.call_apart`): a check
    that dies there gives no verdict (unique None, `detail` says how) instead of taking the caller down."""
    from harness.apart import Died, call_apart

    try:
        return call_apart(lambda: is_unique(puzzle, solution, encoding, options, time_s, seed), memory_mb)
    except Died as why:
        return Verdict(None, detail=f"uniqueness unknown: {why}")
