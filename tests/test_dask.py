"""The Dask executor on a LocalCluster: the same rows as the local one; a lost Dask worker's runs retry."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time

import pytest
from helpers import alive, children, cmdline, write_instances

from harness.analysis import results
from harness.run.cli import main

distributed = pytest.importorskip("dask.distributed")


def test_a_dask_sweep_on_a_local_cluster_records_faults_like_the_local_one(tmp_path, capsys):
    folder = write_instances(tmp_path / "set", [(2, 2), (2, 3)])
    db = tmp_path / "runs.sqlite"
    argv = ["--encoding", "dummy", "--instances", str(folder), "--db", str(db), "--executor", "dask",
            "--jobs", "2", "--time-limit", "1", "--seed", "0", "1", "2",
            "--option", "behave=ok,spin,raise", "--option", "status=sat", "--option", "solution=9c/36"]
    assert main(argv) == 0
    runs = results.load(db).set_index(["instance", "seed"])
    assert len(runs) == 6
    assert runs.loc[("empty2x2", 0), "status"] == "solved" and runs.loc[("empty2x3", 0), "status"] == "wrong"
    assert set(runs.xs(1, level="seed")["status"]) == {"timeout"}
    assert set(runs.xs(2, level="seed")["status"]) == {"crash"}
    assert main(argv) == 0
    assert "6 already stored" in capsys.readouterr().out


def test_a_lost_dask_worker_has_its_runs_retried_and_nothing_counted_twice(tmp_path, capsys):
    sizes = [(r, c) for r in range(2, 5) for c in range(2, 4)]
    folder = write_instances(tmp_path / "set", sizes)
    db = tmp_path / "runs.sqlite"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=logging.ERROR) as cluster, \
            distributed.Client(cluster) as client:
        victims = list(client.run(os.getpid).values())
        orphans = []

        def kill_one_worker_mid_sweep():
            # Wait until the victim is running a task (its harness worker is its child), then kill it.
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                workers = [p for p in children(victims[0]) if b"harness.run.worker" in cmdline(p)]
                if workers:
                    time.sleep(0.3)
                    os.kill(victims[0], signal.SIGKILL)
                    orphans.extend(workers)
                    return
                time.sleep(0.05)

        killer = threading.Thread(target=kill_one_worker_mid_sweep)
        killer.start()
        code = main(["--encoding", "dummy", "--instances", str(folder), "--db", str(db), "--executor", "dask",
                     "--scheduler", cluster.scheduler_address, "--option", "behave=sleep",
                     "--option", "seconds=0.8"])
        killer.join()
        assert not alive(victims[0]), "the Dask worker was not killed"
    # The lost Dask worker's harness worker notices its parent is gone and ends itself.
    deadline = time.monotonic() + 60
    while any(alive(p) for p in orphans) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert orphans and not any(alive(p) for p in orphans)
    assert code == 0
    runs = results.load(db)
    assert len(runs) == runs["run_key"].nunique() == len(sizes)
    assert set(runs["status"]) == {"unknown"}
    assert f"{len(sizes)} recorded, 0 failed" in capsys.readouterr().out

