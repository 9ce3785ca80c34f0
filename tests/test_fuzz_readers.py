"""Property tests of every instance reader and the option parser (the cases of `tests.fuzzing`).

Each case runs a fixed budget of generated inputs (the `loopbench-ci` Hypothesis profile:
derandomized, no example database written) under small reading limits; the property is that a
reader gives a puzzle or one short line of InstanceError, never anything else. Every crash a
campaign found is an `@example` below, so it stays fixed. The long campaign is
`tests/benchmarks/bench_fuzz.py`.
"""

from __future__ import annotations

import gzip
import json

import fuzzing
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

CI = settings.get_profile("loopbench-ci")


@pytest.fixture(autouse=True, scope="module")
def small_limits():
    with pytest.MonkeyPatch.context() as patch:
        for name, value in fuzzing.SMALL.items():
            patch.setenv(name, value)
        yield


OWN = ("tsplib-edge-list", "files-gzip-bz2", "puzzlink-url", "tatham-id", "janko-jsonl", "options")


@pytest.mark.parametrize("case", sorted(set(fuzzing.CASES) - set(OWN)))
@settings(CI)
@given(data=st.data())
def test_a_reader_gives_a_puzzle_or_one_line_of_error(case, data):
    strategy, target = fuzzing.CASES[case]
    target(data.draw(strategy, label=case))


# The cases with regression examples: inputs that crashed a reader (or gave more than one line)
# before it was fixed, found by the campaign or by issue 46's hand-made cases.

HCP = "NAME : g\nTYPE : HCP\nDIMENSION : {}\nEDGE_DATA_SECTION\n1 2\n2 3\n3 1\n-1\nEOF\n"


@settings(CI)
@given(fuzzing.CASES["tsplib-edge-list"][0])
@example(HCP.format("4\nDIMENSION : 9999999"))  # a second DIMENSION silently won
@example(HCP.format("99999999999999999999"))  # passed the reader, then overflowed the store
@example(HCP.format(4).replace("2 3", "2 " + "3" * 5000))  # int() of 5,000 digits: ValueError
@example("graph 9223372036854775808 1\n1 2\n")
@example("p edge 9223372036854775808 1\ne 1 2\n")
@example("masyu 30000 30000\n")  # 9 x 10^8 cells would have been made
@example("walls 2 2\n" + "1" * 5000 + " .\n. .\n")  # the campaign's: int() of a 5,000-digit clue
@example("geradeweg 2 2\n" + "1" * 5000 + " -\n- -\n")  # int() in the rules: now refused
def test_tsplib_and_text_readers(text):
    fuzzing.text_target("tsplib-edge-list")(text)


@settings(CI)
@given(fuzzing.CASES["files-gzip-bz2"][0])
@example(gzip.compress(b"0" * 40_000))  # a bomb: was decompressed whole
@example(gzip.compress(b"\n" * 40_000))
@example(b"\x1f\x8b" + b"\x00" * 20)
@example(b"BZh9")
def test_compressed_files(data):
    fuzzing.file_target("files-gzip-bz2")(data)


@settings(CI)
@given(fuzzing.CASES["puzzlink-url"][0] | fuzzing.CASES["tatham-id"][0])
@example("\n" * 500 + "https://puzz.link/p?mashu/6/6/10920000i109")  # its error was 501 lines
@example("a" * 300)  # a name too long for the system: OSError from Path.is_file
@example("x\x00y")  # a NUL in a name: ValueError from Path.is_file
@example("3x3:" + "z" * 100_000)  # 26 cells a letter: read no further than the grid
@example("https://puzz.link/p?mashu/100000/100000/0")
def test_urls_and_game_ids(spec):
    fuzzing.spec_target("puzzlink-url")(spec)


@settings(CI)
@given(fuzzing.CASES["janko-jsonl"][0])
@example([json.dumps({"file": 7, "data": {}})])  # TypeError in the name
@example([json.dumps({"file": "/G/1.a", "data": {"puzzle": "geradeweg", "size": 1e20}})])
@example([json.dumps({"file": "/G/1.a", "data": {"puzzle": "geradeweg", "size": 3, "solution": 5}})])
@example([json.dumps({"file": "/G/1.a", "data": {"puzzle": "geradeweg", "size": 30000}})])
@example(["[" * 3000])  # RecursionError in json
@example(['{"file": 1' + "1" * 5000 + "}"])  # ValueError (not JSONDecodeError) in json
def test_janko_jsonl(lines):
    fuzzing.jsonl_target(lines)


@settings(CI)
@given(fuzzing.CASES["options"][0])
@example(["\n"])  # quoted as given: the message adds no line of its own
@example(["=x"])
@example(["cuts=cutset", "cuts =solver"])
def test_option_parser(pairs):
    fuzzing.options_target(pairs)
