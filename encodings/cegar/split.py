"""The split wrapper (`split=hubs`): a graph whose hubs join blocks by few edges, solved on two levels.

`loop.split` finds the blocks and solves the edges between them by a small SAT problem, each block
by the same strategy with `split=off` (the driver, `driver.solve`) against the paths outside it, on
the run's CPU deadline. A graph that does not split so, or one with a required vertex missing or a
run with `exclude`, is solved whole by the driver, its stats' `parts` 0. `solve_loop` is what every
loop strategy calls: the driver, wrapped so when the strategy's `split` is `hubs`.
"""

from __future__ import annotations

import time
from dataclasses import replace

from harness.encoding import UNKNOWN, UNSAT, Limits, Outcome, cpu_time

from ..loop.split import Split, parts
from . import driver
from .model import Strategy


def solve_loop(strategy: Strategy, puzzle, limits: Limits, seed: int, exclude: tuple[str, ...] = ()
               ) -> Outcome:
    """The driver's solve, on two levels where `split=hubs` finds the graph's parts."""
    if strategy.options["split"] == "off":
        return driver.solve(strategy, puzzle, limits, seed, exclude)
    start = cpu_time()
    deadline = limits.deadline()  # CPU time, the clock the runner's limit counts
    problem, refused = driver.prepare(strategy, puzzle, start)
    if refused is not None:
        return refused
    if not exclude and (found := split_parts(problem)):
        return solve_split(strategy, problem, found, limits, seed, start, deadline)
    outcome = driver.run(strategy, puzzle, problem, limits, seed, exclude, start, deadline)
    outcome.stats["parts"] = 0
    return outcome


def split_parts(problem) -> list:
    """The problem's parts (`loop.split.parts`) when every vertex is required, else []."""
    graph = problem.graph
    if len(problem.required) != graph.num_vertices:
        return []
    ends = graph.ends  # edge i's far end from v is sum(ends[i]) - v
    return parts(tuple(tuple(sum(ends[i]) - v for i in here) for v, here in enumerate(graph.incident)))


def solve_split(strategy: Strategy, problem, found: list, limits: Limits, seed: int, start: float,
                deadline: float) -> Outcome:
    """The two levels of `loop.split`, each part's sub-solve the strategy's own with `split=off`, on the
    CPU clock's deadline."""
    whole = replace(strategy, options={**strategy.options, "split": "off"})
    graph = problem.graph

    def solve_part(part, seconds: float) -> Outcome:
        return driver.solve(whole, part, Limits(time_s=seconds, memory_mb=limits.memory_mb), seed)

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
