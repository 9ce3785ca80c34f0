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
    # A knight's graph of 1,936 vertices: built in ~0.2 s of CPU, its first chunk of 10,000 conflicts
    # takes over a second, so the supervisor kills the run inside it (0.5 s + grace)
    instance = bundled("graph-knight-1936-s2026-000", "graph-hard")
    row = seen(supervisor.run(spec(instance, "sat", {}, time_s=0.5)))
    assert row["status"] == "timeout" and row["detail"].startswith("killed at"), row
    assert row["build_s"] > 0 and row["build_clock"] == "cpu"
    assert row["solver"] == "cadical195" and row["variables"] > 0 and row["cadical_seed"] == 0
    assert (row["iterations"], row["chunks"], row["conflicts"], row["cuts"]) == (0, 0, 0, 0)
    assert row["build_s"] <= row["progress_cpu_s"] < 0.5
