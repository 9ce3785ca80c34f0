"""Result plots and table from a real sweep's database: every file written, the numbers `summarize` gives."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

from harness import plot
from harness.analysis import plots, results
from harness.analysis.summary import summarize
from harness.run import cli as run_cli

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[1]
ENCODINGS = ("circuit", "lazy", "sat")
# Three sizes (6x6, 10x10, 16x16) so the scaling plot has a slope to fit; the 10x10 is janko012.
EXTRA = {
    "pzprjs-fixture.txt": ["6 6", "--w---", "-b--w-", "------", "---b--", "-w----", "------"],
    "janko012.txt": ["10 10", "b-w----w--", "---w--w---", "w--------w", "-w---b--w-", "-----b----",
                     "---b--b--b", "-w-----bw-", "w----b---w", "---w--w---", "--w----w--"],
}


def real_sweep(folder: Path, db: Path) -> Path:
    """Run circuit, lazy and sat over four small instances with `harness.run`; returns the instance folder."""
    instances = folder / "small"
    instances.mkdir()
    for path in (ROOT / "instances" / "masyu-seed").glob("*.txt"):
        shutil.copy(path, instances)
    for name, lines in EXTRA.items():
        (instances / name).write_text("\n".join(lines) + "\n")
    argv = ["--encoding", ",".join(ENCODINGS), "--instances", str(instances), "--db", str(db),
            "--time-limit", "20"]
    assert run_cli.main(argv) == 0
    return instances


@pytest.fixture(scope="module")
def sweep_db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sweep")
    db = folder / "runs.sqlite"
    instances = real_sweep(folder, db)
    # A second sweep in the same database: a configuration that always runs out of time.
    argv = ["--encoding", "dummy", "--option", "behave=spin", "--instances", str(instances / "janko001.txt"),
            "--instances", str(instances / "janko012.txt"), "--db", str(db), "--time-limit", "0.5"]
    run_cli.main(argv)
    return db


@pytest.fixture(scope="module")
def runs(sweep_db):
    return plots.load(sweep_db)


def test_sweep_gave_what_the_plots_need(runs):
    assert set(runs["encoding"]) == {*ENCODINGS, "dummy"}
    real = runs[runs["encoding"] != "dummy"]
    assert (real["status"] == "solved").all() and (real["verified"] == 1).all()
    assert set(runs.loc[runs["encoding"] == "dummy", "status"]) <= {"timeout", "crash"}
    assert runs["instance_specs"].str.contains("small").all()


@pytest.fixture(scope="module")
def regenerated(runs, tmp_path_factory):
    """The plots folder regenerated once from the sweep, and the files regenerate() said it wrote."""
    out = tmp_path_factory.mktemp("plots")
    return out, plot.regenerate(runs, out)


SMALL, SPUN = "masyu-small", "masyu-janko001_txt_janko012_txt"  # the two sweeps' instance sets


def test_regenerate_writes_one_figure_set_per_instance_set(regenerated):
    tmp_path, written = regenerated
    # The sweep over the folder `small`: circuit, lazy, sat on four puzzles.
    stems = [f"{SMALL}-cactus", f"{SMALL}-scaling", f"{SMALL}-lazy-loop"]
    pairs = [("circuit", "lazy"), ("circuit", "sat"), ("lazy", "sat")]
    stems += [f"{SMALL}-scatter-{a}-vs-{b}" for a, b in pairs]
    # The dummy's sweep over two of those files, given by name: a set of its own, never mixed in.
    stems += [f"{SPUN}-cactus", f"{SPUN}-scaling"]
    expected = {tmp_path / f"{stem}.{fmt}" for stem in stems for fmt in ("png", "svg")}
    expected |= {tmp_path / f"{name}-table.{ext}" for name in (SMALL, SPUN) for ext in ("csv", "md")}
    assert set(written) == expected == set(tmp_path.iterdir())
    for path in expected:
        data = path.read_bytes()
        assert len(data) > (100 if path.suffix == ".csv" else 200), path
        if path.suffix == ".png":
            assert data.startswith(b"\x89PNG")
        elif path.suffix == ".svg":
            assert b"<svg" in data[:2000]
    markdown = (tmp_path / f"{SMALL}-table.md").read_text()
    assert all(f"| {config} |" in markdown for config in ENCODINGS) and "| dummy |" not in markdown
    assert "host" in markdown and "time limit" in markdown
    assert "4 instances × 3 configs × 1 seed" in markdown


def test_table_numbers_match_summarize(runs, regenerated):
    table = pd.read_csv(regenerated[0] / f"{SMALL}-table.csv", index_col="config")
    real = runs[runs["encoding"] != "dummy"]
    expected = summarize(real)
    assert sorted(table.index) == sorted(expected.index) == sorted(ENCODINGS)
    for config in expected.index:
        for column in ("runs", "solved", "wrong", "timeout"):
            assert table.loc[config, column] == expected.loc[config, column], (config, column)
        for column in ("par2_s", "median_s"):
            np.testing.assert_allclose(table.loc[config, column], expected.loc[config, column], rtol=1e-9)
    dummy = pd.read_csv(regenerated[0] / f"{SPUN}-table.csv", index_col="config").loc["dummy[behave=spin]"]
    assert dummy["solved"] == 0 and dummy["timeout"] + dummy["other"] == 2 and np.isnan(dummy["median_s"])
    # Speed-up over circuit: geometric mean of circuit time / config time on the instances both solved.
    times = real[real["encoding"].isin(["circuit", "sat"])].pivot(index="instance", columns="encoding",
                                                                  values="solve_cpu_s")
    ratio = np.exp(np.mean(np.log(times["circuit"] / times["sat"])))
    np.testing.assert_allclose(table.loc["sat", "speedup_vs_circuit"], ratio, rtol=1e-9)
    assert table.loc["circuit", "speedup_vs_circuit"] == 1 and table.loc["sat", "both_solved"] == 4


def test_runs_on_different_instances_get_no_common_virtual_best_and_the_footer_counts_right(runs):
    inst = plots.per_instance(runs)  # all four configs at once, as the old default drew them
    assert len(plots.virtual_best(inst)) == 2  # only the two puzzles every config ran
    text = plots.stamp(runs)
    assert f"{len(runs)} runs (4 configs on 4 instances, 2 run by every config, 1 seed)" in text
    assert [group for (_, group), _ in plots.by_instance_set(runs)] == ["janko001.txt,janko012.txt", "small"]


def test_stamp_names_set_runs_limit_host_and_versions(runs):
    text = plots.stamp(runs)
    assert "small" in text and f"{len(runs)} runs" in text
    assert "time limit 0.5–20 s" in text
    assert f"host {runs['host'].iloc[0]}" in text
    assert f"ortools {runs['ortools_version'].iloc[0]}" in text and "python-sat" in text
    assert text.splitlines()[2] == "times: CPU time of the encoding's own work (solve_cpu_s)"


def test_cli_writes_files_and_reports(sweep_db, tmp_path, capsys):
    db = tmp_path / "two.sqlite"  # two encodings only: one scatter pair keeps this test quick
    shutil.copy(sweep_db, db)
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM runs WHERE encoding NOT IN ('circuit', 'sat')")
    out = tmp_path / "plots"
    assert plot.main(["--db", str(db), "--out", str(out), "--baseline", "sat"]) == 0
    assert "wrote 10 files" in capsys.readouterr().out
    assert (out / f"{SMALL}-scatter-sat-vs-circuit.svg").exists()  # the baseline goes on the x axis
    assert "speedup_vs_sat" in (out / f"{SMALL}-table.md").read_text()
    # drawn again from the same data: the same bytes, SVG element ids and all (committed figures diff clean)
    again = tmp_path / "again"
    assert plot.main(["--db", str(db), "--out", str(again), "--baseline", "sat"]) == 0
    drawn = {p.name: p.read_bytes() for p in out.iterdir()}
    assert drawn == {p.name: p.read_bytes() for p in again.iterdir()}
    assert any(name.endswith(".svg") for name in drawn)


def test_cli_draws_one_set_or_one_sweep_and_names_the_others(sweep_db, tmp_path, capsys):
    out = tmp_path / "plots"
    assert plot.main(["--db", str(sweep_db), "--out", str(out), "--set", "small", "--baseline", "sat"]) == 0
    assert {p.name.split("-cactus")[0] for p in out.glob("*-cactus.png")} == {SMALL}
    assert plot.main(["--db", str(sweep_db), "--out", str(out), "--set", "nope"]) == 2
    assert "small" in capsys.readouterr().err
    sweep = results.load(sweep_db).query("encoding == 'dummy'")["sweep_id"].iloc[0]
    assert plot.main(["--db", str(sweep_db), "--out", str(out), "--sweep", sweep]) == 0
    assert {p.name.split("-cactus")[0] for p in out.glob("*-cactus.png")} == {SPUN}


def test_a_set_is_drawn_from_one_sweep_or_says_across_sweeps_with_each_load(sweep_db, runs, tmp_path, capsys):
    instances = runs.loc[runs["encoding"] == "sat", "instance_specs"].iloc[0]
    db = tmp_path / "two.sqlite"
    shutil.copy(sweep_db, db)
    common = ["--instances", instances, "--db", str(db), "--time-limit", "20", "--rerun"]
    assert run_cli.main(["--encoding", ",".join(ENCODINGS), *common]) == 0  # the whole set again
    newest = results.load(db)["sweep_id"].max()

    def small(across=False):
        return [part for (_, group), part in plot.chosen(plots.load(db), across) if group == "small"][0]

    assert set(small()["sweep_id"]) == {newest} and len(small()) == 3 * 4
    assert plots.stamp(small()).splitlines()[3].startswith(f"one sweep: {newest}")
    # sat alone once more: a rerun replaces the runs it repeats, so no one sweep holds all three configs.
    assert run_cli.main(["--encoding", "sat", *common]) == 0
    apart = plots.stamp(small()).splitlines()[3]
    assert apart.startswith("ACROSS SWEEPS") and f"circuit: {newest}" in apart and apart.count("load ") >= 3
    assert plot.main(["--db", str(db), "--out", str(tmp_path / "out"), "--set", "small"]) == 0
    assert "ACROSS SWEEPS" in capsys.readouterr().out


def test_cli_refuses_empty_or_missing_database(tmp_path, capsys):
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()
    assert plot.main(["--db", str(empty), "--out", str(tmp_path / "out")]) == 1
    assert "holds no runs" in capsys.readouterr().err
    assert plot.main(["--db", str(tmp_path / "missing.sqlite"), "--out", str(tmp_path / "out")]) == 1
    assert "missing.sqlite" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_cli_rejects_unknown_baseline(sweep_db, tmp_path, capsys):
    assert plot.main(["--db", str(sweep_db), "--out", str(tmp_path), "--baseline", "nope"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_one_encoding_has_no_scatter_and_stale_files_go(runs, regenerated, tmp_path):
    shutil.copytree(regenerated[0], tmp_path, dirs_exist_ok=True)
    written = plot.regenerate(runs[runs["encoding"] == "sat"], tmp_path)
    names = {p.name for p in tmp_path.iterdir()}
    assert names == {p.name for p in written}
    assert not any("scatter" in name for name in names) and f"{SMALL}-cactus.png" in names


def test_lazy_plot_only_for_configs_with_rounds(runs):
    inst = plots.per_instance(runs)
    assert plots.lazy_configs(inst) == ["lazy", "sat"]
    assert plots.lazy_loop(runs[runs["encoding"] == "circuit"]) is None


# --- aggregation on hand-made rows ----------------------------------------------------------------

def rows(*specs):
    """Runs from (instance, encoding, seed, status, solve_s) tuples, 10 s limit, 6x6 grids."""
    out = []
    for instance, encoding, seed, status, solve_s in specs:
        out.append({"instance": instance, "source": f"set/{instance}", "puzzle": "masyu", "rows": 6,
                    "cols": 6, "encoding": encoding, "options": "{}", "seed": seed, "status": status,
                    "verified": 1 if status == "solved" else None, "solve_s": solve_s, "time_limit_s": 10.0,
                    "iterations": 1, "cuts": 0, "extra": "{}", "host": "h"})
    return pd.DataFrame(out)


def test_seeds_aggregate_by_majority_and_median():
    runs = rows(("a", "x", 0, "solved", 1.0), ("a", "x", 1, "solved", 3.0), ("a", "x", 2, "timeout", None),
                ("b", "x", 0, "solved", 1.0), ("b", "x", 1, "timeout", None), ("b", "x", 2, "timeout", None))
    inst = plots.per_instance(runs).set_index("instance")
    assert inst.loc["a", "solved"] and inst.loc["a", "time_s"] == 3.0  # median of 1, 3, 20 (PAR-2)
    assert not inst.loc["b", "solved"] and np.isnan(inst.loc["b", "time_s"]) and inst.loc["b", "par2_s"] == 20


def test_virtual_best_and_speedup():
    runs = rows(("a", "x", 0, "solved", 1.0), ("a", "y", 0, "solved", 4.0),
                ("b", "x", 0, "timeout", None), ("b", "y", 0, "solved", 2.0),
                ("c", "x", 0, "solved", 8.0), ("c", "y", 0, "solved", 2.0))
    inst = plots.per_instance(runs)
    assert list(plots.virtual_best(inst)) == [1.0, 2.0, 2.0]
    ups = plots.speedups(inst, "x")
    assert ups.loc["y", "both_solved"] == 2 and ups.loc["y", "speedup"] == pytest.approx(1.0)  # 1/4 and 4/1


def test_config_labels_show_only_options_that_vary():
    runs = rows(("a", "sat", 0, "solved", 1.0), ("a", "sat", 0, "solved", 1.0), ("a", "lazy", 0, "solved", 1))
    runs["options"] = ['{"cuts": "loop", "solver": "c"}', '{"cuts": "cutset", "solver": "c"}',
                       '{"cuts": "loop"}']
    assert list(plots.with_config(runs)["config"]) == ["sat[cuts=loop]", "sat[cuts=cutset]", "lazy"]
    subset = plots.with_config(runs).iloc[:1]  # labelled as part of the whole, it keeps the whole's label
    assert list(plots.per_instance(subset)["config"]) == ["sat[cuts=loop]"]


def test_baseline_resolution():
    assert plots.resolve_baseline(["circuit", "sat"], None) == "circuit"
    assert plots.resolve_baseline(["lazy", "sat"], None) == "lazy"
    assert plots.resolve_baseline(["sat[cuts=loop]", "lazy"], "sat") == "sat[cuts=loop]"
    # `sat` as harness.run spells it is sat at its defaults (cuts=loop); `sat:cuts=cutset` the other
    two = ["sat[cuts=loop]", "sat[cuts=cutset]"]
    assert plots.resolve_baseline(two, "sat") == "sat[cuts=loop]"
    assert plots.resolve_baseline(two, "sat:cuts=cutset") == "sat[cuts=cutset]"
    with pytest.raises(ValueError, match="ambiguous"):  # neither is sat at its defaults
        plots.resolve_baseline(["sat[cuts=disc]", "sat[cuts=cutset]"], "sat")


def test_bootstrap_interval_brackets_the_geometric_mean():
    ratios = np.array([2.0, 4.0, 8.0, 2.0, 4.0])
    estimate = plots.bootstrap_geomean(ratios, seed=1)
    assert estimate.geomean == pytest.approx(np.exp(np.mean(np.log(ratios))))
    assert 2.0 <= estimate.low <= estimate.geomean <= estimate.high <= 8.0
    assert estimate == plots.bootstrap_geomean(ratios, seed=1)  # seeded: reproducible
    assert plots.bootstrap_geomean([]).n == 0


def test_growth_exponent_recovers_a_power_law():
    cells = np.array([36, 100, 256, 400, 900])
    points = pd.DataFrame({"cells": cells, "time_s": 0.001 * cells**1.5})
    assert plots.growth_exponent(points) == pytest.approx(1.5)
    assert np.isnan(plots.growth_exponent(points.iloc[:1]))


def test_markdown_table():
    frame = pd.DataFrame({"solved": [3, 1], "par2_s": [0.5, np.nan]}, index=pd.Index(["a", "b"], name="cfg"))
    assert plots.markdown(frame).splitlines() == [
        "| cfg | solved | par2_s |", "|---|---:|---:|", "| a | 3 | 0.5 |", "| b | 1 | – |"]


def test_results_load_is_what_plots_load_reads(sweep_db, runs):
    assert len(results.load(sweep_db)) == len(runs)
