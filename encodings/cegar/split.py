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

from harness.encoding import SAT, UNKNOWN, UNSAT, Limits, Outcome, cpu_time

from .. import frontier
from ..loop import rotations
from ..loop.split import Split, parts
from . import driver
from .model import Strategy


def solve_loop(strategy: Strategy, puzzle, limits: Limits, seed: int, exclude: tuple[str, ...] = ()
               ) -> Outcome:
    """The driver's solve, after the pre-passes' moment (`prepass`) where it is asked, on two levels where
    `split=hubs` finds the graph's parts."""
    split = strategy.options["split"] == "hubs"
    prepass = [] if strategy.options["prepass"] == "off" else strategy.options["prepass"].split("+")
    if not split and not prepass:
        return driver.solve(strategy, puzzle, limits, seed, exclude)
    start = cpu_time()
    deadline = limits.deadline()  # CPU time, the clock the runner's limit counts
    problem, refused = driver.prepare(strategy, puzzle, start)
    if refused is not None:
        return refused
    tried: dict = {}
    if prepass and not exclude:
        found, tried = by_prepass(prepass, puzzle, problem, seed, limits, start)
        if found is not None:
            return found
    if split and not exclude and (parts_found := split_parts(problem)):
        outcome = solve_split(strategy, problem, parts_found, limits, seed, start, deadline)
    else:
        outcome = driver.run(strategy, puzzle, problem, limits, seed, exclude, start, deadline)
        if split:
            outcome.stats["parts"] = 0
    outcome.stats.update(tried)
    return outcome


def by_prepass(passes: list[str], puzzle, problem, seed: int, limits: Limits,
               start: float) -> tuple[Outcome | None, dict]:
    """The pre-passes in their order (`frontier`, `rotations`), each a cycle through every vertex on its
    own small budget: the answer (None without one) and the stats that say what they tried (`prepass`:
    found or missed, `prepass_by`: which found it, `prepass_frontier`: what the frontier search met,
    `prepass_cpu_s`: their CPU together)."""
    graph = problem.graph
    if len(problem.required) != graph.num_vertices or problem.hits or puzzle.kind != "graph":
        return None, {"prepass": "not a Hamiltonian cycle problem"}
    t0 = cpu_time()
    tried: dict = {"prepass": "missed"}
    for name in passes:
        if name == "frontier":
            edges = by_frontier(puzzle, graph, limits, tried)
        else:
            edges = by_rotations(graph, seed, limits)
        if edges is not None:
            tried.update(prepass="found", prepass_by=name)
            break
    tried["prepass_cpu_s"] = cpu_time() - t0
    if edges is None:
        return None, tried
    stats = {**tried, "build_s": cpu_time() - start, "iterations": 0, "cuts": 0}
    return Outcome(SAT, problem.solution(edges), stats), tried


def by_rotations(graph, seed: int, limits: Limits) -> list[int] | None:
    """`loop.rotations`' cycle, its edges by index, or None."""
    order = rotations.cycle(rotations.neighbours(graph), seed, rotations.deadline_for(limits.time_s))
    if order is None:
        return None
    return [graph.between(u, v) for u, v in zip(order, order[1:] + order[:1], strict=True)]


def by_frontier(puzzle, graph, limits: Limits, tried: dict) -> list[int] | None:
    """The frontier search's cycle on its pre-pass bounds (`frontier.prepass_cycle`), its edges by index
    in the loop graph, or None; what it met goes to `tried`."""
    cycle, tried["prepass_frontier"] = frontier.prepass_cycle(
        puzzle, time.process_time() + frontier.prepass_seconds(limits.time_s))
    return None if cycle is None else [graph.between(u, v) for u, v in cycle]


def split_parts(problem) -> list:
    """The problem's parts (`loop.split.parts`) when every vertex is required, else []."""
    graph = problem.graph
    if len(problem.required) != graph.num_vertices:
        return []
    return parts(tuple(map(tuple, rotations.neighbours(graph))))


def solve_split(strategy: Strategy, problem, found: list, limits: Limits, seed: int, start: float,
                deadline: float) -> Outcome:
    """The two levels of `loop.split`, each part's sub-solve the strategy's own with `split=off`, on the
    CPU clock's deadline."""
    whole = replace(strategy, options={**strategy.options, "split": "off"})
    graph = problem.graph

    def start_part(part) -> driver.Resumable:
        return driver.Resumable(whole, part, seed, limits.memory_mb)

    stats = {"parts": len(found), "part_sizes": [len(p.vertices) for p in found], "top_models": 0,
             "passes": 1, "sub_solves": 0, "sub_resumed": 0, "sub_cpu_s": 0.0, "iterations": 0, "cuts": 0}
    two = Split(tuple(graph.ends), found, start_part, stats)
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
