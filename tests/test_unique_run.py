"""`--unique` under a real supervisor and worker: a verified first answer is never lost to the second solve,
which has a CPU budget of its own, measured from its own start."""

from __future__ import annotations

import json

from harness import registry
from harness.run.sweep import Sweep, make_spec


def unique_spec(instance, time_s=1.0, **options):
    sweep = Sweep(instances=[instance], encodings=["dummy"], time_s=time_s, memory_mb=400, unique=True)
    options = registry.create("dummy", status="sat", solution="9c/36", **options).options
    return make_spec(sweep, instance, "dummy", options, 0)


def test_a_second_solve_that_uses_its_whole_budget_leaves_the_first_answer_whole(supervisor, empty_2x2):
    supervisor.run(unique_spec(empty_2x2))  # a warm worker: the run below pays only for its own work
    # The first solve answers at once; the second burns its clock out, as an encoding that stops itself
    # in time does. The run used more CPU than one limit, all of it in the second solve.
    row = supervisor.run(unique_spec(empty_2x2, again="clock"))
    assert (row["status"], row["solution"], row["verified"]) == ("solved", "9c/36", 1), row
    assert row["unique"] is None and "uniqueness unknown: time limit" in row["detail"]
    assert row["solve_cpu_s"] < 1.0 <= row["unique_s"]  # its own budget, from its own start
    assert row["cpu_s"] > 1.0  # the supervisor let the run have both budgets


def test_a_second_solve_that_ignores_its_clock_is_killed_and_the_first_answer_kept(supervisor, empty_2x2):
    row = supervisor.run(unique_spec(empty_2x2, again="spin"))
    assert (row["status"], row["solution"], row["verified"]) == ("solved", "9c/36", 1), row
    assert row["unique"] is None
    assert "uniqueness unknown: the second solve ended in timeout: killed" in row["detail"]
    assert supervisor.worker is None  # killed, so retired


def test_a_quick_second_solve_gives_a_verdict_and_its_time(supervisor, empty_2x2):
    row = supervisor.run(unique_spec(empty_2x2, again="ok"))
    assert (row["status"], row["unique"]) == ("solved", 1), row
    assert row["unique_s"] >= 0 and row["check_s"] >= 0 and row["solve_cpu_s"] >= 0
    assert "unique_s" not in json.loads(row.get("extra") or "{}")  # a column now, not an extra
