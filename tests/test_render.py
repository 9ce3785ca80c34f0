"""Renders of a solved Masyu: terminal text against golden files, and matplotlib images that are real files.

After an intended change, rewrite the golden files: `LOOPBENCH_UPDATE_GOLDEN=1 pytest tests/test_render.py`.
That run fails on purpose, naming each file it wrote: review the diff, then run the tests again
without the switch, which is the run that can pass.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness import kinds
from harness.kinds import read_text, save_image
from harness.kinds.masyu.draw import render_text

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("LOOPBENCH_UPDATE_GOLDEN") == "1"

# The pzprjs fixture https://puzz.link/p?mashu/6/6/1063000i3000 and its loop (FORMATS.md digits).
FIXTURE = "6 6\n- - w - - -\n- b - - w -\n- - - - - -\n- - - b - -\n- w - - - -\n- - - - - -\n"
SOLUTION = "955c9c/a956aa/aa956a/a36956/35ca00/003600"


def check_golden(name: str, text: str) -> None:
    """Compare `text` with tests/golden/NAME, or rewrite the file when updating (and fail: never a pass)."""
    path = GOLDEN / name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
        pytest.fail(f"wrote {path} (LOOPBENCH_UPDATE_GOLDEN=1); review it and run again without the switch")
    assert path.exists(), f"missing golden file {path}; create it with LOOPBENCH_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"render differs from {path}"


@pytest.fixture
def puzzle():
    masyu = read_text(FIXTURE, "fixture")
    assert kinds.check(masyu, SOLUTION) == []  # the golden loop is a real solution
    return masyu


@pytest.mark.parametrize(
    ("name", "solution", "ascii"),
    [
        ("render_solved_box.txt", SOLUTION, False),
        ("render_solved_ascii.txt", SOLUTION, True),
        ("render_bare_box.txt", "", False),
    ],
)
def test_text_render_matches_golden(puzzle, name, solution, ascii):
    check_golden(name, render_text(puzzle, solution, ascii=ascii))


def test_the_update_switch_writes_and_fails(tmp_path, monkeypatch):
    monkeypatch.setitem(globals(), "UPDATE", True)
    monkeypatch.setitem(globals(), "GOLDEN", tmp_path)
    with pytest.raises(pytest.fail.Exception, match="run again without the switch"):
        check_golden("x.txt", "text")
    assert (tmp_path / "x.txt").read_text(encoding="utf-8") == "text"


def test_text_render_shape(puzzle):
    lines = render_text(puzzle, SOLUTION).splitlines()
    assert len(lines) == 2 * puzzle.rows - 1
    assert max(len(line) for line in lines) == 4 * puzzle.cols - 3
    assert all(line == line.rstrip() for line in lines)
    assert lines[0].count("○") == 1 and sum(line.count("●") for line in lines) == 2


def test_broken_solution_draws_its_dead_end(puzzle):
    # One extra "right" bit on the last cell: the checker rejects it, the render shows a stub.
    broken = SOLUTION[:-1] + "1"
    assert render_text(puzzle, broken).splitlines()[-1].endswith("╶")


def test_bad_solution_shape_raises(puzzle):
    with pytest.raises(ValueError):
        render_text(puzzle, "zz")


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_image_is_written(puzzle, tmp_path, suffix):
    path = save_image(puzzle, tmp_path / f"fixture{suffix}", SOLUTION, title="fixture")
    data = path.read_bytes()
    assert len(data) > 1000
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data[:2000]


def test_image_of_a_bare_puzzle(puzzle, tmp_path):
    assert save_image(puzzle, tmp_path / "bare.png").stat().st_size > 500
