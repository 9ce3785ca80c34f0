"""The sweep command: faults end with the right status and the sweep goes on, resume, bad input, SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from helpers import alive, children, write_instances

from harness.analysis import results
from harness.run.cli import main

ROOT = Path(__file__).resolve().parents[1]
FAULTS = "ok,hang,spin,alloc,abort,raise,exit"  # seed i takes fault i (the dummy's comma list)
EXPECTED = {"hang": "timeout", "spin": "timeout", "alloc": "memout", "abort": "crash", "raise": "crash",
            "exit": "crash"}


def test_faults_end_with_the_right_status_and_the_sweep_goes_on(tmp_path, capsys):
    folder = write_instances(tmp_path / "set", [(2, 2), (2, 3)])
    db = tmp_path / "runs.sqlite"
    code = main([
        "--encoding", "dummy", "--instances", str(folder), "--db", str(db),
        "--time-limit", "1", "--wall-limit", "2.5", "--memory-limit", "300", "--jobs", "2",
        "--seed", *map(str, range(7)),
        "--option", f"behave={FAULTS}", "--option", "status=sat", "--option", "solution=9c/36",
    ])
    assert code == 0
    runs = results.load(db).set_index(["instance", "seed"])
    assert len(runs) == 14
    assert (runs["time_limit_s"] == 1.0).all() and (runs["memory_limit_mb"] == 300).all()
    for seed, fault in enumerate(FAULTS.split(",")[1:], start=1):
        for instance in ("empty2x2", "empty2x3"):
            assert runs.loc[(instance, seed), "status"] == EXPECTED[fault], runs.loc[(instance, seed)]
    # The other runs are intact: the 2x2 loop is right for the 2x2 grid and wrong for the 2x3 one.
    good, bad = runs.loc[("empty2x2", 0)], runs.loc[("empty2x3", 0)]
    assert (good["status"], good["verified"], good["solution"]) == ("solved", 1, "9c/36")
    assert (bad["status"], bad["verified"]) == ("wrong", 0) and bad["detail"]
    assert runs.loc[("empty2x2", 3), "peak_rss_mb"] <= 330  # memory limit within 10 %
    assert runs.loc[("empty2x2", 2), "cpu_s"] >= 1.0  # spin killed at its CPU limit, not before
    out = capsys.readouterr().out
    assert "par2_s" in out and "dummy" in out and "14 recorded" in out


def test_resume_skips_done_runs_and_defaults_count_as_given(tmp_path, capsys):
    folder = write_instances(tmp_path / "set", [(2, 2), (3, 3)])
    db = tmp_path / "runs.sqlite"
    argv = ["--encoding", "dummy", "--instances", str(folder), "--db", str(db), "--seed", "0", "1"]
    assert main(argv) == 0
    first = results.load(db)
    assert len(first) == 4
    # `behave=ok` is the dummy's default: the same runs, so nothing is run again.
    assert main([*argv, "--option", "behave=ok"]) == 0
    assert "4 already stored, 0 recorded" in capsys.readouterr().out
    pd.testing.assert_frame_equal(results.load(db), first)
    with sqlite3.connect(db) as conn:
        query = "SELECT planned, skipped, recorded, config FROM sweeps ORDER BY started_at"
        sweeps = conn.execute(query).fetchall()
    assert [s[:3] for s in sweeps] == [(4, 0, 4), (4, 4, 0)]
    assert json.loads(sweeps[0][3])["options"]["dummy"]["behave"] == "ok"
    assert (db.with_suffix(".parquet")).is_file()


def test_a_longer_time_limit_runs_again_what_timed_out_under_a_shorter_one(tmp_path, capsys):
    folder = write_instances(tmp_path / "set", [(2, 2)])
    db = tmp_path / "runs.sqlite"
    argv = ["--encoding", "dummy", "--instances", str(folder), "--db", str(db),
            "--option", "behave=sleep", "--option", "seconds=0.5"]
    assert main([*argv, "--time-limit", "0.2", "--wall-limit", "0.3"]) == 0
    assert main([*argv, "--time-limit", "5"]) == 0
    assert capsys.readouterr().out.count("1 runs planned, 0 already stored, 1 recorded") == 2
    runs = results.load(db).set_index("time_limit_s")
    assert len(runs) == 2
    assert runs.loc[0.2, "status"] == "timeout" and runs.loc[5.0, "status"] == "unknown"


def test_an_unsat_claim_is_unproven_then_refuted_and_the_disagreement_is_listed(tmp_path, capsys):
    folder = write_instances(tmp_path / "set", [(2, 2), (2, 3)])
    db = tmp_path / "runs.sqlite"
    argv = ["--instances", str(folder), "--db", str(db)]
    assert main(["--encoding", "dummy", "--option", "status=unsat", *argv]) == 0
    out = capsys.readouterr().out
    assert "unproven" in out and "disagreements" not in out
    table = results.load(db)
    assert set(table["unsat_verdict"]) == {"unproven"}
    assert main(["--encoding", "sat", *argv]) == 0  # sat solves both: the dummy's claims are refuted
    out = capsys.readouterr().out
    assert "disagreements: 2 puzzle(s)" in out and "empty2x3" in out
    assert set(results.load(db).dropna(subset=["unsat_verdict"])["unsat_verdict"]) == {"refuted"}
    # On a bundled puzzle with a known solution the claim is wrong at once.
    assert main(["--encoding", "dummy", "--option", "status=unsat", "--instances", "masyu-seed",
                 "--db", str(db)]) == 0
    wrong = results.load(db).query("source.str.startswith('masyu-janko-java')")
    assert set(wrong["status"]) == {"wrong"} and "known solution" in capsys.readouterr().out


def test_a_malformed_instance_is_an_error_row_and_the_sweep_exits_0(tmp_path, capsys):
    folder = write_instances(tmp_path / "set", [(2, 2)])
    (folder / "broken.txt").write_text("3 3\n- - -\n- x -\n- - -\n")
    db = tmp_path / "runs.sqlite"
    assert main(["--encoding", "dummy", "--instances", str(folder), "--db", str(db)]) == 0
    runs = results.load(db).set_index("instance")
    assert runs.loc["empty2x2", "status"] == "unknown"
    broken = runs.loc["broken"]
    assert broken["status"] == "error" and f"{folder / 'broken.txt'}:3" in broken["detail"]
    assert "\n" not in broken["detail"]
    assert "harness.run: 2/2 runs" in capsys.readouterr().err  # the log line of a non-terminal


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--instances", "/no/such/place"], "/no/such/place"),
        (["--instances", "{empty}"], "holds no puzzle files"),  # a folder that exists, with no .txt in it
        (["--option", "colour=red"], "colour"),
        (["--option", "seconds=soon"], "soon"),
        (["--encoding", "nosuch"], "nosuch"),
        (["--scheduler", "tcp://localhost:1"], "--scheduler"),
    ],
)
def test_argument_errors_are_one_line_and_exit_2(tmp_path, capsys, extra, words):
    folder = write_instances(tmp_path / "set", [(2, 2)])
    (tmp_path / "empty").mkdir()
    extra = [arg.replace("{empty}", str(tmp_path / "empty")) for arg in extra]
    db = str(tmp_path / "r.sqlite")
    code = main(["--encoding", "dummy", "--instances", str(folder), "--db", db, *extra])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and words in err and "Traceback" not in err
    assert not (tmp_path / "r.sqlite").exists()


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--wall-limit", "nan"], "--wall-limit must be a number, not nan"),  # it turned the hang guard off
        (["--time-limit", "nan"], "--time-limit must be a number, not nan"),  # every run a crash
        (["--time-limit", "inf"], "--time-limit must be finite, not inf"),
        (["--time-limit", "1e400"], "--time-limit must be finite, not inf"),  # argparse reads it as inf
        (["--check-time-limit=-inf"], "--check-time-limit must be finite, not -inf"),
        (["--time-limit", "0"], "--time-limit must be positive, not 0"),
        (["--time-limit", "1e12"], "--time-limit 1e+12 is past the largest"),
        (["--memory-limit", "99999999999999999999"], "--memory-limit 1e+20 is past the largest"),
        (["--check-memory-limit", "0"], "--check-memory-limit must be positive"),
    ],
)
def test_a_limit_that_is_no_number_a_run_can_be_held_to_is_refused_with_the_reason(tmp_path, capsys, extra,
                                                                                     words):
    folder = write_instances(tmp_path / "set", [(2, 2)])
    db = tmp_path / "r.sqlite"
    code = main(["--encoding", "dummy", "--instances", str(folder), "--db", str(db), *extra])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and words in err and "Traceback" not in err
    assert not db.exists()  # refused before anything ran


def test_a_wall_limit_below_the_cpu_limit_is_warned_about_and_the_sweep_runs(tmp_path, capsys):
    folder = write_instances(tmp_path / "set", [(2, 2)])
    argv = ["--encoding", "dummy", "--instances", str(folder), "--db", str(tmp_path / "r.sqlite")]
    assert main([*argv, "--time-limit", "10", "--wall-limit", "4", "--check-time-limit", "3"]) == 0
    err = capsys.readouterr().err
    assert "warning: --wall-limit 4 is below --time-limit 10" in err and "--check-time-limit" not in err
    assert main([*argv, "--time-limit", "2", "--wall-limit", "8", "--rerun"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_a_nonexistent_path_exits_2_from_the_command_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "harness.run", "--encoding", "dummy", "--instances", str(tmp_path / "nope"),
         "--db", str(tmp_path / "r.sqlite")],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and "nope" in done.stderr and "Traceback" not in done.stderr


def count_rows(db: Path) -> int:
    try:
        with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as conn:
            return conn.execute("SELECT count(*) FROM runs").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_sweep_killed_with_sigkill_resumes_with_every_run_once(tmp_path):
    sizes = [(r, c) for r in range(2, 6) for c in range(2, 6)]
    folder = write_instances(tmp_path / "set", sizes)
    db = tmp_path / "runs.sqlite"
    command = [sys.executable, "-m", "harness.run", "--encoding", "dummy", "--instances", str(folder),
               "--db", str(db), "--jobs", "2", "--option", "behave=sleep", "--option", "seconds=0.3"]
    scratch = tmp_path / "tmp"  # the workers' temporary folders go here
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    sweep = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    deadline = time.monotonic() + 60
    while count_rows(db) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = children(sweep.pid)
    sweep.send_signal(signal.SIGKILL)
    sweep.wait()
    stored = count_rows(db)
    assert 4 <= stored < len(sizes), "the sweep was not killed mid-way"
    assert workers, "the sweep had no worker processes"
    # Orphaned workers notice and go (end of input when idle, the parent watchdog when busy).
    deadline = time.monotonic() + 60
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers)
    assert list(scratch.iterdir()) == []  # and they took their temporary folders with them

    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{stored} already stored" in done.stdout
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        keys = [k for (k,) in conn.execute("SELECT run_key FROM runs")]
    runs = results.load(db)
    assert len(keys) == len(set(keys)) == len(sizes)
    assert sorted(runs["instance"]) == sorted(f"empty{r}x{c}" for r, c in sizes)
    assert set(runs["status"]) == {"unknown"}


def test_an_encoding_dotted_option_reaches_that_encoding_only():
    from harness.run.sweep import Sweep

    plan = Sweep(instances=[], encodings=["circuit", "sat"], options={"sat.implied": "false", "note": "x"})
    assert plan.options_of("sat") == {"implied": "false", "note": "x"}
    assert plan.options_of("circuit") == {"note": "x"}
    plan.options.pop("note")
    resolved = plan.resolved_options()
    assert resolved["sat"]["implied"] == "false" and resolved["circuit"]["implied"] == "true"
    with pytest.raises(ValueError, match="lazy, which this sweep does not run"):
        Sweep(instances=[], encodings=["sat"], options={"lazy.cuts": "cutset"}).resolved_options()
    with pytest.raises(ValueError, match="no option"):
        Sweep(instances=[], encodings=["circuit"], options={"circuit.eager": "all"}).resolved_options()


def test_the_sweep_returns_what_it_stored_and_the_summary_is_the_analysis_sides(tmp_path):
    from harness import sets
    from harness.analysis import sweep_summary
    from harness.run import sweep

    folder = write_instances(tmp_path / "set", [(2, 2), (2, 3)])
    db = tmp_path / "runs.sqlite"
    plan = sweep.Sweep(instances=sets.resolve(str(folder)), encodings=["dummy"], seeds=[0, 1], db=db,
                       options={"status": "sat", "solution": "9c/36"})
    report = sweep.run(plan, progress=False)
    stored = set(results.load(db)["run_key"])
    assert (report.planned, report.recorded, report.failed) == (4, 4, 0) and report.keys == stored
    again = sweep.run(plan, progress=False)  # nothing left to run: the same keys, stored before
    assert (again.skipped, again.recorded, again.keys) == (4, 0, report.keys)
    shown = sweep_summary.of(db, report.keys)
    label = "dummy[status=sat,solution=9c/36]"  # alone and off its defaults: labelled with how it differs
    assert (shown.summary.loc[label, "solved"], shown.summary.loc[label, "wrong"]) == (2, 2)
    assert "solve_cpu_s" in shown.clock and shown.disagreements.empty
    assert sweep_summary.of(db, set()).summary.empty
