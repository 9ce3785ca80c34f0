"""Walls: plain text and janko.at blocks read and write, the checker names each broken rule, the corpus
importer agrees with the corpus's own conversion, and the drawings show what is there."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import pytest

from harness import kinds
from harness.errors import InstanceError
from harness.grid import Grid
from harness.kinds import read_janko, read_spec, read_text, save_image
from harness.kinds.walls import corpus
from harness.kinds.walls.model import Segment, Walls

matplotlib.use("Agg")

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "janko-tkoz0"
# docs/FORMATS.md's example is janko.at Mauerbau #1; its solution is janko.at's.
EXAMPLE = "walls 5 5\n. . 2 . .\n4 . . . 2\n. . 1 . .\n2 . . . 3\n. . 4 . .\n"
SOLUTION = "|-#-|/#--|#/||#||/#-|-#/--#-|"
JANKO = """begin
puzzle walls
author Inaba Naoki
size 5
problem
- - 2 - -
4 - - - 2
- - 1 - -
2 - - - 3
- - 4 - -
solution
ns ew - ew ns
- ew ew ns -
ns ns - ns ns
- ew ns ew -
ew ew - ew ns
end
"""


def corpus_file(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"{path} is not here (the corpus lives in ../shared beside the repo)")
    return path


def test_plain_text_reads_every_token_and_writes_back():
    text = "walls 3 4\n. 12 # -\n| . . .\n0 . - .\n"
    puzzle = read_text(text, "t")
    assert puzzle.kind == "walls" and (puzzle.rows, puzzle.cols) == (3, 4)
    assert dict(puzzle.black) == {(0, 1): 12, (0, 2): None, (2, 0): 0}
    h, v = Segment.HORIZONTAL, Segment.VERTICAL
    assert dict(puzzle.given) == {(0, 3): h, (1, 0): v, (2, 2): h}
    assert puzzle.clues == {(0, 1): 12, (2, 0): 0}
    assert kinds.write_text(puzzle) == text
    assert read_text(kinds.write_text(puzzle)) == puzzle
    assert read_text("walls 2 3\n.#-\n|.4\n") == read_text("walls 2 3\n. # -\n| . 4\n")  # unspaced rows
    kind = kinds.get("walls")
    assert kind.read_compact(kind.write_compact(puzzle), 3, 4, "c") == puzzle


@pytest.mark.parametrize(("text", "message"), [
    ("walls 2 2\n. x\n. .\n", "unknown token 'x' in row 0"),
    ("walls 2 2\n. .\n", "expected 2 rows of cells, found 1"),
    ("walls 1 2\n. . .\n", "expected 2 cells in row 0, found 3"),
    ("walls 1 1\n.\n.\n", "expected 1 rows of cells, found more"),
])
def test_bad_text_names_the_problem(text, message):
    with pytest.raises(InstanceError, match=message):
        read_text(text, "bad.txt")


def test_the_model_refuses_impossible_cells():
    with pytest.raises(ValueError, match="outside"):
        Walls(Grid(2, 2), {(2, 0): 1})
    with pytest.raises(ValueError, match="black and has a given segment"):
        Walls(Grid(2, 2), {(0, 0): 1}, {(0, 0): Segment.VERTICAL})


def test_janko_block_reads_problem_and_solution(tmp_path):
    puzzle, solution = read_janko(JANKO, "janko")
    assert puzzle == read_text(EXAMPLE) and solution == SOLUTION
    assert kinds.check(puzzle, solution) == []
    path = tmp_path / "001.txt"
    path.write_text(JANKO)
    assert read_spec(str(path)) == puzzle  # the `puzzle walls` key picks the kind
    with pytest.raises(InstanceError, match="unknown solution token 'we'"):
        read_janko(JANKO.replace("ns ew - ew ns", "ns we - ew ns"), "j")
    with pytest.raises(InstanceError, match="unknown problem token"):
        read_janko(JANKO.replace("4 - - - 2", "4 - - - y"), "j")


def test_janko_blocks_mark_given_segments_and_unnumbered_black_cells():
    block = "begin\npuzzle mauerbau\nrows 1\ncols 4\nproblem\nx ns ew 1\nsolution\n- ns ew -\nend\n"
    puzzle, solution = read_janko(block, "j")
    assert dict(puzzle.black) == {(0, 0): None, (0, 3): 1}
    assert dict(puzzle.given) == {(0, 1): Segment.VERTICAL, (0, 2): Segment.HORIZONTAL}
    assert solution == "#|-#" and kinds.check(puzzle, solution) == []


# --- the checker, one broken rule at a time -------------------------------------------------------

@pytest.fixture
def example():
    return read_text(EXAMPLE)


def test_the_known_solution_passes(example):
    assert kinds.check(example, SOLUTION) == []


def test_a_wrong_clue_count_is_named_with_its_arms(example):
    # (0,0) turned from | to -: the 4 below loses its upward arm, the 2 beside gains a left one
    problems = kinds.check(example, "--#-|" + SOLUTION[5:])
    assert problems == ["clue 2 at (0, 2) sees 3 (left 2, right 1, up 0, down 0)",
                        "clue 4 at (1, 0) sees 3 (left 0, right 2, up 0, down 1)"]


def test_runs_stop_at_a_crossing_segment():
    puzzle = read_text("walls 1 4\n2 - | -\n")
    assert kinds.check(puzzle, "#-|-") == ["clue 2 at (0, 0) sees 1 (left 0, right 1, up 0, down 0)"]
    assert kinds.check(read_text("walls 1 4\n1 . | .\n"), "#-|-") == []


def test_black_and_white_cells_and_givens(example):
    rows = SOLUTION.split("/")
    assert kinds.check(example, "/".join(["|-|-|", *rows[1:]])) == [
        "cell (0, 2) is black but the solution puts '|' there"]
    assert kinds.check(example, "/".join(["#-#-|", *rows[1:]])) == ["white cell (0, 0) has no segment"]
    given = read_text("walls 1 3\n. - 1\n")
    assert kinds.check(given, "|-#") == []
    assert kinds.check(given, "||#") == ["cell (0, 1) is given '-' but the solution has '|'"]


@pytest.mark.parametrize("bad", ["", "|-#-|", SOLUTION + "/-----", SOLUTION.replace("#", "x", 1),
                                 SOLUTION[:-1]])
def test_malformed_solutions_are_rejected(example, bad):
    assert kinds.check(example, bad)


# --- the corpus -----------------------------------------------------------------------------------

def test_the_importer_agrees_with_the_corpus_conversion():
    entries = list(corpus.read_mauerbau(corpus_file("Mauerbau.jsonl.bz2")))
    derived = [json.loads(line) for line in corpus_file("walls_mauerbau.jsonl").read_text().splitlines()]
    assert len(entries) == len(derived) == 270
    for entry, record in zip(entries, derived, strict=True):
        assert entry.name == "janko-at-" + record["id"].removeprefix("janko-mauerbau-")
        body = "\n".join(" ".join(row) for row in record["problem_tokens"])
        assert entry.puzzle == read_text(f"walls {record['rows']} {record['cols']}\n{body}\n", record["id"])
        assert entry.solution == "/".join(record["solution"])
        assert kinds.check(entry.puzzle, entry.solution) == []


def test_repeated_pages_become_aliases():
    [entries] = corpus.build(corpus_file("Mauerbau.jsonl.bz2").parents[1]).values()
    assert len(entries) == 215 and all(e.solution for e in entries)
    aliases = {e.name: e.meta["aliases"].split() for e in entries if e.meta["aliases"]}
    assert sum(map(len, aliases.values())) == 55
    assert aliases["janko-at-071"] == ["janko-at-152"]


# --- drawings -------------------------------------------------------------------------------------

def test_text_render_joins_horizontal_runs(example):
    assert kinds.get("walls").render_text(example, SOLUTION).splitlines() == [
        "│ ─ 2 ─ │", "4 ─── │ 2", "│ │ 1 │ │", "2 ─ │ ─ 3", "─── 4 ─ │"]
    assert kinds.get("walls").render_text(example, SOLUTION, ascii=True).splitlines()[1] == "4 --- | 2"
    bare = kinds.get("walls").render_text(read_text("walls 1 3\n12 . |\n"))
    assert bare == "12  ·  │\n"  # clues right-aligned in fields as wide as the widest clue
    with pytest.raises(ValueError):
        kinds.get("walls").render_text(example, "|||")


def test_png_is_written(example, tmp_path):
    path = save_image(example, tmp_path / "walls.png", SOLUTION, title="janko #1")
    assert path.stat().st_size > 3000
    assert save_image(example, tmp_path / "bare.png").stat().st_size > 1000
