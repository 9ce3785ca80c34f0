"""A graph's size in its own words: stored as vertices and edges, read so from old files, drawn in the report.

A real sweep (`sat` on a 10x10 grid graph: 100 vertices, 180 edges, and a 6x6 Masyu beside it)
fills the database; the report must draw the graph and say its size as a graph, which it did not
while it sized everything rows x cols (18,000 "cells", past the 2,500 cap).
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import matplotlib
import pytest

from harness.analysis import results
from harness.report import __main__ as report_cli
from harness.report import build
from harness.run import cli as run_cli
from harness.run.store import Store
from harness.schema import COLUMNS, RUN_COLUMNS_V1

matplotlib.use("Agg")

SIDE = 10  # a SIDE x SIDE grid graph: Hamiltonian, since SIDE is even
MASYU = "masyu 6 6\n- - w - - -\nw - - - - b\n- - - - - -\n- - - - - -\nb - - - - w\n- - - w - -\n"


def grid_graph() -> str:
    edges = [(r * SIDE + c + 1, r * SIDE + c + 2) for r in range(SIDE) for c in range(SIDE - 1)]
    edges += [(r * SIDE + c + 1, (r + 1) * SIDE + c + 1) for r in range(SIDE - 1) for c in range(SIDE)]
    return f"graph {SIDE * SIDE} {len(edges)}\n" + "".join(f"{u} {v}\n" for u, v in edges)


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("sizes")
    (folder / "set").mkdir()
    (folder / "set" / "grid10.txt").write_text(grid_graph())
    (folder / "set" / "pearls.txt").write_text(MASYU)
    path = folder / "runs.sqlite"
    assert run_cli.main(["--encoding", "sat", "--instances", str(folder / "set"), "--db", str(path),
                         "--time-limit", "30", "--jobs", "1"]) == 0
    return path


def stored(db: Path) -> dict[str, tuple]:
    with sqlite3.connect(db) as conn:
        return {row[0]: row[1:] for row in conn.execute(
            "SELECT instance, puzzle, status, rows, cols, vertices, edges FROM runs")}


def test_a_graph_is_stored_in_vertices_and_edges_and_rows_cols_keep_their_meaning(db):
    found = stored(db)
    assert found["grid10"] == ("graph", "solved", 100, 180, 100, 180)
    assert found["pearls"] == ("masyu", "solved", 6, 6, None, None)  # a grid is sized by rows and cols


def test_rows_from_before_the_size_columns_read_alike(db, tmp_path):
    old = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as conn, sqlite3.connect(old) as copy:
        conn.backup(copy)
        copy.execute("UPDATE runs SET vertices = NULL, edges = NULL")
    runs = results.load(old).set_index("instance")
    assert (runs.loc["grid10", "vertices"], runs.loc["grid10", "edges"]) == (100, 180)
    assert runs.loc["pearls", ["vertices", "edges"]].isna().all()


def test_a_version_4_file_gains_the_size_columns_and_keeps_its_rows(tmp_path):
    path = tmp_path / "v4.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute(f"CREATE TABLE runs ({', '.join(f'{n!r} {t}' for n, t in RUN_COLUMNS_V1)})")
        conn.execute("INSERT INTO runs (run_key, instance, puzzle, rows, cols, status) "
                     "VALUES ('k', 'g', 'graph', 12, 30, 'solved')")
        conn.execute("PRAGMA user_version = 4")
    Store(path).conn.close()
    with sqlite3.connect(path) as conn:
        names = [row[1] for row in conn.execute("PRAGMA table_info(runs)")]
        assert {"vertices", "edges"} <= set(names) and set(COLUMNS) <= set(names)
        assert conn.execute("SELECT rows, cols, vertices FROM runs").fetchone() == (12, 30, None)
    assert results.load(path)[["vertices", "edges"]].iloc[0].tolist() == [12, 30]


def page_data(out: Path, set_id: str) -> dict:
    text = (out / "index.html").read_text()
    blob = re.search(rf'<script type="application/json" id="data-{set_id}">(.*?)</script>', text, re.S)[1]
    return json.loads(blob.replace("<\\/", "</"))


def test_the_report_draws_a_graph_of_100_vertices_and_sizes_it_in_its_words(db, tmp_path):
    out = tmp_path / "report"
    build(db, out, draw=None)
    graph = page_data(out, "graph-set")["instances"]
    (entry,) = graph.values()
    assert entry["size"] == "100 vertices, 180 edges" and entry["drawn"] and "note" not in entry
    assert (out / entry["puzzle"]).stat().st_size > 10_000  # an SVG of the graph, not a "too large" note
    (shown,) = entry["answers"].values()  # sat on a graph runs its graph default, labelled by its preset
    answer = (out / shown["img"]).read_text()
    assert answer.count("<path") > 2  # the edges, the cycle and the vertices
    (pearls,) = page_data(out, "masyu-set")["instances"].values()
    assert pearls["size"] == "6x6" and pearls["drawn"]


def test_the_size_cap_is_in_the_kinds_measure(db, tmp_path):
    out = tmp_path / "capped"
    assert report_cli.main(["--db", str(db), "--out", str(out), "--draw", "all", "--max-size", "50"]) == 0
    (entry,) = page_data(out, "graph-set")["instances"].values()
    assert entry["note"] == "not drawn: 100 vertices, 180 edges is past the report's 50 vertices (--max-size)"
    (pearls,) = page_data(out, "masyu-set")["instances"].values()
    assert "puzzle" in pearls  # 36 cells: under 50
