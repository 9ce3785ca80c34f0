"""Marupeke: plain text reads and writes, the checker names each broken rule, the real instance imports,
and the drawings show what is there."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pytest

from harness import kinds
from harness.errors import InstanceError
from harness.grid import Grid
from harness.kinds import read_text, save_image
from harness.kinds.marupeke import corpus
from harness.kinds.marupeke.model import Mark, Marupeke

matplotlib.use("Agg")

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
# The one real instance (kevinychen/nikoli-puzzle-solver's sample) and its solution.
REAL = ".XX.#.O/#..#O#./.#...../O.....#/..#.#.O/#XO#..#/X.#..X."
SOLUTION = "OXXO#XO/#XX#O#X/O#OOXXO/OOXXOO#/XX#X#XO/#XO#OO#/XO#OXXO"


@pytest.fixture
def real():
    return read_text("marupeke 7 7\n" + REAL.replace("/", "\n"), "real")


def test_plain_text_reads_spaced_and_unspaced_rows_and_writes_back(real):
    assert real.kind == "marupeke" and len(real.blocks) == 12 and len(real.given) == 10
    assert real.given[(0, 1)] is Mark.X and real.given[(0, 6)] is Mark.O and (0, 4) in real.blocks
    text = kinds.write_text(real)
    assert text.splitlines()[:2] == ["marupeke 7 7", ". X X . # . O"]
    assert read_text(text) == real
    assert read_text("marupeke 1 3\no x .\n") == read_text("marupeke 1 3\nOX.\n")  # lower case too
    kind = kinds.get("marupeke")
    assert kind.write_compact(real) == REAL
    assert kind.read_compact(REAL, 7, 7, "c") == real


@pytest.mark.parametrize(("text", "message"), [
    ("marupeke 1 3\n. Y .\n", "unknown token 'Y' in row 0"),
    ("marupeke 2 2\n. .\n", "expected 2 rows of cells, found 1"),
    ("marupeke 1 2\n. . .\n", "expected 2 cells in row 0, found 3"),
])
def test_bad_text_names_the_problem(text, message):
    with pytest.raises(InstanceError, match=message):
        read_text(text, "bad.txt")


def test_the_model_refuses_impossible_cells():
    with pytest.raises(ValueError, match="outside"):
        Marupeke(Grid(2, 2), {(0, 2)})
    with pytest.raises(ValueError, match="blocker and has a given mark"):
        Marupeke(Grid(2, 2), {(0, 0)}, {(0, 0): Mark.O})


def test_the_real_instance_imports_with_its_solution(real):
    path = CORPUS / corpus.KEVINYCHEN
    if not path.exists():
        pytest.skip(f"{path} is not here (the corpus lives in ../shared beside the repo)")
    [entry] = corpus.build(CORPUS)["real"]
    assert (entry.name, entry.puzzle, entry.solution) == ("sample-1", real, SOLUTION)


# --- the checker, one broken rule at a time -------------------------------------------------------

def test_the_known_solution_passes(real):
    assert kinds.check(real, SOLUTION) == []


@pytest.mark.parametrize(("solution", "problem"), [
    ("OOO", "three O in a line from (0, 0) going right"),
    ("XXX", "three X in a line from (0, 0) going right"),
])
def test_three_in_a_row(solution, problem):
    assert kinds.check(read_text("marupeke 1 3\n. . .\n"), solution) == [problem]


def test_columns_and_both_diagonals():
    puzzle = read_text("marupeke 3 3\n...\n...\n...\n")
    assert kinds.check(puzzle, "OXO/OXX/OOX") == ["three O in a line from (0, 0) going down"]
    assert kinds.check(puzzle, "OXX/XOX/XOO") == ["three O in a line from (0, 0) going down-right"]
    assert kinds.check(puzzle, "XOO/OOX/OXX") == ["three O in a line from (0, 2) going down-left"]
    assert kinds.check(puzzle, "OXO/XOX/XOX") == []


def test_a_blocker_breaks_a_line():
    assert kinds.check(read_text("marupeke 1 5\nO . # . .\n"), "OO#OO") == []
    assert kinds.check(read_text("marupeke 1 4\n. . . #\n"), "OOO#") == [
        "three O in a line from (0, 0) going right"]


def test_blockers_whites_and_givens(real):
    rows = SOLUTION.split("/")
    assert kinds.check(real, "/".join([rows[0][:4] + "O" + rows[0][5:], *rows[1:]])) == [
        "cell (0, 4) is a blocker but the solution puts 'O' there"]
    assert kinds.check(real, "#" + SOLUTION[1:]) == ["white cell (0, 0) holds neither O nor X"]
    assert kinds.check(real, "OOXO" + SOLUTION[4:])[0] == "cell (0, 1) is given X but the solution has 'O'"


@pytest.mark.parametrize("bad", ["", "OXXO#XO", SOLUTION + "/OOXXOO#", SOLUTION.replace("O", "0", 1),
                                 SOLUTION[:-1]])
def test_malformed_solutions_are_rejected(real, bad):
    assert kinds.check(real, bad)


# --- drawings -------------------------------------------------------------------------------------

def test_text_render(real):
    kind = kinds.get("marupeke")
    assert kind.render_text(real, SOLUTION).splitlines()[0] == "○ × × ○ ■ × ○"
    assert kind.render_text(real, ascii=True).splitlines()[0] == ". X X . # . O"
    assert kind.render_text(real).splitlines()[1] == "■ · · ■ ○ ■ ·"
    with pytest.raises(ValueError):
        kind.render_text(real, "OXO")


def test_png_is_written(real, tmp_path):
    assert save_image(real, tmp_path / "m.png", SOLUTION, title="sample").stat().st_size > 3000
