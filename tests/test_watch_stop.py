"""The loop watch stops a solve at its deadline through CaDiCaL itself, never by raising into it.

Its CPU clock is a counter here, read at every propagate() call, so each stop point is the same
point of the search on every run. Before the stop was the empty clause, the watch raised out of
propagate(): PySAT's glue then let CaDiCaL search on, answered each reason it asked with the empty
clause, and conflict analysis died of SIGSEGV: graph1 stopped at the 42nd reading under `propagator`,
the 46th and 87th under `connect`; graph31 at 49 of the first 200 under `propagator` (the first at
the 111th), the 193rd under `connect`. So every sweep runs in a child.
"""

from __future__ import annotations

import multiprocessing
import signal
from itertools import count

import pytest
from helpers import bundled

from harness.encoding import UNKNOWN, Limits
from loopbench_encodings import loop
from loopbench_encodings.cegar.solvers import new_solver
from loopbench_encodings.loop import watch
from loopbench_encodings.loop.cnf import loop_clauses
from loopbench_encodings.loop.connect import connect_watch
from loopbench_encodings.propagator import Propagator

STOPS = range(1, 201)  # clock readings before the stop: the crashes above fall in it


def counter():
    """A clock that reads 1, 2, 3, ...: a deadline of k - 0.5 passes at its k-th reading."""
    ticks = count(1)
    return lambda: float(next(ticks))


def stop_at(puzzle, helper: str, k: int) -> tuple[bool, bool]:
    """solve()'s answer and the watch's out_of_time() when the clock passes at reading k."""
    problem = loop.problem(puzzle)
    m = problem.arrays.num_edges
    solver = new_solver("cadical195", loop_clauses(puzzle, problem), {"vivify": 0, "probe": 0, "seed": 0})
    solver.set_phases(list(range(-1, -m - 1, -1)))  # as the encodings start it: edges off first
    stopper = watch.loop_watch(problem, "loop", deadline=k - 0.5, cpu_clock=counter())
    connected = stopper if helper == "propagator" else connect_watch(problem, stopper, 1.0)
    solver.connect_propagator(connected)
    for var in range(1, m + 1):
        solver.observe(var)
    try:
        return solver.solve(), connected.out_of_time()
    finally:
        solver.delete()


def sweep(puzzle, helper: str, out) -> None:
    """Stop `puzzle` at every point of STOPS, each result sent on `out` (a child process's work)."""
    watch.CLOCK_EVERY = 1  # the clock at every propagate() call: each stop point a call of its own
    for k in STOPS:
        out.send((k, *stop_at(puzzle, helper, k)))
    out.close()


@pytest.mark.parametrize("name", ["graph1", "graph31"])
@pytest.mark.parametrize("helper", ["propagator", "connect"])
def test_every_stop_point_ends_the_solve_without_a_crash(name, helper):
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    # read here, before the fork: the set's hundred graphs take seconds to load, once per session
    child = context.Process(target=sweep, args=(bundled(name, "fhcp-sample").puzzle, helper, send))
    child.start()
    send.close()
    results = []
    while True:
        try:
            results.append(receive.recv())
        except EOFError:
            break
    child.join()
    if child.exitcode < 0:
        stopped_at = results[-1][0] + 1 if results else STOPS[0]
        pytest.fail(f"{name} under {helper}: the solve stopped at reading {stopped_at} died of "
                    f"{signal.Signals(-child.exitcode).name}")
    assert child.exitcode == 0
    # every stop is the watch's: no answer (False, the empty clause) and the watch says so
    assert results == [(k, False, True) for k in STOPS]


def test_the_stop_is_no_unsat_answer():
    # the encoding's own solve loop, its watch on a counter: a stop is `unknown` at the time limit
    class Counted(Propagator):
        def attach(self, solver, problem, deadline, recorder=None):
            stopper = watch.loop_watch(problem, "loop", deadline=1.5, cpu_clock=counter())
            solver.connect_propagator(stopper)
            for var in range(1, problem.arrays.num_edges + 1):
                solver.observe(var)
            return stopper

    outcome = Counted().solve(bundled("graph31", "fhcp-sample").puzzle, Limits(time_s=60.0), 0)
    assert outcome.status == UNKNOWN and outcome.stats["reason"] == "time limit 60 s reached"
    assert outcome.stats["iterations"] == 1 and outcome.stats["chunks"] == 1
