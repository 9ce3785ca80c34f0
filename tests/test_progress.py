"""A run the runner stops in its solve keeps the statistics the solve reported so far (`Limits.report`).

Without them a run whose chunk ran past its limit was recorded with no build time, rounds or
conflicts at all: the worker was killed before it could answer. Real worker processes throughout.
"""

from __future__ import annotations

import json

from helpers import bundled

from harness import registry
from harness.run.sweep import Sweep, make_spec
from harness.run.worker import PROGRESS_EVERY_S
from loopbench_encodings._plain_sat import chunk_budget

CONFLICT_STREAK = 50  # conflicts past a chunk's budget CaDiCaL may make before it looks (see below)


def seen(row):
    """The row with its `extra` JSON merged in, as the store would keep it."""
    return {**json.loads(row.get("extra") or "{}"), **row}


def spec(instance, encoding, options, time_s):
    sweep = Sweep(instances=[instance], encodings=[encoding], time_s=time_s, memory_mb=1000)
    return make_spec(sweep, instance, encoding, registry.create(encoding, **options).options, 0)


def test_rounds_reported_before_the_kill_are_kept(supervisor, empty_2x2):
    # 20 ms of CPU a round, never reading the clock: killed at 0.5 s + grace, some 25 rounds in
    options = {"behave": "rounds", "seconds": 0.02}
    row = seen(supervisor.run(spec(empty_2x2, "dummy", options, time_s=0.5)))
    assert row["status"] == "timeout" and row["detail"].startswith("killed at"), row
    killed_at = float(row["detail"].split()[2])
    assert 0.5 <= killed_at
    # the latest write is at most PROGRESS_EVERY_S (and one round) older than the last report
    assert row["iterations"] >= (0.5 - PROGRESS_EVERY_S - 0.02) / 0.02 - 1, row
    assert row["progress_cpu_s"] <= killed_at
    assert row["iterations"] * 0.02 <= row["progress_cpu_s"] + 0.01


def test_a_sat_chunk_past_the_limit_keeps_the_build_and_counts(supervisor):
    # A 70x70 grid graph (4,900 vertices; sat does not solve it in 60 s): built in about 0.1 s of
    # CPU, then chunks of 10,000 conflicts and more (`chunk_budget`), the first one longer than the
    # rest of the 1 s limit here. Where the kill lands (inside the first chunk or, on a faster CPU, a
    # later one; or the encoding stops itself between two) depends on the CPU's speed, so the verdict
    # does not: the row keeps the build and the counts of the last report before the chunk it was
    # in, which the chunks' budgets bound.
    instance = bundled("graph-grid-4900-s2026-000", "graph-hard")
    row = seen(supervisor.run(spec(instance, "sat", {}, time_s=1.0)))
    assert row["status"] == "timeout", row
    assert row["build_s"] > 0 and row["build_clock"] == "cpu", row
    assert row["solver"] == "cadical195" and row["variables"] > 0 and row["cadical_seed"] == 0
    chunks, conflicts = row["chunks"], row["conflicts"]
    assert 0 <= row["iterations"] <= chunks and row["cuts"] >= 0
    # the solver stops a chunk at its budget: the conflicts so far are at most the budgets' sum (none
    # before the first chunk), give or take the conflicts a chunk ends on: CaDiCaL checks its conflict
    # limit only after a propagation without a conflict, so a streak of conflicts one after another
    # runs past it (10,001 after one chunk of 10,000 seen; 30,003 after two of 10,000 and 20,000)
    assert 0 <= conflicts <= sum(chunk_budget(k) + CONFLICT_STREAK for k in range(chunks))
    if row["detail"].startswith("killed at"):  # stopped inside a chunk: the last report came before it
        assert row["build_s"] <= row["progress_cpu_s"] < 1.0
