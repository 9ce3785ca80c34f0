"""Slitherlink drawings (terminal text, image files) and the single-puzzle CLI reaching the kind."""

from __future__ import annotations

import json

import matplotlib
import pytest

from harness import kinds
from harness.kinds import read_spec, save_image
from harness.kinds.slitherlink.draw import render_text
from harness.solve import EXIT_SOLVED, EXIT_UNSOLVED, main

matplotlib.use("Agg")

# docs/FORMATS.md's 5x5 and its loop.
URL = "https://puzz.link/p?slither/5/5/cbcbcddad"
TEXT = "slitherlink 5 5\n2 . . 1 .\n. 2 . . 1\n. . 2 . .\n3 . . 3 .\n. 0 . . 3\n"
LOOP = "95555c/a95c0a/aa960a/aaa9ca/3636aa/000036"

SOLVED_BOX = """\
┌───────────────────┐
│ 2           1     │
│   ┌───────┐   ·   │
│   │ 2     │     1 │
│   │   ┌───┘   ·   │
│   │   │ 2         │
│   │   │   ┌───┐   │
│ 3 │   │   │ 3 │   │
└───┘   └───┘   │   │
      0         │ 3 │
·   ·   ·   ·   └───┘
"""
SOLVED_ASCII = """\
+---+---+---+---+---+
| 2           1     |
+   +---+---+   +   +
|   | 2     |     1 |
+   +   +---+   +   +
|   |   | 2         |
+   +   +   +---+   +
| 3 |   |   | 3 |   |
+---+   +---+   +   +
      0         | 3 |
+   +   +   +   +---+
"""


@pytest.fixture
def puzzle():
    return read_spec(URL)


def test_text_renders(puzzle):
    assert render_text(puzzle, LOOP) == SOLVED_BOX
    assert render_text(puzzle, LOOP, ascii=True) == SOLVED_ASCII
    bare = render_text(puzzle).splitlines()
    assert bare[0] == "·   ·   ·   ·   ·   ·" and bare[1] == "  2           1" and len(bare) == 11
    assert kinds.of(puzzle).render_text(puzzle, LOOP) == SOLVED_BOX


def test_unknown_clues_and_broken_loops_draw_as_what_they_are():
    puzzle = kinds.read_text("slitherlink 1 2\n? 1\n")
    assert render_text(puzzle) == "·   ·   ·\n  ?   1\n·   ·   ·\n"
    # a line from (0, 0) to (0, 1) and nothing else: two dead ends
    assert render_text(puzzle, "140/000") == "╶───╴   ·\n  ?   1\n·   ·   ·\n"
    with pytest.raises(ValueError):
        render_text(puzzle, "14/00")


def test_describe(puzzle):
    kind = kinds.of(puzzle)
    assert kind.describe(puzzle) == "9 clues"
    variant = read_spec("https://puzz.link/p?slither/f/3/3/.dk")
    assert kind.describe(variant) == "1 clue, 1 `?`, every vertex on the loop"


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_image_is_written(puzzle, tmp_path, suffix):
    path = save_image(puzzle, tmp_path / f"sl{suffix}", LOOP, title="5x5")
    data = path.read_bytes()
    assert len(data) > 1000
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data[:2000]


# --- python -m harness.solve ------------------------------------------------------------------------

@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "formats5.txt"
    path.write_text(TEXT)
    return path


def test_a_text_file_with_a_kind_line_is_solved_by_the_default_loop_strategy(text_file, capsys):
    assert main([str(text_file)]) == EXIT_SOLVED
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("formats5: slitherlink 5x5, 9 clues; circuit: solved")
    assert SOLVED_BOX.rstrip("\n") in out  # the one loop, drawn


def test_an_encoding_that_does_not_serve_the_kind_is_an_error(text_file, capsys):
    assert main([str(text_file), "-e", "cpsat"]) == EXIT_UNSOLVED
    out = capsys.readouterr().out
    assert "cpsat: error" in out and "does not support slitherlink" in out


def test_a_right_answer_is_checked_and_drawn(text_file, tmp_path, capsys):
    image = tmp_path / "out.png"
    argv = [str(text_file), "-e", "dummy", "-o", "status=sat", "-o", f"solution={LOOP}", "--png", str(image)]
    assert main(argv) == EXIT_SOLVED
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("formats5: slitherlink 5x5, 9 clues; dummy: solved")
    assert SOLVED_BOX.rstrip("\n") in out and image.stat().st_size > 1000


@pytest.mark.parametrize("spec", [URL, "5x5t0:2b1b2b1b2b3b3b0b3"])
def test_a_wrong_answer_is_refused_with_the_checkers_words(spec, capsys):
    wrong = LOOP.replace("aaa9ca", "aaa9c8")  # vertex (3, 5) loses its way up
    argv = [spec, "-e", "dummy", "-o", "status=sat", "-o", f"solution={wrong}", "--json"]
    assert main(argv) == EXIT_UNSOLVED
    row = json.loads(capsys.readouterr().out)
    assert (row["puzzle"], row["status"], row["verified"]) == ("slitherlink", "wrong", 0)
    assert "vertex (2, 5) goes down but (3, 5) does not come back" in row["detail"]
