"""Run identity includes the code: fingerprints, new runs after a code change, --rerun, newest code shown."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from helpers import write_instances

from harness import fingerprint, kinds, registry
from harness.analysis import results
from harness.instances import load_file
from harness.run.cli import main
from harness.run.supervise import CodeChanged, Supervisor
from harness.run.sweep import Sweep, make_spec

ROOT = Path(__file__).resolve().parents[1]


def test_a_fingerprint_covers_the_encodings_own_modules_and_the_checker_not_other_encodings():
    lazy, sat = fingerprint.scope("lazy"), fingerprint.scope("sat")
    enc = "loopbench_encodings"
    assert {f"{enc}.lazy", f"{enc}.loop.cuts", f"{enc}.loop.cpsat", "harness.kinds.masyu.rules",
            "harness.encoding", "harness.grid", "harness.kinds", "harness.kinds.registry",
            "harness.kinds.masyu.check", "harness.kinds.masyu.formats",
            "harness.kinds.masyu.draw"} <= set(lazy.modules)
    # the parts `Kind` finds by name are there, though no import names them; a kind not served is not
    assert "harness.kinds.walls.rules" not in lazy.modules and "harness.kinds.walls.rules" in sat.modules
    assert f"{enc}.sat" not in lazy.modules and f"{enc}.loop.cnf" not in lazy.modules
    assert f"{enc}.loop.cnf" in sat.modules
    assert "harness.run.sweep" not in lazy.modules  # the runner's own code is not the encoding's
    # a plug-in loader (the kind registry) brings its package's modules, though no import names them
    assert "harness.kinds.masyu" in fingerprint.scope("dummy").modules
    versions = fingerprint.describe("sat")["packages"]
    assert set(versions) == {"python", "python-sat", "networkx"} and all(versions.values())
    assert len({fingerprint.compute(n) for n in registry.names()}) == len(registry.names())


def test_the_harness_fingerprint_covers_the_runner_the_measures_the_checker_dispatch_and_uniqueness():
    modules = set(fingerprint.harness_scope().modules)
    assert {"harness.run.supervise", "harness.run.worker", "harness.run.execute", "harness.unique",
            "harness.encoding", "harness.kinds", "harness.instances"} <= modules
    assert {"harness.kinds.registry", "harness.kinds.reading", "harness.kinds.contract"} <= modules
    folders = tuple(f"harness.kinds.{kind}" for kind in kinds.names())  # the kinds' own: not the runner's
    outside = ("loopbench_encodings", "harness.analysis", *folders, "harness.kinds.janko_loop")
    assert not any(m.startswith(outside) for m in modules)
    described = fingerprint.describe_harness()
    assert described["harness_fingerprint"] == fingerprint.digest(fingerprint.harness_scope())
    assert set(described["modules"]) == modules


def test_rows_carry_the_fingerprint_and_the_key_depends_on_it(tmp_path):
    folder = write_instances(tmp_path / "set", [(2, 2)])
    db = tmp_path / "runs.sqlite"
    assert main(["--encoding", "dummy", "--instances", str(folder), "--db", str(db)]) == 0
    (row,) = results.load(db).itertuples()
    assert row.fingerprint == fingerprint.compute("dummy")
    instance = load_file(str(folder / "empty2x2.txt"))
    spec = make_spec(Sweep([instance], ["dummy"]), instance, "dummy", registry.create("dummy").options, 0)
    assert spec["identity"]["run_key"] == row.run_key
    other = fingerprint.Scope(spec["code"]["modules"][:-1], ())
    assert make_spec(Sweep([instance], ["dummy"]), instance, "dummy", registry.create("dummy").options, 0,
                     other)["identity"]["run_key"] != row.run_key
    # The harness's code is in the key too: a changed runner means new runs.
    assert row.harness_fingerprint == fingerprint.digest(fingerprint.harness_scope())
    runner = fingerprint.Scope(spec["harness_code"]["modules"][:-1], ())
    assert make_spec(Sweep([instance], ["dummy"]), instance, "dummy", registry.create("dummy").options, 0,
                     None, runner)["identity"]["run_key"] != row.run_key


def test_a_worker_whose_code_differs_from_the_plan_stores_nothing(tmp_path):
    instance = load_file(str(write_instances(tmp_path / "set", [(2, 2)]) / "empty2x2.txt"))
    spec = make_spec(Sweep([instance], ["dummy"]), instance, "dummy", registry.create("dummy").options, 0)
    stale = {**spec, "identity": {**spec["identity"], "fingerprint": "0" * 16}}
    supervisor = Supervisor()
    try:
        with pytest.raises(CodeChanged, match="changed during the sweep"):
            supervisor.run(stale)
        runner = {**spec, "identity": {**spec["identity"], "harness_fingerprint": "0" * 16}}
        with pytest.raises(CodeChanged, match="harness_fingerprint"):
            supervisor.run(runner)
        assert supervisor.run(spec)["status"] == "unknown"
    finally:
        supervisor.close()


def copy_project(tmp_path: Path) -> dict[str, str]:
    """The code in a folder of its own (instances linked), and the environment that runs it."""
    code = tmp_path / "code"
    for part in ("harness", "encodings"):
        shutil.copytree(ROOT / part, code / part, ignore=shutil.ignore_patterns("__pycache__"))
    (code / "instances").symlink_to(ROOT / "instances")
    pp = code / ".pp"
    pp.mkdir()
    (pp / "harness").symlink_to(code / "harness")
    (pp / "loopbench_encodings").symlink_to(code / "encodings")
    (pp / "loopbench_instances").symlink_to(code / "instances")
    return {**os.environ, "PYTHONPATH": str(pp)}


def sweep(env: dict[str, str], folder: Path, db: Path, *more: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "harness.run", "--encoding", "dummy,sat", "--instances", str(folder),
         "--db", str(db), *more], capture_output=True, text=True, env=env, timeout=300, cwd=folder.parent)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_changed_code_means_new_runs_and_the_newest_code_is_shown(tmp_path):
    env = copy_project(tmp_path)
    folder = write_instances(tmp_path / "set", [(2, 2), (2, 3)])
    db = tmp_path / "runs.sqlite"
    assert "4 runs planned, 0 already stored, 4 recorded" in sweep(env, folder, db)
    assert "4 runs planned, 4 already stored, 0 recorded" in sweep(env, folder, db)
    dummy = tmp_path / "code" / "encodings" / "dummy.py"
    dummy.write_text(dummy.read_text() + "\n# a change: the dummy's code is not what it was\n")
    assert "4 runs planned, 2 already stored, 2 recorded" in sweep(env, folder, db)  # sat is as it was
    runs = results.load(db)
    assert len(runs) == 6
    assert runs.groupby("encoding")["fingerprint"].nunique().to_dict() == {"dummy": 2, "sat": 1}
    newest = runs.sort_values("finished_at")["fingerprint"][runs["encoding"] == "dummy"].iloc[-1]
    shown = results.latest(runs)
    assert len(shown) == 4 and set(shown.loc[shown["encoding"] == "dummy", "fingerprint"]) == {newest}
    # --rerun: fresh runs of everything, under keys of their own; the old rows stay as history
    assert "4 runs planned, 0 already stored, 4 recorded" in sweep(env, folder, db, "--rerun")
    again = results.load(db)
    assert len(again) == 10 and len(results.latest(again)) == 4
    reruns = again[again["extra"].map(lambda e: "rerun_of" in json.loads(e))]
    assert len(reruns) == 4 and set(results.latest(again)["run_key"]) == set(reruns["run_key"])


def test_a_new_puzzle_kind_changes_only_the_fingerprints_of_encodings_that_serve_it(tmp_path):
    env = copy_project(tmp_path)
    script = "from harness import fingerprint as f; print(f.compute('lazy'), f.compute('dummy'))"

    def prints() -> list[str]:
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                              timeout=120, cwd=tmp_path)  # not the repository: "" on sys.path is the cwd
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    before = prints()
    newkind = tmp_path / "code" / "harness" / "kinds" / "newkind"
    newkind.mkdir()
    (newkind / "__init__.py").write_text(
        '"""A new kind: only the dummy serves it (it serves every kind)."""\n'
        "from harness.kinds.masyu import MasyuKind\n\n\n"
        "class NewKind(MasyuKind):\n    name = 'newkind'\n"
        "    package = 'harness.kinds.masyu'  # Masyu's parts\n\n"
        "    def rules(self):\n        return None  # no solving rules: no loop strategy serves it\n\n\n"
        "KIND = NewKind()\n")
    after = prints()
    assert after[0] == before[0] and after[1] != before[1]


def test_latest_keeps_the_newest_fingerprint_per_encoding_and_options():
    runs = pd.DataFrame({
        "encoding": ["a", "a", "a", "b"], "options": ["{}", "{}", '{"x": 1}', "{}"],
        "fingerprint": ["old", "new", "old", None], "instance_sha256": ["h"] * 4, "seed": [0] * 4,
        "time_limit_s": [1.0] * 4, "memory_limit_mb": [1] * 4,
        "started_at": ["1", "2", "3", "4"], "finished_at": ["1", "2", "3", "4"],
    })
    assert list(results.latest(runs).index) == [1, 2, 3]  # a{} keeps "new"; a{x:1} and b have one version
