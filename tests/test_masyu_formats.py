"""Masyu formats on real strings: pzprjs and cspuz URLs, Tatham ids, janko blocks, the janko-java corpus."""

from __future__ import annotations

import bz2
import json
from pathlib import Path

import pytest
from helpers import RAW_CORPUS, needs_raw_corpus

from harness import sets
from harness.errors import InstanceError
from harness.grid import Grid, solution_string
from harness.kinds import check, read_text, write_text
from harness.kinds import read_spec as read_puzzle
from harness.kinds.masyu.formats import read_janko, read_tatham, read_url, write_tatham, write_url
from harness.kinds.masyu.model import Masyu, Pearl

W, B = Pearl.WHITE, Pearl.BLACK
REPO = Path(__file__).resolve().parents[1]
CORPUS = RAW_CORPUS

# pzprjs test/script/mashu.js: url "6/6/1063000i3000"; notes/formats.md §1.3a decodes it by hand.
PZPR_URL = "https://puzz.link/p?mashu/6/6/1063000i3000"
PZPR_GRID = """6 6
..w...
.b..w.
......
...b..
.w....
......
"""
# The same fixture's solved pzprv3 file: horizontal then vertical edges (1 line, 0 none, -1 cross).
PZPR_H = ["1 1 1 0 1", "0 1 1 -1 0", "0 0 1 1 0", "0 1 -1 1 1", "1 1 0 0 0", "0 0 1 0 0"]
PZPR_V = ["1 0 0 1 1 1", "1 1 0 0 1 1", "1 1 1 -1 0 1", "1 -1 0 1 0 0", "0 0 1 1 0 0"]

# cspuz_core cspuz_rs_puzzles/src/puzzles/masyu.rs, problem_for_tests1 and problem_for_tests2.
CSPUZ_10X10 = "https://puzz.link/p?masyu/10/10/0600003i06b1300600000a30600i090330"
CSPUZ_10X10_PEARLS = {
    (0, 4): B, (1, 9): W, (2, 1): B, (2, 8): B, (3, 0): W, (3, 2): B, (3, 5): W, (3, 7): W, (4, 6): B,
    (6, 3): W, (6, 5): W, (6, 7): W, (7, 3): B, (8, 1): B, (8, 7): W, (9, 4): W, (9, 7): W,
}
CSPUZ_4X4_FULL = "https://pzprxs.vercel.app/p?masyu/f/4/4/0003i0"
CSPUZ_4X4_H = ["111", "011", "011", "111"]
CSPUZ_4X4_V = ["1001", "1100", "1001"]

# Ar-Kareem/puzzle_solver tests/test_pearl.py: Tatham seed 12x8dt#105305052653698, its id and aux.
ARKAREEM_ID = "12x8:BbWbWaBbBcBpBdBaBaWaBaBWcBaBnWWbBbBiBdBBdB"
ARKAREEM_GRID = """8 12
B..W..W.B..B
...B........
........B...
.B.B.W.B.BW.
..B.B.......
.......WW..B
..B.........
B....BB....B
"""
ARKAREEM_AUX = ("9555C95C955CA95C3696A9CA360A9C356AAA0956AA0956AA0A9563CA9C3696A09CAAA35CA0356AA3600A3555"
                "56355556")

# janko.at /Masyu/001, reconstructed in notes/formats.md §2.2 (German `o` for east).
JANKO_001 = """begin
puzzle masyu
author Warai Kamosika
source http://homepage2.nifty.com/warai_kamosika/
solver Otto Janko
info S01
size 6
unit 30
problem
- - w - - -
w - - - - b
- - - - - -
- - - - - -
b - - - - w
- - - w - -
solution
so ow ow sw - -
ns - - no ow sw
ns - - - - ns
ns - - - - ns
no ow sw - - ns
- - no ow ow nw
moves
Z1;L0;aa,6;ba,10;ce,12;cf,3;ef,10;ff,9;da,12;db,3;
end
"""
# Its solution as edge rows in corpus/janko-tkoz0/masyu_normalized.jsonl.bz2 (derived separately).
JANKO_001_H = ["11100", "00011", "00000", "00000", "11000", "00111"]
JANKO_001_V = ["100100", "100001", "100001", "100001", "001001"]


def edge_rows(h_rows: list[str], v_rows: list[str]) -> list:
    """Edges from rows of horizontal and vertical edge marks (`1` = on the loop), blank-separated or not."""
    h_marks = [row.split() if " " in row else list(row) for row in h_rows]
    v_marks = [row.split() if " " in row else list(row) for row in v_rows]
    return [((r, c), (r, c + 1)) for r, row in enumerate(h_marks) for c, m in enumerate(row) if m == "1"] + [
        ((r, c), (r + 1, c)) for r, row in enumerate(v_marks) for c, m in enumerate(row) if m == "1"]


# --- puzz.link ----------------------------------------------------------------------------------

def test_pzprjs_fixture_decodes_as_the_hand_table():
    puzzle = read_url(PZPR_URL)
    assert puzzle == read_text(PZPR_GRID)
    assert dict(puzzle.pearls) == {(0, 2): W, (1, 1): B, (1, 4): W, (3, 3): B, (4, 1): W}
    assert write_url(puzzle) == PZPR_URL


def test_pzprjs_fixture_solution_passes_the_checker():
    puzzle = read_url(PZPR_URL)
    assert check(puzzle, solution_string(puzzle.grid, edge_rows(PZPR_H, PZPR_V))) == []


@pytest.mark.parametrize(
    "url",
    [
        "http://pzv.jp/p.html?mashu/6/6/1063000i3000",
        "https://pzprxs.vercel.app/p?masyu/6/6/1063000i3000",
        "https://puzz.link/p?pearl/6/6/1063000i3000",
        "https://puzz.link/p?mashu_edit/6/6/1063000i3000",
        "https://puzz.link/p?mashu_play/6/6/1063000i3000/",
        "https://puzz.link/p?pearl/v:/6/6/1063000i3000",
        "https://puzz.link/p?mashu/v:uramashu/6/6/1063000i3000",
        "http://pzv.jp/p.html?type=editor&mashu/6/6/1063000I3000",
        "mashu/6/6/1063000i3000",
    ],
)
def test_url_variants_read_the_same_puzzle(url):
    assert read_url(url) == read_text(PZPR_GRID)


def test_cspuz_full_flag_and_its_solution():
    puzzle = read_url(CSPUZ_4X4_FULL)
    assert puzzle.full and dict(puzzle.pearls) == {(2, 2): W, (3, 0): B}
    assert write_url(puzzle) == "https://puzz.link/p?mashu/f/4/4/0003i0"
    solution = solution_string(puzzle.grid, edge_rows(CSPUZ_4X4_H, CSPUZ_4X4_V))
    assert check(puzzle, solution) == []


def test_cspuz_10x10_has_the_17_listed_pearls():
    puzzle = read_url(CSPUZ_10X10)
    assert (puzzle.rows, puzzle.cols, puzzle.full) == (10, 10, False)
    assert dict(puzzle.pearls) == CSPUZ_10X10_PEARLS
    assert write_url(puzzle) == CSPUZ_10X10.replace("masyu", "mashu")


def test_url_columns_come_before_rows():
    puzzle = read_url("https://puzz.link/p?mashu/3/2/30")  # 3 columns, 2 rows: white at (0,1)
    assert (puzzle.rows, puzzle.cols, dict(puzzle.pearls)) == (2, 3, {(0, 1): W})
    assert write_url(puzzle) == "https://puzz.link/p?mashu/3/2/30"


# --- Tatham -------------------------------------------------------------------------------------

def test_tatham_id_of_the_pzprjs_fixture():
    puzzle = read_tatham("6x6:bWdBbWjBcWj")
    assert puzzle == read_url(PZPR_URL)
    assert write_tatham(puzzle) == "6x6:bWdBbWjBcWj"


@pytest.mark.parametrize("game_id", ["6:bWdBbWjBcWj", "6x6dt:bWdBbWjBcWj", "6x6den:bWdBbWjBcWj",
                                     "6x6n:bWdBbWjBcWj", "6x6:aaWdBbWjBcWdf"])
def test_tatham_id_variants(game_id):
    # `6:` means 6x6; params after the size are difficulty and nosolve; any split of a run is fine.
    assert read_tatham(game_id) == read_url(PZPR_URL)


def test_tatham_width_comes_first_and_long_runs_split_at_z():
    puzzle = Masyu(Grid(3, 20), {(2, 19): B})  # 59 empty cells before the pearl
    assert write_tatham(puzzle) == "20x3:zzgB"
    assert read_tatham("20x3:zzgB") == puzzle


def test_arkareem_tatham_instance_and_its_aux_solution():
    puzzle = read_tatham(ARKAREEM_ID)
    assert puzzle == read_text(ARKAREEM_GRID)
    assert write_tatham(puzzle) == ARKAREEM_ID
    # aux: one upper-case hex digit per cell with our bits (R1 U2 L4 D8), no row separators.
    aux = ARKAREEM_AUX.lower()
    solution = "/".join(aux[r * puzzle.cols:(r + 1) * puzzle.cols] for r in range(puzzle.rows))
    assert check(puzzle, solution) == []


# --- janko --------------------------------------------------------------------------------------

def test_janko_001_block():
    puzzle, solution = read_janko(JANKO_001, "001.a.x-janko")
    assert puzzle == read_text((REPO / "instances/masyu-seed/janko001.txt").read_text())
    assert check(puzzle, solution) == []
    assert solution == solution_string(puzzle.grid, edge_rows(JANKO_001_H, JANKO_001_V))
    assert solution == "955c00/a0035c/a0000a/a0000a/35c00a/003556"


def test_janko_lenient_block():
    # Blank lines, upper-case keys, rows/cols, 1/2 tokens, letters in either order, junk around, `send`.
    text = """<script id="data" type="application/x-janko">
begin

PUZZLE masyu
Rows 2
COLS 3
problem
1 - -

- - 2
Solution
es WE sw
NE ew wn
moves
Z1;L0;
aa,6;
send
</script>
"""
    puzzle, solution = read_janko(text)
    assert puzzle == Masyu(Grid(2, 3), {(0, 0): W, (1, 2): B})
    assert solution == "95c/356"


def test_janko_block_without_solution():
    puzzle, solution = read_janko("begin\nsize 2\nproblem\nw -\n- b\nend\n")
    assert (dict(puzzle.pearls), solution) == ({(0, 0): W, (1, 1): B}, "")


@needs_raw_corpus
def test_every_tkoz0_block_agrees_with_the_normalized_corpus_and_janko_java():
    # The scraped blocks come as parsed JSON: write each back as a block, keys in their original order.
    tkoz0 = CORPUS / "janko-tkoz0"
    with bz2.open(tkoz0 / "masyu_normalized.jsonl.bz2", "rt") as f:
        normalized = [json.loads(line) for line in f]
    with bz2.open(tkoz0 / "Masyu.jsonl.bz2", "rt") as f:
        scraped = [json.loads(line) for line in f]
    assert len(scraped) == len(normalized) == 770
    for raw, norm in zip(scraped, normalized, strict=True):
        lines = ["begin"]
        for key, value in raw["data"].items():
            grid = isinstance(value, list)
            lines += [key, *(" ".join(row) for row in value)] if grid else [f"{key} {value}"]
        puzzle, solution = read_janko("\n".join(lines + ["end"]), raw["file"])
        assert puzzle == read_text(f"{norm['rows']} {norm['cols']}\n" + "\n".join(norm["problem"]))
        assert solution == solution_string(puzzle.grid, edge_rows(norm["H"], norm["V"])), raw["file"]
        java = CORPUS / "janko-java" / f"janko{norm['id'][-3:]}.txt"
        assert read_text(java.read_text()) == puzzle, java


# --- plain text and the corpus round trips -------------------------------------------------------

@pytest.mark.parametrize("text", [
    "2 3\n- w -\nb - -\n",
    "2 3\n.w.\nb..\n",
    "2 3\n. W .\nB . .\n",
    "2 3\n- 1 -\n2 - -",
    "\ufeff2 3\r\n\r\n-w-\r\nb--\r\n",
])
def test_plain_text_spellings(text):
    assert read_text(text) == Masyu(Grid(2, 3), {(0, 1): W, (1, 0): B})


def test_plain_text_full_flag_round_trip():
    puzzle = read_text("2 2\n- -\n- w\nfull\n")
    assert puzzle.full and read_text(write_text(puzzle)) == puzzle
    assert read_url(write_url(puzzle)) == puzzle


def test_janko_java_round_trips():
    found = sets.instances("masyu-janko-java")  # the bundled copy of the public Java solver's 824 files
    assert len(found) == 820  # four are repeats of a puzzle, kept as aliases
    for instance in found:
        puzzle = instance.puzzle
        assert read_text(write_text(puzzle)) == puzzle, instance.name
        assert read_url(write_url(puzzle)) == puzzle, instance.name
        assert read_tatham(write_tatham(puzzle)) == puzzle, instance.name


# --- read_puzzle dispatch -----------------------------------------------------------------------

def test_read_puzzle_dispatch(tmp_path):
    text_file = tmp_path / "p.txt"
    text_file.write_text(PZPR_GRID)
    janko_file = tmp_path / "001.a.x-janko"
    janko_file.write_text(JANKO_001)
    expected = read_text(PZPR_GRID)
    assert read_puzzle(PZPR_URL) == expected
    assert read_puzzle("p.html?pearl/6/6/1063000i3000") == expected
    assert read_puzzle("6x6:bWdBbWjBcWj") == expected
    assert read_puzzle(str(text_file)) == expected
    assert read_puzzle(str(janko_file)) == read_janko(JANKO_001)[0]


# --- bad input: one line naming the source (and the line, for text) ------------------------------

BAD_STRINGS = [
    ("https://puzz.link/p?mashu/6/6/1063000i300", "truncated body: expected 12 characters, found 11"),
    ("https://puzz.link/p?mashu/6/6/1063000i30000", "body too long: expected 12 characters, found 13"),
    ("https://puzz.link/p?mashu/6/6/1063000i300r", "bad base-27 digit 'r' at body position 11"),
    ("https://puzz.link/p?mashu/6/6", "missing fields"),
    ("https://puzz.link/p?mashu/6/6/", "missing fields"),
    ("https://puzz.link/p?mashu/6/x6/1063000i3000", "the number of rows must be a whole number"),
    ("https://puzz.link/p?mashu/0/6/0", "the number of columns must be at least 1"),
    ("https://puzz.link/p?mashu/g/6/6/1063000i3000", "unknown flag 'g'"),
    ("https://puzz.link/p?mashu/6/6/1063000i3000/00", "unexpected text after the body"),
    ("https://puzz.link/p?nurikabe/5/5/cbcbcddad", "unknown puzz.link puzzle type 'nurikabe'"),
    ("6x6:bWdBbWjBcWk", "string too long"),
    ("6x6:bWdBbWjBcWi", "string too short"),
    ("6x6:bWdBbWjBcW1", "unrecognised character in string: '1'"),
    ("12x8dt#105305052653698", "random-seed id"),
    ("6x6q:bWdBbWjBcWj", "unknown parameters 'q'"),
    ("0x6:", "the width must be at least 1"),
    ("no/such/file.txt", "no such file, and not a puzz.link URL or a Tatham game id"),
]


@pytest.mark.parametrize(("spec", "problem"), BAD_STRINGS)
def test_bad_strings(spec, problem):
    with pytest.raises(InstanceError) as info:
        read_puzzle(spec)
    message = str(info.value)
    assert message.startswith(f"{spec}: ") and problem in message and "\n" not in message


BAD_FILES = [
    ("", 1, "empty file"),
    ("6 6 6\n", 1, "expected `KIND ROWS COLS` or `ROWS COLS`"),
    ("6 x\n", 1, "the number of columns must be a whole number"),
    ("0 3\n", 1, "the number of rows must be at least 1"),
    ("2 2\n- -\n", 2, "expected 2 rows of cells, found 1"),
    ("2 2\n- -\n- -\n- -\n", 4, "expected 2 rows of cells, found more"),
    ("2 2\n- -\n- - -\n", 3, "expected 2 cells in row 1, found 3"),
    ("2 2\n\n- -\n- x\n", 4, "unknown token 'x' in row 1"),
    ("begin\nsize 2\nproblem\n- -\n- q\nend\n", 5, "unknown token 'q'"),
    ("begin\nsize 2\nproblem\n- -\nend\n", 5, "`problem` has 1 rows, expected 2"),
    ("begin\nsize 2\nproblem\n- -\n", 4, "`problem` has 1 rows, expected 2"),
    ("begin\nsize 2\nproblem\n- - -\n- -\nend\n", 4, "expected 2 cells in row 0 of `problem`"),
    ("begin\nproblem\n- -\n- -\nend\n", 2, "`problem` comes before `size`"),
    ("begin\nsize two\nproblem\n", 2, "`size` must be a whole number"),
    ("begin\nsize 2\nend\n", 1, "no `problem` grid"),
    ("begin\npuzzle masyu, path\nsize 2\nproblem\ns -\n- z\nend\n", 2, "no reader for janko.at puzzle"),
    ("begin\nsize 2\nproblem\n- -\n- -\nsolution\nse sw\nne nn\nend\n", 8, "unknown solution token 'nn'"),
    ("begin\nsize 2\nproblem\n- -\n- -\nsolution\nse sx\nne nw\nend\n", 7, "unknown solution token 'sx'"),
]


@pytest.mark.parametrize(("text", "line", "problem"), BAD_FILES)
def test_bad_files_name_file_and_line(tmp_path, text, line, problem):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InstanceError) as info:
        read_puzzle(str(path))
    message = str(info.value)
    assert message.startswith(f"{path}:{line}: ") and problem in message and "\n" not in message
