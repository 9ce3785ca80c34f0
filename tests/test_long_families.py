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


@pytest.fixture
def script(monkeypatch):
    """The script as a module, run from the root as its command line is."""
    monkeypatch.chdir(ROOT)
    spec = importlib.util.spec_from_file_location("long_families", ROOT / "results/fhcp/long_families.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def found(script):
    """The script's table of the committed databases."""
    return script.families()


def test_the_readme_shows_what_the_script_prints(found) -> None:
    readme = (ROOT / "results/fhcp/README.md").read_text()
    shown = readme.split("<!-- long_families.py -->\n")[1].split("<!-- /long_families.py -->")[0]
    assert shown == markdown(found.set_index("family"))


def test_every_graph_in_one_family_and_the_counts_from_the_databases(script, found) -> None:
    graphs = (ROOT / "results/fhcp/long.graphs").read_text().split()
    assert found.graphs.sum() == len(graphs) == 60
    for config, db in script.SWEEPS:
        with closing(sqlite3.connect(f"file:{ROOT / db}?mode=ro", uri=True)) as con:
            runs, solved = con.execute("select count(*), sum(status = 'solved' and verified = 1 and "
                                       "solve_cpu_s <= 1800) from runs").fetchone()
        assert found[f"run: {config}"].sum() == runs and found[f"solved: {config}"].sum() == solved
        assert (found["solved by either"] >= found[f"solved: {config}"]).all()
    assert (found["published VB (soh_*)"] >= found["best soh_ccadical"]).all()


def test_the_great_hub_file_is_the_family_the_script_names(script) -> None:
    listed = (ROOT / "results/fhcp/long-great-hubs.graphs").read_text().split()
    assert listed == script.members("great hubs (>= 500), min degree 2")
    assert len(listed) == 17 and set(listed) <= set(script.read_graphs())
