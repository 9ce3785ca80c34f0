"""The notebooks execute on a real sweep's database and show the table and figures they promise;
the command notebooks/README.md gives runs as given, in the environment the README's install makes."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
ENCODINGS = ("circuit", "lazy", "sat")


@pytest.fixture(scope="module")
def sweep_db(smoke_db):
    """circuit, lazy and sat over the bundled smoke set (12 puzzles, 5x5 to 10x10), through `harness.run`:
    the session's `smoke_db` (tests/conftest.py), read only."""
    return smoke_db


def execute(name: str, db: Path, monkeypatch) -> nbformat.NotebookNode:
    """Convert notebooks/NAME.py to a notebook and run every cell in a python3 kernel, from notebooks/."""
    pytest.importorskip("ipykernel")  # jupyter_client then always knows a `python3` kernel spec
    monkeypatch.setenv("LOOPBENCH_DB", str(db))  # the kernel inherits this process's environment
    notebook = jupytext.read(NOTEBOOKS / f"{name}.py")
    manager = KernelManager(kernel_name="python3")
    # The installed spec may say plain `python`; the kernel must be this interpreter, which has harness.
    manager.kernel_spec.argv[0] = sys.executable
    client = NotebookClient(notebook, km=manager, timeout=120,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()
    return notebook


def outputs(notebook: nbformat.NotebookNode) -> list[dict]:
    return [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.get("outputs", [])]


def texts(notebook: nbformat.NotebookNode) -> str:
    parts = []
    for out in outputs(notebook):
        parts.append(out.get("text", ""))
        parts.append(out.get("data", {}).get("text/plain", ""))
        parts.append(out.get("data", {}).get("text/html", ""))
    return "\n".join(parts)


def images(notebook: nbformat.NotebookNode) -> int:
    return sum("image/png" in out.get("data", {}) for out in outputs(notebook))


def test_notebooks_are_text_without_outputs():
    for path in NOTEBOOKS.glob("*.py"):
        notebook = jupytext.read(path)
        assert notebook.cells and all(not cell.get("outputs") for cell in notebook.cells)
        assert 'os.environ.get("LOOPBENCH_DB", "results/runs.sqlite")' in path.read_text()


def test_compare_encodings(sweep_db, monkeypatch):
    notebook = execute("compare_encodings", sweep_db, monkeypatch)
    text = texts(notebook)
    assert "36 runs in" in text and "masyu-smoke" in text
    tables = [out["data"]["text/html"] for out in outputs(notebook) if "text/html" in out.get("data", {})]
    table = next(html for html in tables if "speedup_vs_circuit" in html)
    assert all(f">{name}<" in table for name in ENCODINGS)
    assert "bootstrap interval" in text and "circuit / " in text
    assert images(notebook) >= 1 + 3 + 1  # cactus, three scatter plots, the ratio histogram


def test_lazy_convergence(sweep_db, monkeypatch):
    notebook = execute("lazy_convergence", sweep_db, monkeypatch)
    text = texts(notebook)
    assert "lazy configurations: lazy, sat" in text
    assert "outside_share" in text and "cuts per round" in text
    assert images(notebook) == 3  # rounds/cuts/outside panels, inside vs outside time, rounds vs cuts


def test_beside_published_on_the_committed_fhcp_sweep(monkeypatch):
    notebook = execute("beside_published", ROOT / "results" / "fhcp" / "headline-auto.sqlite", monkeypatch)
    text = texts(notebook)
    assert "instance set fhcp-sample: 300 runs" in text and "compare shapes and ranks" in text
    assert "wizardap_fork" not in text  # COLUMNS: the paper's CPU-time columns only
    assert "solved by the measured side only:" in text and "graph1001" in text
    assert images(notebook) == 1 + 2  # the cactus; auto against the published virtual best and SCATTER's


def test_the_readme_command_runs_as_documented(sweep_db, tmp_path):
    """The command of notebooks/README.md, word for word, in a project folder with a results database.

    Its environment is this interpreter's, as after `pip install -e ".[dev]"`: its bin folder first
    on PATH, as in an activated environment (jupytext, and the kernel's `python`, come from there).
    """
    (command,) = re.findall(r"^(LOOPBENCH_DB=.*jupytext .*)$", (NOTEBOOKS / "README.md").read_text(), re.M)
    assert "--execute notebooks/compare_encodings.py" in command
    project = tmp_path / "project"
    (project / "notebooks").mkdir(parents=True)
    shutil.copy(NOTEBOOKS / "compare_encodings.py", project / "notebooks")
    (project / "results").mkdir()
    shutil.copy(sweep_db, project / "results" / "runs.sqlite")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", command], cwd=project, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    notebook = nbformat.read(project / "notebooks" / "compare_encodings.ipynb", as_version=4)
    text = texts(notebook)
    assert "36 runs in" in text and "instance set masyu-smoke" in text and images(notebook) >= 5
