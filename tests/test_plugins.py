"""Plug-ins: encodings and kinds of other installed packages, found, fingerprinted and run as our own."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness import fingerprint, kinds, plugins, registry

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "loopbench-example-encoding"


def forget() -> None:
    """Drop what the registries and fingerprints cached, so a change to sys.path is seen."""
    registry.encodings.cache_clear()
    kinds.kinds.cache_clear()
    plugins.packages.cache_clear()
    fingerprint._source.cache_clear()


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A distribution written by hand onto sys.path: `entry_points.txt` lines and module sources."""
    def install(name: str, entry_points: str, modules: dict[str, str]) -> Path:
        site = tmp_path / "site"
        info = site / f"{name}-1.0.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))
        for module, source in modules.items():
            (site / f"{module}.py").write_text(textwrap.dedent(source))
            monkeypatch.delitem(sys.modules, module, raising=False)
        monkeypatch.syspath_prepend(str(site))
        forget()
        return site

    yield install
    monkeypatch.undo()
    forget()


CLASH = """
    from harness.encoding import Encoding, Outcome

    class Sat(Encoding):
        name = "sat"
        def solve(self, puzzle, limits, seed, exclude=()):
            return Outcome("unknown")
"""


def test_a_plugin_named_like_a_project_encoding_is_an_error_naming_both(installed):
    installed("clash", "[loopbench.encodings]\nsat = plugin_clash:Sat\n", {"plugin_clash": CLASH})
    with pytest.raises(RuntimeError) as error:
        registry.encodings()
    message = str(error.value)
    assert "two encodings are named 'sat'" in message
    assert "loopbench_encodings.sat" in message and "sat = plugin_clash:Sat" in message and "clash" in message


def test_an_entry_point_must_name_its_class_by_the_class_name(installed):
    installed("misnamed", "[loopbench.encodings]\nsatisfy = plugin_clash:Sat\n", {"plugin_clash": CLASH})
    with pytest.raises(RuntimeError, match="the class's name is 'sat', not 'satisfy'"):
        registry.encodings()


TOY_KIND = """
    from dataclasses import dataclass
    from harness.grid import Grid, OnGrid
    from harness.kinds import Kind

    @dataclass(frozen=True)
    class Toy(OnGrid):
        grid: Grid
        kind: str = "toy"

    class ToyKind(Kind):
        name = "toy"
        def parse_body(self, rows, cols, lines, source):
            return Toy(Grid(rows, cols))
        def body_lines(self, puzzle):
            return ["." * puzzle.cols] * puzzle.rows
        def check(self, puzzle, solution):
            return [] if solution == "ok" else ["not ok"]
        def render_text(self, puzzle, solution="", ascii=False):
            return "\\n".join(self.body_lines(puzzle))
        def draw(self, puzzle, solution="", ax=None, title=""):
            from harness.kinds.drawing import cell_axes
            return cell_axes(puzzle.rows, puzzle.cols, ax, title)[0]
"""


def test_a_plugin_kind_is_found_read_judged_and_fingerprinted(installed):
    installed("toy-kind", "[loopbench.kinds]\ntoy = plugin_toy:ToyKind\n", {"plugin_toy": TOY_KIND})
    assert "toy" in kinds.names() and "masyu" in kinds.names()
    puzzle = kinds.read_text("toy 2 3\n...\n...\n", "<toy>")
    assert (puzzle.kind, puzzle.rows, puzzle.cols) == ("toy", 2, 3)
    assert kinds.check(puzzle, "ok") == [] and kinds.check(puzzle, "no") == ["not ok"]
    # dummy serves every kind, so the toy's checker judges its runs: its module is in the fingerprint.
    assert "plugin_toy" in fingerprint.scope("dummy").modules
    assert "plugin_toy" not in fingerprint.scope("sat").modules  # sat serves named kinds only


def test_a_plugin_kind_named_like_a_project_kind_is_an_error_naming_both(installed):
    clash = TOY_KIND.replace('name = "toy"', 'name = "masyu"')
    installed("toy-kind", "[loopbench.kinds]\nmasyu = plugin_toy:ToyKind\n", {"plugin_toy": clash})
    with pytest.raises(RuntimeError, match=r"two puzzle kinds are named 'masyu': harness\.kinds\.masyu and "
                                           r"plug-in `masyu = plugin_toy:ToyKind`"):
        kinds.kinds()


# --- the worked example, installed with pip and run in a sweep ---------------------------------------

@pytest.fixture(scope="module")
def example_site(tmp_path_factory) -> Path:
    """The example package pip-installed into a folder of its own (put on PYTHONPATH for the sweeps)."""
    folder = tmp_path_factory.mktemp("example")
    source = folder / "src"
    shutil.copytree(EXAMPLE, source)  # pip builds in the source folder: keep the repository clean
    site = folder / "site"
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(site),
               str(source)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return site


def sweep(site: Path, db: Path) -> subprocess.CompletedProcess:
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    done = subprocess.run([sys.executable, "-m", "harness.run", "--encoding", "example-circuit",
                           "--instances", "masyu-smoke", "--db", str(db), "--time-limit", "20"],
                          capture_output=True, text=True, timeout=300, env=env, cwd=db.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_the_example_plugin_runs_in_a_sweep_verified_and_fingerprinted(example_site, tmp_path):
    db = tmp_path / "runs.sqlite"
    first = sweep(example_site, db)  # workers are fresh processes: they find the plug-in themselves
    assert "12 recorded" in first.stdout
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT status, verified, matches_known, fingerprint FROM runs").fetchall()
    assert len(rows) == 12
    assert all(r[:3] == ("solved", 1, 1) for r in rows), rows  # the checker accepts every answer
    assert len({r[3] for r in rows}) == 1 and rows[0][3]

    assert "12 already stored" in sweep(example_site, db).stdout  # the same code: nothing to run
    module = example_site / "loopbench_example" / "circuit.py"
    module.write_text(module.read_text() + "\n# changed\n")  # the plug-in's code changes: new runs
    assert "12 recorded" in sweep(example_site, db).stdout
    with sqlite3.connect(db) as conn:
        codes = conn.execute("SELECT fingerprint, count(*) FROM runs GROUP BY fingerprint").fetchall()
    assert len(codes) == 2 and all(n == 12 for _, n in codes)
