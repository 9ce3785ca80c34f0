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

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests import fuzzing

CI = settings.get_profile("loopbench-ci")


@pytest.fixture(autouse=True, scope="module")
def small_limits():
    with pytest.MonkeyPatch.context() as patch:
        for name, value in fuzzing.SMALL.items():
            patch.setenv(name, value)
        yield


@pytest.mark.parametrize("case", sorted(fuzzing.CASES))
@settings(CI)
@given(data=st.data())
def test_a_reader_gives_a_puzzle_or_one_line_of_error(case, data):
    strategy, target = fuzzing.CASES[case]
    target(data.draw(strategy, label=case))


# Regression examples: inputs that crashed a reader before it was fixed (found by the campaign or
# by issue 46's hand-made cases), each run through the target of its case.
TEXT_EXAMPLES = [
    "NAME : g\nTYPE : HCP\nDIMENSION : 4\nDIMENSION : 9\nEDGE_DATA_SECTION\n1 2\n-1\n",
    "NAME : g\nTYPE : HCP\nDIMENSION : 4\nEDGE_DATA_SECTION\n1 " + "2" * 5000 + "\n-1\n",
    "graph 3 1\n1 " + "9" * 5000 + "\n",
    "p edge 9223372036854775808 1\ne 1 2\n",
    "masyu 30000 30000\n",
]


@settings(CI, max_examples=1)
@given(st.none())
@example(text=TEXT_EXAMPLES[0])
def _unused(text):  # placeholder so `example` is imported where the list grows
    pass


@pytest.mark.parametrize("text", TEXT_EXAMPLES)
def test_regression_texts(text):
    fuzzing.text_target("regression")(text)


@pytest.mark.parametrize("data", [gzip.compress(b"0" * 40000), b"\x1f\x8b" + b"\x00" * 20, b"BZh9"])
def test_regression_files(data):
    fuzzing.file_target("regression")(data)


@pytest.mark.parametrize("lines", [
    [json.dumps({"file": 7, "data": {}})],
    [json.dumps({"file": "/G/1.a", "data": {"puzzle": "geradeweg", "size": 1e20}})],
    [json.dumps({"file": "/G/1.a", "data": {"puzzle": "geradeweg", "size": 3, "solution": 5}})],
    [json.dumps({"file": "/G/1.a", "data": {"puzzle": "geradeweg", "size": 30000}})],
    ["[" * 3000],
])
def test_regression_jsonl(lines):
    fuzzing.jsonl_target(lines)
