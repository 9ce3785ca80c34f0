"""Slitherlink formats on real strings: FORMATS.md's example, cspuz's URLs, Loopy ids, janko blocks."""

from __future__ import annotations

import bz2
import json
import random

import pytest

from harness import bundles, kinds, sets
from harness.errors import InstanceError
from harness.grid import Grid, solution_string
from harness.kinds import read_spec, read_text, write_text
from harness.kinds.masyu.formats import is_tatham_id
from harness.kinds.slitherlink import corpus
from harness.kinds.slitherlink.formats import (
    UNKNOWN,
    decode_body,
    encode_body,
    read_compact,
    read_janko,
    read_loopy,
    read_url,
    write_compact,
    write_loopy,
    write_url,
)
from harness.kinds.slitherlink.model import Slitherlink, corners, sides

# docs/FORMATS.md: the plain-text 5x5, its puzz.link URL and its one loop.
FORMATS_TEXT = """slitherlink 5 5
2 . . 1 .
. 2 . . 1
. . 2 . .
3 . . 3 .
. 0 . . 3
"""
FORMATS_URL = "https://puzz.link/p?slither/5/5/cbcbcddad"
FORMATS_LOOP = "95555c/a95c0a/aa960a/aaa9ca/3636aa/000036"

# cspuz_core cspuz_rs_puzzles/src/puzzles/slitherlink.rs: problem_for_tests1/2 with their URLs and
# solutions (horizontal edges (R+1) x C, vertical R x (C+1)). cspuz writes a plain `1` in the last
# cell where pzprjs writes `b`; the second is the every-vertex variant.
CSPUZ_4X4 = "https://puzz.link/p?slither/4/4/dgdh2c71"
CSPUZ_4X4_TEXT = "slitherlink 4 4\n3 . . .\n3 . . .\n. 2 2 .\n. 2 . 1\n"
CSPUZ_4X4_H = ["1111", "1010", "1000", "0101", "1000"]
CSPUZ_4X4_V = ["10001", "01111", "10111", "11000"]
CSPUZ_3X3_FULL = "https://puzz.link/p?slither/f/3/3/gdk"
CSPUZ_3X3_H = ["101", "010", "010", "101"]
CSPUZ_3X3_V = ["1111", "1001", "1111"]

# shared/corpus/janko-tkoz0/Slitherlink.jsonl.bz2, lines 1 and 2 verbatim (the `moves` cut short).
JANKO_LINES = [
    {"file": "/Slitherlink/0001.a.x-janko", "data": {
        "puzzle": "slitherlink", "author": "Oleg Andrushko", "solver": "J\u00fcrgen Helbig",
        "source": "http://www.puzzleprograms.narod.ru/", "info": "NotEasy.4x4.01", "rows": 4, "cols": 4,
        "unit": 30, "problem": [["1", "-", "-", "0"], ["-", "-", "-", "-"], ["1", "-", "2", "1"],
                                ["-", "2", "3", "-"]],
        "solution": [["-", "x", "-", "-"], ["-", "x", "-", "-"], ["-", "x", "x", "-"], ["-", "-", "x", "-"]],
        "moves": "Z1;L0;Veb,1;"}},
    {"file": "/Slitherlink/0002.a.x-janko", "data": {
        "puzzle": "slitherlink", "author": "Oleg Andrushko", "solver": "J\u00fcrgen Helbig",
        "source": "http://www.puzzleprograms.narod.ru/", "info": "NotEasy.4x4.02", "unit": 30, "rows": 4,
        "cols": 4, "problem": [["-", "-", "3", "1"], ["1", "-", "-", "-"], ["3", "-", "-", "3"],
                               ["1", "2", "-", "-"]],
        "solution": [["-", "-", "x", "-"], ["-", "-", "x", "-"], ["x", "x", "x", "x"], ["-", "-", "x", "-"]],
        "moves": "Z1;L0;L0;Hae,1;"}},
]
# The same page as a janko.at block, as the x-janko script on the page holds it.
JANKO_0001 = """begin
puzzle slitherlink
author Oleg Andrushko
solver Jürgen Helbig
info NotEasy.4x4.01
rows 4
cols 4
unit 30
problem
1 - - 0
- - - -
1 - 2 1
- 2 3 -
solution
- x - -
- x - -
- x x -
- - x -
end
"""
JANKO_0001_LOOP = "09c00/0aa00/0a3c0/03ca0/00360"


def hv_loop(puzzle: Slitherlink, horizontal: list[str], vertical: list[str]) -> str:
    edges = [((r, c), (r, c + 1)) for r, row in enumerate(horizontal) for c, b in enumerate(row) if b == "1"]
    edges += [((r, c), (r + 1, c)) for r, row in enumerate(vertical) for c, b in enumerate(row) if b == "1"]
    return solution_string(puzzle.vertices, edges)


def random_puzzle(rng: random.Random, unknown: bool = True) -> Slitherlink:
    rows, cols = rng.randint(1, 9), rng.randint(1, 30)
    density = rng.random()
    clues, question = {}, set()
    for cell in Grid(rows, cols).cells:
        if rng.random() < density:
            if unknown and rng.random() < 0.1:
                question.add(cell)
            else:
                clues[cell] = rng.randint(0, 4)
    return Slitherlink(Grid(rows, cols), clues, frozenset(question), full=unknown and rng.random() < 0.2)


# --- FORMATS.md and the model ---------------------------------------------------------------------

def test_formats_example_url_is_the_text_grid_and_its_loop_passes():
    puzzle = read_url(FORMATS_URL)
    assert puzzle == read_text(FORMATS_TEXT) and puzzle.kind == "slitherlink"
    assert dict(puzzle.clues) == {(0, 0): 2, (0, 3): 1, (1, 1): 2, (1, 4): 1, (2, 2): 2, (3, 0): 3, (3, 3): 3,
                                  (4, 1): 0, (4, 4): 3}
    assert write_url(puzzle) == FORMATS_URL  # pzprjs's own writing: `d` for the 3 in the last cell
    assert kinds.check(puzzle, FORMATS_LOOP) == []
    assert read_spec(FORMATS_URL) == puzzle


def test_one_by_one_four_is_the_smallest_loop():
    puzzle = read_text("slitherlink 1 1\n4\n")
    assert puzzle.vertices == Grid(2, 2)
    assert kinds.check(puzzle, "9c/36") == []
    assert write_url(puzzle) == "https://puzz.link/p?slither/1/1/e"


def test_model_is_hashable_by_content_and_refuses_bad_clues():
    a = Slitherlink(Grid(2, 3), {(0, 1): 2, (1, 2): 0})
    b = Slitherlink(Grid(2, 3), {(1, 2): 0, (0, 1): 2})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Slitherlink(Grid(2, 3), {(0, 1): 2, (1, 2): 0}, full=True)
    assert a != Slitherlink(Grid(2, 3), {(0, 1): 2, (1, 2): 0}, frozenset({(0, 0)}))
    assert (a.rows, a.cols, a.vertices) == (2, 3, Grid(3, 4))
    with pytest.raises(ValueError, match="not a number 0-4"):
        Slitherlink(Grid(2, 2), {(0, 0): 5})
    with pytest.raises(ValueError, match="outside"):
        Slitherlink(Grid(2, 2), {(2, 0): 1})
    with pytest.raises(ValueError, match="both a number and a `\\?`"):
        Slitherlink(Grid(2, 2), {(0, 0): 1}, frozenset({(0, 0)}))


def test_sides_and_corners_of_a_cell():
    assert corners((1, 2)) == ((1, 2), (1, 3), (2, 2), (2, 3))
    assert sides((1, 2)) == (((1, 2), (1, 3)), ((2, 2), (2, 3)), ((1, 2), (2, 2)), ((1, 3), (2, 3)))
    # the 1x1 `4` loop is exactly the four sides of its cell
    assert solution_string(Grid(2, 2), sides((0, 0))) == "9c/36"


# --- plain text -----------------------------------------------------------------------------------

def test_text_round_trip_keeps_unknown_clues_and_the_full_flag():
    text = "slitherlink 2 3\n? . 4\n0 - .\nfull\n"
    puzzle = read_text(text)
    assert dict(puzzle.clues) == {(0, 2): 4, (1, 0): 0} and puzzle.unknown == {(0, 0)} and puzzle.full
    assert write_text(puzzle) == "slitherlink 2 3\n? . 4\n0 . .\nfull\n"
    assert read_text(write_text(puzzle)) == puzzle
    assert read_text("slitherlink 2 3\n?.4\n0..\n") == Slitherlink(Grid(2, 3), {(0, 2): 4, (1, 0): 0},
                                                                   frozenset({(0, 0)}))


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ("slitherlink 2 2\n1 5\n. .\n", 2, "unknown token '5' in row 0"),
        ("slitherlink 2 2\n1 .\n. w\n", 3, "unknown token 'w' in row 1"),
        ("slitherlink 2 2\n1 . .\n. .\n", 2, "expected 2 cells in row 0, found 3"),
        ("slitherlink 2 2\n1 .\n", 2, "expected 2 rows of cells, found 1"),
        ("slitherlink 2 2\n1 .\n. .\n. .\n", 4, "expected 2 rows of cells, found more"),
        ("slitherlink 0 2\n", 1, "the number of rows must be at least 1"),
    ],
)
def test_bad_text_is_one_line_naming_source_and_line(text, line, needle):
    with pytest.raises(InstanceError) as exc:
        read_text(text, "bad.txt")
    message = str(exc.value)
    assert message.startswith(f"bad.txt:{line}: ") and needle in message and "\n" not in message


# --- puzz.link --------------------------------------------------------------------------------------

def test_cspuz_urls_decode_and_their_solutions_pass():
    puzzle = read_url(CSPUZ_4X4)
    assert puzzle == read_text(CSPUZ_4X4_TEXT)
    assert write_url(puzzle) == "https://puzz.link/p?slither/4/4/dgdh2c7b"  # pzprjs's canonical form
    assert kinds.check(puzzle, hv_loop(puzzle, CSPUZ_4X4_H, CSPUZ_4X4_V)) == []

    full = read_url(CSPUZ_3X3_FULL)
    assert full.full and dict(full.clues) == {(0, 1): 3} and write_url(full) == CSPUZ_3X3_FULL
    loop = hv_loop(full, CSPUZ_3X3_H, CSPUZ_3X3_V)
    assert kinds.check(full, loop) == []
    # a loop the plain rules accept but that misses vertices fails the every-vertex rule
    ring = "955c/a00a/a00a/3556"
    assert kinds.check(Slitherlink(full.grid), ring) == []
    assert kinds.check(Slitherlink(full.grid, full=True), ring) == [
        "vertex (1, 1) is not on the loop", "vertex (1, 2) is not on the loop",
        "vertex (2, 1) is not on the loop", "vertex (2, 2) is not on the loop"]


@pytest.mark.parametrize(
    "url",
    [
        "http://pzv.jp/p.html?slither/5/5/cbcbcddad",
        "https://puzz.link/p?slither_edit/5/5/cbcbcddad/",
        "https://puzz.link/p?type=editor&slither/5/5/cbcbcddad",
        "https://pzprxs.vercel.app/p?slitherlink/v:/5/5/cbcbcddad",
        "https://puzz.link/p?slither/5/5/2h1h2h1h2h3h3h0h3",  # non-canonical: plain digits and runs
    ],
)
def test_url_variants_read_the_same_puzzle(url):
    assert read_spec(url) == read_url(FORMATS_URL)


def test_penpa_style_body_with_plain_last_digit_is_read():
    # notes/formats.md §5: penpa-edit's example ends in a plain `2` where pzprjs would write `c`.
    puzzle = read_url("https://puzz.link/p?slither/5/5/gch1222ch331bg222")
    assert len(puzzle.clues) == 13 and puzzle.clues[(4, 4)] == 2 and (4, 1) not in puzzle.clues
    assert read_url(write_url(puzzle)) == puzzle


def test_body_codes():
    assert decode_body("k", 5, "s") == [None] * 5
    assert decode_body(".4", 2, "s") == [UNKNOWN, 4]
    assert encode_body([None] * 25) == "zk"  # runs are cut at 20
    assert encode_body([None] * 20 + [1]) == "zb"
    assert encode_body([2, None, 3, None, None, 1, 1]) == "7d1b"
    assert encode_body([2, None, None]) == "c" and encode_body([2, None]) == "c" and encode_body([2]) == "c"
    assert encode_body([UNKNOWN, None, 0]) == ".ga" and encode_body([0, UNKNOWN]) == "0."


def test_url_round_trips_on_random_puzzles():
    rng = random.Random(7)
    for _ in range(300):
        puzzle = random_puzzle(rng)
        assert read_url(write_url(puzzle)) == puzzle
        assert read_compact(write_compact(puzzle), puzzle.rows, puzzle.cols, "s") == puzzle
        assert read_text(write_text(puzzle)) == puzzle


@pytest.mark.parametrize(
    ("url", "needle"),
    [
        ("https://puzz.link/p?slither/5/5/cbcbcdda", "truncated body: it covers 24 of the 25 cells"),
        ("https://puzz.link/p?slither/5/5/cbcbcddad0", "body too long"),
        ("https://puzz.link/p?slither/5/5/cbcbcFdad", "bad character 'F' at body position 5"),
        ("https://puzz.link/p?slither/5/5/cbcbcfdad", "bad character 'f'"),
        ("https://puzz.link/p?slither/x/5/5/cbcbcddad", "unknown flag 'x'"),
        ("https://puzz.link/p?slither/5/5", "missing fields"),
        ("https://puzz.link/p?slither/5/5/cbcbcddad/extra", "unexpected text after the body"),
        ("https://puzz.link/p?mashu/5/5/cbcbcddad", "not a Slitherlink URL"),
    ],
)
def test_bad_urls_are_one_line_naming_the_url(url, needle):
    with pytest.raises(InstanceError) as exc:
        read_url(url)
    assert str(exc.value).startswith(url + ": ") and needle in str(exc.value)


def test_compact_form_is_the_url_body():
    puzzle = read_url(CSPUZ_3X3_FULL)
    assert write_compact(puzzle) == "f/gdk" and write_compact(read_url(FORMATS_URL)) == "cbcbcddad"


# --- Loopy ------------------------------------------------------------------------------------------

def test_loopy_id_of_the_formats_example():
    puzzle = read_url(FORMATS_URL)
    assert write_loopy(puzzle) == "5x5t0:2b1b2b1b2b3b3b0b3"
    assert read_spec("5x5t0:2b1b2b1b2b3b3b0b3") == puzzle
    assert read_spec("5x5t0de:2b1b2b1b2b3b3b0b3") == puzzle  # a difficulty is read and ignored
    assert read_loopy("5x5:2b1b2b1b2b3b3b0b3") == puzzle  # Loopy's type defaults to squares
    # the ids are told apart from Pearl's by the `t`
    assert kinds.get("slitherlink").claims_id("5x5t0:2b1b2b1b2b3b3b0b3")
    assert not is_tatham_id("5x5t0:2b1b2b1b2b3b3b0b3") and not kinds.get("slitherlink").claims_id("6x6:bWdB")


def test_loopy_round_trips_and_long_runs():
    rng = random.Random(11)
    for _ in range(200):
        puzzle = random_puzzle(rng, unknown=False)
        assert read_loopy(write_loopy(puzzle)) == puzzle
    assert write_loopy(Slitherlink(Grid(6, 10), {(5, 9): 1})) == "10x6t0:zzg1"  # 59 = 26 + 26 + 7
    with pytest.raises(ValueError, match="Loopy"):
        write_loopy(read_url(CSPUZ_3X3_FULL))


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("5x5t1:2b1b2b1b2b3b3b0b3", "grid type 1"),
        ("5x5t0#12345", "random-seed id"),
        ("5x5t0:2b1b2b1b2b3b3b0b", "description too short: it covers 24 cells"),
        ("5x5t0:2b1b2b1b2b3b3b0b3a", "description too long"),
        ("5x5t0:2b1b2b1b2b3b3b0b5", "more than a square has sides"),
        ("5x5t0:2b1b2b1b2b3b3b0b!", "unknown character in description: '!'"),
    ],
)
def test_bad_loopy_ids(spec, needle):
    with pytest.raises(InstanceError) as exc:
        read_spec(spec)
    assert str(exc.value).startswith(spec + ": ") and needle in str(exc.value)


# --- janko.at ---------------------------------------------------------------------------------------

def test_janko_block_shading_becomes_the_loop(tmp_path):
    puzzle, loop = read_janko(JANKO_0001, "0001")
    assert write_text(puzzle) == "slitherlink 4 4\n1 . . 0\n. . . .\n1 . 2 1\n. 2 3 .\n"
    assert loop == JANKO_0001_LOOP and kinds.check(puzzle, loop) == []
    path = tmp_path / "0001.a.x-janko"
    path.write_text(JANKO_0001)
    assert read_spec(str(path)) == puzzle  # the `puzzle` key picks the kind


def test_shading_on_the_border_closes_along_the_border():
    # one shaded corner cell, and a shaded 2x2 block: loops around them, border edges included
    assert read_janko("begin\npuzzle slitherlink\nsize 1\nproblem\n-\nsolution\nx\nend\n")[1] == "9c/36"
    _, loop = read_janko("begin\npuzzle slitherlink\nrows 2\ncols 3\nproblem\n- - -\n- - -\nsolution\n"
                         "- x x\n- x x\nend\n")
    assert loop == "095c/0a0a/0356"


def test_bad_janko_blocks_name_the_line():
    with pytest.raises(InstanceError, match=r"^b:9: unknown solution token 'o'"):
        read_janko("begin\npuzzle slitherlink\nsize 2\nproblem\n1 -\n- -\nsolution\nx -\n- o\nend\n", "b")
    with pytest.raises(InstanceError, match=r"^b:2: not a Slitherlink block: puzzle 'masyu'"):
        read_janko("begin\npuzzle masyu\nsize 1\nproblem\n-\nend\n", "b")
    with pytest.raises(InstanceError, match=r"^b:5: unknown token '7' in the problem"):
        read_janko("begin\npuzzle slitherlink\nsize 1\nproblem\n7\nend\n", "b")


# --- the corpus importer ----------------------------------------------------------------------------

@pytest.fixture
def mini_corpus(tmp_path):
    folder = tmp_path / corpus.JANKO_TKOZ0
    folder.mkdir()
    repeat = json.loads(json.dumps(JANKO_LINES[0]))  # page 0001 again under another number
    repeat["file"] = "/Slitherlink/0999.a.x-janko"
    broken = json.loads(json.dumps(JANKO_LINES[1]))  # page 0002 with a clue its shading does not meet
    broken["file"] = "/Slitherlink/0003.a.x-janko"
    broken["data"]["problem"][0][0] = "2"
    lines = [*JANKO_LINES, repeat, broken]
    with bz2.open(folder / corpus.JANKO_FILE, "wt") as handle:
        handle.write("".join(json.dumps(line) + "\n" for line in lines))
    return tmp_path


def test_importer_names_merges_and_judges(mini_corpus, tmp_path):
    built = sets.build(mini_corpus, tmp_path / "out", ["slitherlink"])
    [(path, entries)] = built.items()
    assert path == "slitherlink/janko.tsv.gz"
    by_name = {e.name: e for e in entries}
    assert list(by_name) == ["janko-sl-0001", "janko-sl-0002", "janko-sl-0003"]
    assert by_name["janko-sl-0001"].solution == JANKO_0001_LOOP
    assert by_name["janko-sl-0001"].meta == {"author": "Oleg Andrushko", "aliases": "janko-sl-0999"}
    assert kinds.check(by_name["janko-sl-0002"].puzzle, by_name["janko-sl-0002"].solution) == []
    assert by_name["janko-sl-0003"].solution == ""
    assert "clue 2 at cell (0, 0) has 0 sides" in by_name["janko-sl-0003"].meta["note"]
    rows = bundles.read_bundle(tmp_path / "out" / path)
    assert rows[0]["puzzle"] == "bah6262d" and rows[0]["solution"] == JANKO_0001_LOOP


def test_importer_refuses_a_page_whose_size_disagrees(mini_corpus, tmp_path):
    path = mini_corpus / corpus.JANKO_TKOZ0 / corpus.JANKO_FILE
    line = json.loads(json.dumps(JANKO_LINES[0]))
    line["data"]["rows"] = 5
    with bz2.open(path, "wt") as handle:
        handle.write(json.dumps(line) + "\n")
    with pytest.raises(InstanceError, match=r"Slitherlink.jsonl.bz2:1: the page says 5x4"):
        list(corpus.read_janko_jsonl(path))
