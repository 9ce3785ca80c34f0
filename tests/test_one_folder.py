"""A new kind is one folder: a toy loop kind, a package of its own installed in a temporary folder
and declared as an entry point, is registered, generated, solved by `sat`, `circuit` and `asp`
(every answer checked) and its uniqueness proofs certified, with no project file touched.

The package is what `pip install` leaves (a `*.dist-info` with `entry_points.txt` beside the
modules): the kind arrives as every plug-in does, found by `importlib.metadata`. The commands run in
fresh processes whose `PYTHONPATH` holds that folder, as a sweep's workers find a plug-in.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import matplotlib
import matplotlib.pyplot
import pytest

from harness import fingerprint, generate, kinds, plugins, registry
from harness.grid import solution_edges
from harness.kinds import contract_problems, read_text
from loopbench_encodings import rules

ROOT = Path(__file__).resolve().parents[1]

# The toy: a loop through cell centres passing every `o` cell and no `x` cell (`.`: either).
TOY = {
    "__init__.py": '''
        """Toy loop puzzles: a loop through every `o` cell and past no `x` cell."""
        from harness.kinds import Kind

        class ToyKind(Kind):
            name = "toyloop"

            def describe(self, puzzle):
                return f"{len(puzzle.marks)} marks"

        KIND = ToyKind()
    ''',
    "model.py": '''
        """The toy puzzle: marks on a grid; every answer passes each `o`."""
        from dataclasses import dataclass, field
        from harness.grid import Grid, OnGrid

        @dataclass(frozen=True)
        class Toy(OnGrid):
            grid: Grid
            marks: tuple  # ((cell, "o" | "x"), ...) row-major
            kind: str = field(default="toyloop", init=False)

            def cells(self, mark):
                return [cell for cell, m in self.marks if m == mark]

        def stated(puzzle):
            from harness.kinds.demands import on_grid
            return on_grid(puzzle.grid, puzzle.cells("o"))
    ''',
    "formats.py": '''
        """Plain text: one token a cell, `.`, `o` or `x`."""
        from harness.errors import InstanceError
        from harness.grid import Grid
        from harness.kinds.text import grid_rows
        from toyloop.model import Toy

        def parse_body(rows, cols, lines, source):
            marks = []
            for r, (n, tokens) in enumerate(grid_rows(lines, rows, cols, source)):
                for c, token in enumerate(tokens):
                    if token not in ".ox":
                        raise InstanceError(source, f"expected `.`, `o` or `x`, found {token!r}", n)
                    marks += [((r, c), token)] if token != "." else []
            return Toy(Grid(rows, cols), tuple(marks))

        def body_lines(puzzle):
            marks = dict(puzzle.marks)
            return [" ".join(marks.get((r, c), ".") for c in range(puzzle.cols)) for r in range(puzzle.rows)]
    ''',
    "check.py": '''
        """The toy's checker, from its rules: one loop, every `o` on it, every `x` off it."""
        from harness.kinds.loopcheck import read_loop

        def check(puzzle, solution):
            bits, problems = read_loop(puzzle.grid, solution)
            if bits is None:
                return problems
            problems += [f"{cell} is marked o, off the loop" for cell in puzzle.cells("o") if not bits[cell]]
            return problems + [f"{cell} is marked x, on the loop" for cell in puzzle.cells("x") if bits[cell]]
    ''',
    "draw.py": '''
        """The toy as text (marks, `#` for a loop cell) and on matplotlib axes."""
        from harness.grid import parse_solution, solution_edges
        from harness.kinds.drawing import cell_axes

        def render_text(puzzle, solution="", ascii=False):
            bits = parse_solution(puzzle.grid, solution) if solution else {}
            marks = dict(puzzle.marks)
            rows = ("".join(marks.get((r, c)) or ".#"[bool(bits.get((r, c)))] for c in range(puzzle.cols))
                    for r in range(puzzle.rows))
            return "".join(row + "\\n" for row in rows)

        def draw(puzzle, solution="", ax=None, title=""):
            ax, size = cell_axes(puzzle.rows, puzzle.cols, ax, title)
            for (r, c), mark in puzzle.marks:
                ax.text(c, r, mark, ha="center", va="center", fontsize=size * 0.5)
            for (r, c), (r2, c2) in solution_edges(puzzle.grid, solution) if solution else ():
                ax.plot([c, c2], [r, r2], color="C0", lw=size * 0.1)
            ax.set_title(title, fontsize=10)
            return ax
    ''',
    "rules.py": '''
        """The toy's loop rules: the loop on the cells through every `o`; every edge at an `x` off."""
        from loopbench_encodings.loop.grid import on_grid
        from loopbench_encodings.loop.gridrules import Edges, asp_clauses

        def loop_problem(puzzle):
            return on_grid(puzzle.grid, puzzle.cells("o"))

        def clauses(puzzle):
            edges = Edges(puzzle.rows, puzzle.cols)
            return [[-e] for cell in puzzle.cells("x") for e in edges.at(cell)]

        def cpsat(puzzle, m):
            for clause in clauses(puzzle):
                m.add_clause(clause)

        def cnf(puzzle, arrays):
            return clauses(puzzle)

        def asp(puzzle):
            return asp_clauses(Edges(puzzle.rows, puzzle.cols), clauses(puzzle))
    ''',
    "generate.py": '''
        """Toy generator: a random rectangle's rim the loop, every cell marked, marks dropped while unique."""
        from harness.grid import Grid, solution_string
        from harness.unique import is_unique
        from toyloop.model import Toy

        DEFAULT_ENCODING = "sat"  # cpsat serves kinds with a whole model, not loop kinds

        def generate(rows, cols, rng, encoding=DEFAULT_ENCODING, seed=0, time_s=60.0):
            grid = Grid(rows, cols)
            r0, c0 = rng.randrange(rows - 1), rng.randrange(cols - 1)
            r1, c1 = rng.randrange(r0 + 1, rows), rng.randrange(c0 + 1, cols)
            rim = ([(r0, c) for c in range(c0, c1)] + [(r, c1) for r in range(r0, r1)]
                   + [(r1, c) for c in range(c1, c0, -1)] + [(r, c0) for r in range(r1, r0, -1)])
            solution = solution_string(grid, zip(rim, rim[1:] + rim[:1]))
            marks = {cell: "o" if cell in rim else "x" for cell in grid.cells}
            for cell in rng.sample(sorted(marks), len(marks)):
                fewer = {k: m for k, m in marks.items() if k != cell}
                if is_unique(Toy(grid, tuple(sorted(fewer.items()))), solution, encoding,
                             time_s=time_s, seed=seed).unique:
                    marks = fewer
            return Toy(grid, tuple(sorted(marks.items()))), solution
    ''',
}


@pytest.fixture
def site(tmp_path, monkeypatch):
    """The toy package and its `dist-info` (entry point `toyloop = toyloop:ToyKind`) in a folder of
    its own, also on this process's path, with the registries' caches dropped around the test."""
    folder = tmp_path / "site"
    (folder / "toyloop").mkdir(parents=True)
    for name, source in TOY.items():
        (folder / "toyloop" / name).write_text(textwrap.dedent(source).lstrip())
    info = folder / "toyloop-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toyloop\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[loopbench.kinds]\ntoyloop = toyloop:ToyKind\n")
    monkeypatch.syspath_prepend(str(folder))
    forget()
    yield folder
    monkeypatch.undo()
    for module in [m for m in sys.modules if m == "toyloop" or m.startswith("toyloop.")]:
        del sys.modules[module]
    forget()


def forget() -> None:
    for cached in (kinds.kinds, registry.encodings, plugins.packages, fingerprint._source, rules.of):
        cached.cache_clear()


def command(site: Path, *argv: str) -> subprocess.CompletedProcess:
    """`python -m ...` in a fresh process that finds the toy on its path, as a sweep's workers do."""
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    done = subprocess.run([sys.executable, "-m", *argv], capture_output=True, text=True, timeout=600, env=env,
                          cwd=site.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_a_toy_kind_in_a_folder_of_its_own_is_registered_generated_solved_and_certified(site, tmp_path):
    # registered: found through its entry point, meeting the contract with no method of its own but
    # `describe` (its parts are found in its modules), its rules and generator found the same way
    toy = kinds.get("toyloop")
    assert contract_problems(toy) == [] and type(toy).package == "toyloop"
    assert rules.of("toyloop").__name__ == "toyloop.rules" and toy.generator().__name__ == "toyloop.generate"
    assert "toyloop" in generate.with_generator()
    assert "toyloop.check" in fingerprint.scope("dummy").modules

    # generated: `harness.generate` makes puzzles, each with its one answer, judged by the toy's checker
    out = tmp_path / "made"
    made = command(site, "harness.generate", "toyloop", "--size", "4x5", "5x5", "--count", "2", "--seed", "3",
                   "--out", str(out))
    assert "wrote 4 puzzles" in made.stdout
    known = dict(line.split("\t") for line in (out / "solutions.tsv").read_text().splitlines()[1:])
    assert sorted(known) == [f"toyloop-{size}-s3-00{i}" for size in ("4x5", "5x5") for i in (0, 1)]
    puzzles = {name: read_text((out / f"{name}.txt").read_text(), name) for name in known}
    for name, puzzle in puzzles.items():
        assert puzzle.kind == "toyloop" and kinds.check(puzzle, known[name]) == [], name
        assert kinds.check(puzzle, known[name].replace("0", "f", 1)) != []  # the checker bites
        assert toy.render_text(puzzle, known[name]).count("\n") == puzzle.rows
    matplotlib.use("Agg")
    bare, ax = toy.draw(puzzle), toy.draw(puzzle, known[name], title=name)  # as the report and `--png` do
    assert len(ax.lines) - len(bare.lines) == len(solution_edges(puzzle.grid, known[name]))
    assert len(ax.texts) == len(puzzle.marks) and ax.get_title() == name
    matplotlib.pyplot.close("all")
    assert len(set(puzzles.values())) == 4
    assert generate.default_encoding("toyloop") == "sat"  # the generator module's own

    # solved by three loop strategies in a sweep, every answer judged, each the only one; the
    # uniqueness proofs of `sat` certified against the demands the toy's model states
    db = tmp_path / "runs.sqlite"
    command(site, "harness.run", "--encoding", "sat,circuit,asp", "--instances", str(out), "--db", str(db),
            "--time-limit", "60", "--unique", "--proof")
    with sqlite3.connect(db) as conn:
        runs = conn.execute('SELECT instance, encoding, puzzle, status, verified, "unique", solution, extra '
                            "FROM runs").fetchall()
    assert sorted(r[:2] for r in runs) == sorted((n, e) for n in known for e in ("asp", "circuit", "sat"))
    cuts = 0
    for name, encoding, kind, status, verified, unique, solution, extra in runs:
        row = (kind, status, verified, unique, solution)
        assert row == ("toyloop", "solved", 1, 1, known[name]), (name, encoding)
        if encoding == "sat":
            assert json.loads(extra)["unique_proof"] == "certified", (name, json.loads(extra))
            cuts += json.loads(extra)["unique_proof_cuts"]
    assert cuts > 0  # some proof holds sub-loop cuts, judged against the demands the toy's model states

    # nothing of the project names the toy: it is one folder, outside the repository
    assert not any((ROOT / part).exists() for part in ("harness/kinds/toyloop", "instances/toyloop"))
