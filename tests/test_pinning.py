"""Pinned and recorded: a core per local job, cores and CPU model in every run, mixed machines warned of."""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest

from harness import registry
from harness.analysis.machines import machine_note
from harness.run import cores
from harness.run.executors import LocalExecutor
from harness.run.sweep import Sweep, make_spec


@pytest.mark.parametrize(("jobs", "available", "sets", "rest"), [
    (1, [0, 1], [[1]], [0]),  # the job on the highest core, the harness on the other
    (2, [0, 1], [[0], [1]], []),  # a core per job, none left: the harness shares
    (2, [0, 1, 2, 3], [[2], [3]], [0, 1]),
    (3, [0, 1], [], [0, 1]),  # more jobs than cores: nothing pinned
])
def test_each_job_gets_a_core_of_its_own_and_the_harness_the_rest(jobs, available, sets, rest):
    assert cores.core_sets(jobs, available) == (sets, rest)


def test_a_second_sweep_claims_the_highest_core_the_first_left_free(tmp_path):
    first, _, held = cores.claim_cores(1, [0, 1, 2], tmp_path)
    second, rest, also = cores.claim_cores(1, [0, 1, 2], tmp_path)
    assert (first, second, rest) == ([[2]], [[1]], [0, 2])  # not both on core 2
    third, _, more = cores.claim_cores(2, [0, 1, 2], tmp_path)  # one core free for two jobs: shared
    assert third == [[1], [2]] and more == []
    cores.release(held)
    again, _, back = cores.claim_cores(1, [0, 1, 2], tmp_path)  # the first sweep's core let go
    assert again == [[2]]
    cores.release(also + back)


def test_no_place_for_claims_pins_as_before(tmp_path):
    (tmp_path / "file").write_text("")
    assert cores.claim_cores(1, [0, 1], tmp_path / "file" / "claims") == ([[1]], [0], [])


def test_a_local_sweeps_runs_are_pinned_and_record_their_cores_and_cpu_model(empty_2x2):
    available = sorted(os.sched_getaffinity(0))
    if len(available) < 2:
        pytest.skip("one core: a job cannot have a core of its own apart from the harness")
    sweep = Sweep(instances=[empty_2x2], encodings=["dummy"], seeds=[0, 1], time_s=5.0, memory_mb=400)
    options = registry.create("dummy").options
    specs = [make_spec(sweep, empty_2x2, "dummy", options, seed) for seed in (0, 1)]
    before = os.sched_getaffinity(0)
    with LocalExecutor(jobs=1) as executor:
        rows = [row for _spec, row, error in executor.run(specs) if error is None]
        # the job's core: the highest free one (`cores.claim_cores`), another if a sweep beside this
        # test holds that one; the coordinator is off it
        job_core = {int(row["cores"]) for row in rows}
        assert len(job_core) == 1 and job_core <= set(available)
        assert os.sched_getaffinity(0) == set(available) - job_core
    assert os.sched_getaffinity(0) == before  # and back as it was
    assert len(rows) == 2
    for row in rows:
        assert row["status"] == "unknown"
        assert row["cpu_model"] == cores.cpu_model() != ""


def runs(*machines: tuple[str, str]) -> pd.DataFrame:
    extra = [json.dumps({"cpu_model": model} if model else {}) for _, model in machines]
    return pd.DataFrame({"host": [host for host, _ in machines], "extra": extra})


def test_a_comparison_of_runs_on_one_machine_is_not_warned_of():
    assert machine_note(runs(("a", "EPYC"), ("a", "EPYC"))) == ""
    assert machine_note(runs(("a", "EPYC"), ("a", ""))) == ""  # an old row without a model: nothing to say


def test_a_comparison_mixing_hosts_or_cpu_models_is_warned_of():
    note = machine_note(runs(("a", "EPYC"), ("b", "EPYC")))
    assert "2 hosts (a: 1 runs, b: 1 runs)" in note and "not comparable" in note
    note = machine_note(runs(("a", "EPYC"), ("a", "Xeon"), ("a", "")))
    assert "2 CPU models" in note and "1 runs without a recorded CPU model" in note
