"""The raw-corpus importers on real lines of every collection's layout, and the bundle build from them."""

from __future__ import annotations

import bz2
import json
from pathlib import Path

import pytest
from helpers import RAW_CORPUS, needs_raw_corpus

from harness import bundles, kinds, sets
from harness.errors import InstanceError
from harness.grid import Grid
from harness.kinds import read_text
from harness.kinds.masyu import corpus
from harness.kinds.masyu.formats import read_tatham

CORPUS = RAW_CORPUS

# Real lines, verbatim from the raw corpus (see each collection's PROVENANCE.md in instances/masyu/).
MANIFEST = """\
file\trows\tcols\tcells\twhite\tblack\tencoding\tsolutions_ourcheck\tourcheck_cpsat_s\tsgt_pearl_solver\tsgt_pearl_s
janko001.txt\t6\t6\t36\t4\t2\twb\tunique\t0.02\tsolved\t0.0020
janko524.txt\t10\t18\t180\t31\t10\tnumeric(1=w,2=b)\tunique\t0.18\tstuck\t0.0033
sample.txt\t3\t3\t9\t2\t0\twb\tunique\t0.01\t\t
"""
JANKO001 = "6 6\n- - w - - -\nw - - - - b\n- - - - - -\n- - - - - -\nb - - - - w\n- - - w - -\n"
JANKO524 = """10 18
- - - - 1 - - 2 2 - - - - 1 1 - - -
- - 1 - 1 - - - - - - - - - 1 - - -
- 1 - - 1 - - - - - - - - - - - 2 -
- - - - - - 1 1 1 2 - - 1 - - - 2 -
- 1 1 1 - 1 - - - - - - - - - - - -
- - - - - 1 1 - - - - 2 - - 1 1 - 1
2 - - - - - - - - - - - - - - - - -
- - - - - 1 1 - - 2 1 - 1 - - - 1 -
- - 2 - - - - - 1 - - - - - 2 - - -
- - 1 - - - - 1 - 1 - - - - - - 1 -"""  # upstream has no final newline
SAMPLE = "3 3\n- w -\n- w -\n- - -\n"

INDEX = """\
file\tpuzzle_id\tsize\tdifficulty\ttask\tsolution
6x6_easy.txt\t3,184,225\t6\teasy\tfWaWWfWbBcWcWbBaWc\tyyyyynyyynnnnnnnyynnnnnnyyyynnynnnnyyynnyyyynnyyynnyyyynnynn
6x6_easy.txt\t3,373,300\t6\teasy\tfWaWWfWbBcWcWbBaWc\tyyyyynyyynnnnnnnyynnnnnnyyyynnynnnnyyynnyyyynnyyynnyyyynnynn
6x6_easy.txt\t3,511,989\t6\teasy\tBWbWBbWaBWaWoWbBBWa\t
6x6_easy.txt\t3,511,989\t6\teasy\tBWbWBbWaBWaWoWbBBWa\tyyyyynyyynnnnnnnynynnnnnnyynyyynnnnyyynnyyyynnyyynyynyynyyny
15x15_hard.txt\t3,118,955\t15\thard\tdBaWeWaBWbWdWaWkWaWaBbWaBbWjBeWkWbWaWgWdWcWWWWaBaWeBdWcWaWWeBWhWkWWaWaWWaWbWdWaBaWBbBbWfWeWfWkBBfBaWWa\t\
yyynyyynynnyyynynnnnnnnyynynnnynynnnyyynnnnyyyynnyynnnnyyyyynyyynyynyyyyyynyynnnynynyyyynyynnnnnnnyyynnnnnyynnnnn\
yynnnyyyyynnynyyynnnnynyynyynyyynnnnnyyynynnyyynnnyyynynnnnyyyynynnnnnnnnyyyyynnynyyynyyyyyyynyyyynnyynnyyynynnyy\
yyyynnyynnnyyyyynnnynynnnyyyyynnnnnnnnynyynnnnnnyynnynnnnnyynnnnnnyynyyyyynnnnyynnynyyyyyynnyyynnnnnyyyyyynnyyynn\
nnnynnynnnnyynyyynnyynyynnnynyynnnnyynyynnnnynnnyynynyyynnnnyynyynynyynnnnnnyynny
"""

NORMALIZED = [
    {"id": "janko-masyu-001", "genre": "masyu", "rows": 6, "cols": 6,
     "problem": ["..W...", "W....B", "......", "......", "B....W", "...W.."],
     "H": ["11100", "00011", "00000", "00000", "11000", "00111"],
     "V": ["100100", "100001", "100001", "100001", "001001"], "author": "Warai Kamosika"},
    {"id": "janko-masyu-524", "genre": "masyu", "rows": 10, "cols": 18,
     "problem": ["....W..BB....WW...", "..W.W.........W...", ".W..W...........B.", "......WWWB..W...B.",
                 ".WWW.W............", ".....WW....B..WW.W", "B.................", ".....WW..BW.W...W.",
                 "..B.....W.....B...", "..W....W.W......W."],
     "H": ["11011110111011101", "10011100010101100", "00111000001101110", "00101000011001110",
           "00001101000010100", "01001110100110000", "11001010000010001", "00010001011000011",
           "10110001110011000", "01111011110111111"],
     "V": ["101100011001100111", "011000111110010011", "010001111100100001", "011110111001110011",
           "011100000001001111", "000110011100011111", "101101101100101100", "101011110001101001",
           "010001100011000001"], "author": "Iwa Daigeki"},
]

ARKAREEM = {
    "id": "arkareem-pearl-12x8dt", "genre": "masyu", "rows": 8, "cols": 12,
    "problem": ["B..W..W.B..B", "...B........", "........B...", ".B.B.W.B.BW.", "..B.B.......",
                ".......WW..B", "..B.........", "B....BB....B"],
    "H": ["11110110111", "01101010010", "10001011000", "01100001100", "00110100101", "10001000011",
          "00110001000", "11111011111"],
    "V": ["100011011001", "110100101111", "000111000111", "010011010011", "011000111100", "101011111001",
          "100001100001"],
    "tatham_id": "12x8:BbWbWaBbBcBpBdBaBaWaBaBWcBaBnWWbBbBiBdBBdB",
    "tatham_seed_id": "12x8dt#105305052653698",
    "tatham_aux": "9555C95C955CA95C3696A9CA360A9C356AAA0956AA0956AA0A9563CA9C3696A09CAAA35CA0356AA3600A"
                  "355556355556",
}


@pytest.fixture
def mini_corpus(tmp_path: Path) -> Path:
    """The four corpus layouts, each holding the real lines above."""
    java = tmp_path / corpus.JANKO_JAVA
    java.mkdir()
    (java / "manifest.tsv").write_text(MANIFEST)
    for name, text in [("janko001", JANKO001), ("janko524", JANKO524), ("sample", SAMPLE)]:
        (java / f"{name}.txt").write_text(text)
    pm = tmp_path / corpus.PUZZLE_MASYU
    pm.mkdir()
    (pm / "index.tsv").write_text(INDEX)
    tkoz0 = tmp_path / corpus.JANKO_TKOZ0
    tkoz0.mkdir()
    with bz2.open(tkoz0 / "masyu_normalized.jsonl.bz2", "wt") as out:
        out.writelines(json.dumps(record) + "\n" for record in NORMALIZED)
    ark = tmp_path / corpus.ARKAREEM
    ark.mkdir()
    (ark / "masyu.jsonl").write_text(json.dumps(ARKAREEM) + "\n")
    return tmp_path


def test_janko_java_reads_numeric_codes_as_janko_at_does(mini_corpus):
    entries = {e.name: e for e in corpus.read_janko_java(mini_corpus / corpus.JANKO_JAVA)}
    assert list(entries) == ["janko001", "janko524", "sample"]
    assert entries["janko524"].meta["encoding"] == "numeric"
    assert not entries["janko524"].solution  # the files carry no solutions
    janko_at = {e.name: e for e in corpus.read_janko_normalized(
        mini_corpus / corpus.JANKO_TKOZ0 / "masyu_normalized.jsonl.bz2")}
    # 1 = white, 2 = black makes the upstream file equal to janko.at's own puzzle 524
    assert entries["janko524"].puzzle == janko_at["janko-at-524"].puzzle
    assert entries["janko001"].puzzle == janko_at["janko-at-001"].puzzle


def test_janko_normalized_solutions_pass_the_checker(mini_corpus):
    path = mini_corpus / corpus.JANKO_TKOZ0 / "masyu_normalized.jsonl.bz2"
    entries = list(corpus.read_janko_normalized(path))
    assert [e.name for e in entries] == ["janko-at-001", "janko-at-524"]
    assert entries[0].meta == {"author": "Warai Kamosika"}
    # janko.at's own grid for #1 starts `so ow ow sw - -`: south+east 9, east-west 5, south+west c
    assert entries[0].solution == "955c00/a0035c/a0000a/a0000a/35c00a/003556"
    for entry in entries:
        assert kinds.check(entry.puzzle, entry.solution) == []


def test_puzzle_masyu_names_solutions_and_the_broken_one(mini_corpus):
    entries = list(corpus.read_puzzle_masyu(mini_corpus / corpus.PUZZLE_MASYU / "index.tsv"))
    names = [e.name for e in entries]
    assert names[:3] == ["pm-6x6-easy-3184225", "pm-6x6-easy-3373300", "pm-6x6-easy-3511989"]
    assert entries[0].meta == {"difficulty": "easy", "id": "3,184,225"}
    assert entries[0].puzzle == read_tatham("6x6:fWaWWfWbBcWcWbBaWc")
    assert entries[0].solution == "95555c/a955ca/aa00aa/a35caa/a00a36/355600"
    assert entries[2].solution == "" and entries[3].solution  # the repeated record: once without, once with
    broken = entries[4]
    assert broken.name == "pm-15x15-hard-3118955"
    assert any("white pearl" in p for p in kinds.check(broken.puzzle, broken.solution))


def test_puzzle_masyu_repeats_are_merged(mini_corpus):
    entries = bundles.merge_contents(bundles.merge_names(
        corpus.read_puzzle_masyu(mini_corpus / corpus.PUZZLE_MASYU / "index.tsv")))
    by_name = {e.name: e for e in entries}
    assert list(by_name) == ["pm-6x6-easy-3184225", "pm-6x6-easy-3511989", "pm-15x15-hard-3118955"]
    assert by_name["pm-6x6-easy-3184225"].meta["aliases"] == "pm-6x6-easy-3373300"
    assert by_name["pm-6x6-easy-3511989"].solution  # the record with the solution wins
    judged = {e.name: e for e in bundles.judge_solutions(entries)}
    assert judged["pm-15x15-hard-3118955"].solution == ""
    assert "white pearl at (8, 5)" in judged["pm-15x15-hard-3118955"].meta["note"]
    assert judged["pm-6x6-easy-3184225"].solution == by_name["pm-6x6-easy-3184225"].solution


def test_arkareem_solution_equals_tathams_own(mini_corpus):
    [entry] = corpus.read_arkareem(mini_corpus / corpus.ARKAREEM / "masyu.jsonl")
    assert entry.name == "tatham-12x8dt" and (entry.puzzle.rows, entry.puzzle.cols) == (8, 12)
    # Pearl's own solution string (`aux`) uses the same direction digits as ours
    assert entry.solution.replace("/", "").upper() == ARKAREEM["tatham_aux"]
    assert kinds.check(entry.puzzle, entry.solution) == []


def test_pm_id_slug():
    assert corpus.pm_id_slug("3,184,225") == "3184225"
    assert corpus.pm_id_slug("6,920") == "6920"
    assert corpus.pm_id_slug("Jan 01, 2023") == "2023-01-01"


def test_edge_flags_of_the_wrong_length_are_refused():
    grid = Grid(2, 2)
    assert corpus.yn_solution(grid, "yyyy") == "9c/36"
    with pytest.raises(InstanceError, match="4 y/n edge flags"):
        corpus.yn_solution(grid, "yyy")
    with pytest.raises(InstanceError, match="4 y/n edge flags"):
        corpus.yn_solution(grid, "yyyx")
    assert corpus.hv_solution(grid, ["1", "1"], ["11"]) == "9c/36"
    with pytest.raises(InstanceError, match="do not fit"):
        corpus.hv_solution(grid, ["1"], ["11"])
    with pytest.raises(InstanceError, match="not 0 or 1"):
        corpus.hv_solution(grid, ["1", "x"], ["11"])


def test_attach_solutions_matches_by_content():
    solved = bundles.Entry("janko-at-001", read_text(JANKO001), "s")
    plain = bundles.Entry("janko001", read_text(JANKO001))
    other = bundles.Entry("sample", read_text(SAMPLE))
    out = bundles.attach_solutions([plain, other], [solved], "solution_from")
    assert (out[0].solution, out[0].meta) == ("s", {"solution_from": "janko-at-001"})
    assert out[1] == other


def test_build_writes_deterministic_bundles(mini_corpus, tmp_path):
    out = tmp_path / "instances"
    built = sets.build(mini_corpus, out, ["masyu"])
    stems = ("janko-at", "janko-java", "puzzle-masyu", "tatham")
    assert sorted(built) == [f"masyu/{stem}.tsv.gz" for stem in stems]
    first = {p.name: p.read_bytes() for p in (out / "masyu").iterdir()}
    sets.build(mini_corpus, out, ["masyu"])
    assert {p.name: p.read_bytes() for p in (out / "masyu").iterdir()} == first
    java = {row["name"]: row for row in bundles.read_bundle(out / "masyu" / "janko-java.tsv.gz")}
    assert java["janko524"]["solution_from"] == "janko-at-524" and java["janko524"]["encoding"] == "numeric"
    assert java["sample"]["solution"] == ""
    pm = {row["name"]: row for row in bundles.read_bundle(out / "masyu" / "puzzle-masyu.tsv.gz")}
    assert pm["pm-15x15-hard-3118955"]["solution"] == "" and pm["pm-15x15-hard-3118955"]["note"]


@needs_raw_corpus
def test_the_shared_corpus_has_the_counts_the_notes_give():
    assert len(list(corpus.read_janko_java(CORPUS / corpus.JANKO_JAVA))) == 824
    assert len(list(corpus.read_janko_normalized(
        CORPUS / corpus.JANKO_TKOZ0 / "masyu_normalized.jsonl.bz2"))) == 770
    pm = list(corpus.read_puzzle_masyu(CORPUS / corpus.PUZZLE_MASYU / "index.tsv"))
    assert len(pm) == 3612 and sum(1 for e in pm if e.solution) == 3267
    assert len(list(corpus.read_arkareem(CORPUS / corpus.ARKAREEM / "masyu.jsonl"))) == 1
