"""results/fhcp/long_families.py: its families cover the 60 graphs, its counts are the database's, and the
table results/fhcp/README.md shows is what it prints."""

from __future__ import annotations

import importlib.util
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from harness.analysis.plots.data import markdown

ROOT = Path(__file__).resolve().parent.parent
DB = ROOT / "results/fhcp/long-1800s.sqlite"


@pytest.fixture
def found(monkeypatch):
    """The script's table of the committed database, made as its command line makes it (from the root)."""
    monkeypatch.chdir(ROOT)
    spec = importlib.util.spec_from_file_location("long_families", ROOT / "results/fhcp/long_families.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.families(str(DB))


def test_the_readme_shows_what_the_script_prints(found) -> None:
    readme = (ROOT / "results/fhcp/README.md").read_text()
    shown = readme.split("<!-- long_families.py -->\n")[1].split("<!-- /long_families.py -->")[0]
    assert shown == markdown(found.set_index("family"))


def test_every_graph_in_one_family_and_the_counts_from_the_database(found) -> None:
    graphs = (ROOT / "results/fhcp/long.graphs").read_text().split()
    assert found.graphs.sum() == len(graphs) == 60
    with closing(sqlite3.connect(f"file:{DB}?mode=ro", uri=True)) as con:
        runs, solved = con.execute("select count(*), sum(status = 'solved' and verified = 1 and "
                                   "solve_cpu_s <= 1800) from runs").fetchone()
    assert found.run.sum() == runs and found["solved (ours)"].sum() == solved
    assert (found["published VB (soh_*)"] >= found["best soh_ccadical"]).all()
