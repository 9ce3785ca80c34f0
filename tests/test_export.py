"""`harness.export`: a database's times as a published table that reads back, its cycles as TSPLIB tours."""

from __future__ import annotations

import math
import sqlite3

import pandas as pd
import pytest

from harness import published, sets
from harness.analysis.plots.data import with_config
from harness.compare import main as compare_main
from harness.export import column_line, main
from harness.kinds.graph.check import check
from harness.run.cli import main as run_main


def test_a_label_with_brackets_commas_and_wildcards_is_declared_for_its_own_column_only(tmp_path):
    labels = ["sat[cuts=cutset,join=merge]", "sat[cuts=cutset]", "a*b?", "a-b-"]
    text = "# limit_s: 60\n" + "".join(column_line(c, "m (x, y)") + "\n" for c in labels)
    text += "\t".join(["instance", *labels]) + "\n" + "\t".join(["g1", "1", "2", "TO", "MO"]) + "\n"
    path = tmp_path / "t.tsv"
    path.write_text(text)
    back = published.read(path)
    assert {c: back.columns[c].program for c in labels} == {c: f"loopbench:{c}" for c in labels}
    assert back.times.loc["g1", "sat[cuts=cutset]"] == 2 and math.isnan(back.times.loc["g1", "a*b?"])


def test_a_sweep_exported_as_a_table_reads_back_with_each_cell_the_median_and_the_same_program(
        smoke_db, tmp_path, capsys):
    out = tmp_path / "smoke.tsv"
    assert main(["table", "--db", str(smoke_db), "--out", str(out)]) == 0
    back = published.read(out)
    with sqlite3.connect(smoke_db) as conn:
        runs = with_config(pd.read_sql("SELECT * FROM runs", conn))
    assert back.limit_s == 20 and sorted(back.configs) == sorted(runs["config"].unique())
    assert all(back.columns[c].program == f"loopbench:{c}" and back.columns[c].clock == "cpu"
               for c in back.configs)
    solved = runs[(runs["status"] == "solved") & (runs["verified"] == 1)]
    expected = solved.groupby(["instance", "config"])["solve_cpu_s"].median()
    assert len(expected) == back.times.notna().sum().sum() == len(runs)  # every smoke run is solved
    for (instance, config), seconds in expected.items():
        assert back.times.loc[instance, config] == pytest.approx(seconds, rel=1e-5)
    # read beside the same database: the same program, at 1x its own time
    capsys.readouterr()
    assert compare_main(["--db", str(smoke_db), "--published", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.count("the same program") == 3 and "took 1x the CPU time" in said


def test_a_wrong_answer_is_named_and_its_cell_is_not_a_time_and_two_limits_are_refused(tmp_path, capsys):
    db = tmp_path / "runs.sqlite"
    for limit in ("5", "6"):
        argv = ["--encoding", "dummy:status=sat:solution=1 2 3", "--instances", "graph-smoke",
                "--db", str(db), "--time-limit", limit]
        assert run_main(argv) == 0
    out = tmp_path / "t.tsv"
    assert main(["table", "--db", str(db), "--out", str(out)]) == 0  # the newest sweep: one limit
    text = out.read_text()
    assert "# TO in its cells, dummy[" in text and "14 wrong (graph-complete-4-s2026-000," in text
    assert published.read(out).times.isna().all().all()
    capsys.readouterr()
    assert main(["table", "--db", str(db), "--out", str(out), "--across-sweeps"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the runs have 2 time limits (5, 6)") and err.count("\n") == 1


def test_each_verified_cycle_is_written_as_a_tour_the_checker_accepts_with_a_manifest(tmp_path, capsys):
    db = tmp_path / "runs.sqlite"
    assert run_main(["--encoding", "sat,lazy", "--instances", "graph-smoke", "--db", str(db),
                     "--time-limit", "20"]) == 0
    out = tmp_path / "tours"
    assert main(["tours", "--db", str(db), "--out", str(out)]) == 0
    graphs = {i.name: i.puzzle for i in sets.instances("graph-smoke")}
    manifest = pd.read_csv(out / "MANIFEST.tsv", sep="\t")
    hamiltonian = {i.name for i in sets.instances("graph-smoke") if i.known_answer == "sat"}
    # sat on a graph is its graph default, labelled by that preset's name
    assert set(manifest["instance"]) == hamiltonian
    assert set(manifest["config"]) <= {"cegar-split-auto", "lazy"}
    for name in manifest["instance"]:
        lines = (out / f"{name}.tour").read_text().splitlines()
        order = lines[lines.index("TOUR_SECTION") + 1:lines.index("-1")]
        assert check(graphs[name], " ".join(order)) == [], name
    assert main(["tours", "--db", str(db), "--out", str(tmp_path / "lazy"), "--config", "lazy"]) == 0
    assert set(pd.read_csv(tmp_path / "lazy" / "MANIFEST.tsv", sep="\t")["config"]) == {"lazy"}
    capsys.readouterr()
    assert main(["tours", "--db", str(tmp_path / "none.sqlite"), "--out", str(out)]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    (tmp_path / "a-file").write_text("")
    assert main(["tours", "--db", str(db), "--out", str(tmp_path / "a-file" / "tours")]) == 1
    assert capsys.readouterr().err.startswith("error: ")
