"""The machine canary: a fixed CPU workload timed during a sweep, so its tables say what a CPU second bought.

A run's CPU time is what its limit is judged on, but a CPU second is not a fixed amount of work: on
a shared virtual machine (a busy host, a throttled core, a sibling hyperthread) the same search with
the same conflicts has taken several times the CPU time it takes on an idle one while the runs'
wall/CPU ratio (`harness.analysis.sweeps.load`) hardly moved (results/fhcp/HISTORY.md, 2026-12-02).
The canary measures that directly: the same deterministic work (a CaDiCaL search of a seeded random
3-SAT formula under a conflict budget, and a seeded pure-Python graph search, the two halves of a
CEGAR round) timed in CPU seconds of the calling thread. The coordinator of a sweep reads it when a
batch starts, every `every` seconds while it runs, and when it ends (`Readings`), each reading a row
of the database's `canaries` table; `python -m harness.run.canary --db DB --every 600` reads it
beside a sweep run by other means (another commit's harness, a cluster). `harness.analysis.canary`
puts the readings under the tables. The table is additive: a harness that does not know it ignores
it.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness import provenance
from harness.schema import CANARY_COLUMNS, q

# What the readings measure; a reading of other work would not compare, so it is stored with each.
WORKLOAD = ("canary-1: cadical195, random 3-SAT 500 vars ratio 4.26 seed 20261202, 20000 conflicts; "
            "DFS of a 30000-vertex random graph")
EVERY_ENV = "LOOPBENCH_CANARY_EVERY"  # seconds between readings in a sweep; 0 turns the canary off
DEFAULT_EVERY_S = 600.0


def default_every() -> float:
    """Seconds between a sweep's readings: `LOOPBENCH_CANARY_EVERY` (0 = none), else 600."""
    text = os.environ.get(EVERY_ENV, "")
    try:
        return max(0.0, float(text)) if text else DEFAULT_EVERY_S
    except ValueError:
        raise ValueError(f"{EVERY_ENV}={text!r}: give seconds between canary readings, or 0 for none"
                         ) from None


def _formula(variables: int = 500, ratio: float = 4.26, seed: int = 20261202) -> list[list[int]]:
    rng = random.Random(seed)
    return [[v if rng.random() < 0.5 else -v for v in rng.sample(range(1, variables + 1), 3)]
            for _ in range(int(variables * ratio))]


def _solver_s() -> tuple[float, int]:
    from pysat.solvers import Solver

    formula = _formula()
    start = time.thread_time()
    with Solver(name="cadical195", bootstrap_with=formula) as solver:
        solver.conf_budget(20000)
        solver.solve_limited()
        conflicts = int(solver.accum_stats().get("conflicts", 0))
    return time.thread_time() - start, conflicts


def _python_s(vertices: int = 30000, seed: int = 7) -> tuple[float, int]:
    start = time.thread_time()
    rng = random.Random(seed)
    adjacent: dict[int, list[int]] = {v: [] for v in range(vertices)}
    for _ in range(3 * vertices):
        a, b = rng.randrange(vertices), rng.randrange(vertices)
        adjacent[a].append(b)
        adjacent[b].append(a)
    seen: set[int] = set()
    stack = [0]
    while stack:
        v = stack.pop()
        if v not in seen:
            seen.add(v)
            stack.extend(adjacent[v])
    return time.thread_time() - start, len(seen)


def measure() -> dict[str, Any]:
    """One reading: the workload's CPU seconds (solver, Python) in this thread, with the work done as a
    check that it was the same work (the conflicts and vertices reached are fixed by the seeds)."""
    solver_s, conflicts = _solver_s()
    python_s, reached = _python_s()
    return {"at": provenance.now(), **provenance.host(), "workload": WORKLOAD, "solver_s": solver_s,
            "python_s": python_s, "work": f"{conflicts} conflicts, {reached} vertices"}


def record(db: str | Path, reading: dict[str, Any], sweep_id: str | None = None) -> None:
    """Store one reading in the database's `canaries` table (made if missing; the schema version is left
    as it is, so a harness of before the table still opens the file)."""
    row = {**reading, "sweep_id": sweep_id}
    names = [n for n, _ in CANARY_COLUMNS]
    with sqlite3.connect(db, timeout=60) as conn:
        columns = ", ".join(f"{q(n)} {t}" for n, t in CANARY_COLUMNS)
        conn.execute(f"CREATE TABLE IF NOT EXISTS canaries ({columns})")
        marks = ", ".join("?" for _ in names)
        conn.execute(f"INSERT INTO canaries ({', '.join(map(q, names))}) VALUES ({marks})",
                     [row.get(n) for n in names])
    conn.close()


class Readings:
    """A sweep's readings: one at the start, then one each `every` seconds when `tick` is called (between
    finished runs), one at the end; nothing when `every` is 0."""

    def __init__(self, db: str | Path, sweep_id: str, every: float) -> None:
        self.db, self.sweep_id, self.every = db, sweep_id, every
        self.last = -float("inf")

    def take(self) -> None:
        if self.every <= 0:
            return
        try:
            record(self.db, measure(), self.sweep_id)
        except sqlite3.Error as exc:  # the runs matter more than the readings: say it once and go on
            print(f"harness.run: warning: {self.db}: the canary's reading is not stored ({exc}); "
                  "no more readings this batch", file=sys.stderr)
            self.every = 0.0
        self.last = time.monotonic()

    def tick(self) -> None:
        if self.every > 0 and time.monotonic() - self.last >= self.every:
            self.take()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.run.canary",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path,
                        help="store each reading in this results database's canaries table")
    parser.add_argument("--every", type=float, default=0.0, metavar="SECONDS",
                        help="read again every SECONDS until interrupted (default: once)")
    parser.add_argument("--sweep", help="the sweep id the readings are for (default: none; the tables match "
                                        "readings to a sweep by host and time)")
    ns = parser.parse_args(argv)
    while True:
        reading = measure()
        print(f"{reading['at']} {reading['host']}: solver {reading['solver_s']:.3f} s, Python "
              f"{reading['python_s']:.3f} s ({reading['work']})", flush=True)
        if ns.db is not None:
            try:
                record(ns.db, reading, ns.sweep)
            except sqlite3.Error as exc:
                print(f"harness.run.canary: {ns.db}: {exc}", file=sys.stderr)
                return 1
        if ns.every <= 0:
            return 0
        time.sleep(ns.every)


if __name__ == "__main__":
    sys.exit(main())
