"""The fuzz campaign's cases: for each instance reader and the option parser, a Hypothesis strategy, a target.

A case draws an input (real inputs mutated: each kind's bundled smoke puzzles written in every
format they have, then characters, tokens and lines changed, numbers made huge, lines repeated;
or structured JSON for janko.at records; or arbitrary bytes, compressed or not) and hands it to
the reader the harness uses. The property: the reader returns a puzzle (which a sweep then writes
as text, as `Instance.text` does) or raises the one error of bad input, one line naming the source;
anything else is a crash. `tests/test_fuzz_readers.py` runs each case with a fixed budget in CI,
`tests/benchmarks/bench_fuzz.py` a long campaign. Limits are lowered (`SMALL`) so inputs past them
are cheap to make.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

from harness import kinds, registry, sets
from harness.encoding import parse_options
from harness.errors import InstanceError
from harness.kinds import bounds
from harness.run.sweep import configuration

# Small limits, so that inputs past every limit are a few kilobytes (the readers' checks are the same).
SMALL = {"LOOPBENCH_READ_BYTES": "20000", "LOOPBENCH_READ_LINES": "400", "LOOPBENCH_READ_TOKEN": "300",
         "LOOPBENCH_READ_COUNT": "500", "LOOPBENCH_READ_SIZE": "2500"}
MESSAGE_WIDTH = 800  # an error message is one line, and never echoes a long input whole

# Hypothesis keeps caches in `.hypothesis/` of the working folder: put them in a temporary folder
# instead, so a test run writes nothing into the repository.
set_hypothesis_home_dir(tempfile.mkdtemp(prefix="loopbench-hypothesis-"))
settings.register_profile("loopbench-ci", max_examples=25, deadline=None, database=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.filter_too_much])
settings.register_profile("loopbench-fuzz", max_examples=5000, deadline=None, database=None,
                          suppress_health_check=list(HealthCheck))


# --- seeds: each kind's smoke puzzles in every format it has ------------------------------------------

@cache
def puzzles() -> dict[str, list[Any]]:
    """A few bundled puzzles of each kind (the smoke sets'), by kind."""
    out: dict[str, list[Any]] = {}
    for name in sets.names():
        if name.endswith("-smoke"):
            found = [i.puzzle for i in sets.instances(name)[:4] if i.puzzle is not None]
            out.setdefault(found[0].kind, []).extend(found)
    return out


def _janko_block(puzzle: Any) -> str:
    body = kinds.get(puzzle.kind).body_lines(puzzle)[:puzzle.rows]
    return "\n".join(["begin", f"puzzle {puzzle.kind}", f"rows {puzzle.rows}", f"cols {puzzle.cols}",
                      "problem", *body, "end"]) + "\n"


@cache
def seeds(form: str) -> list[str]:
    """Texts a reader takes, of one form: `text` (every kind's plain text), `hcp`, `adj`, `dimacs`,
    `janko`, `url`, `tatham`."""
    from harness.kinds.graph import formats as graph
    from harness.kinds.masyu.formats import write_tatham
    from harness.kinds.slitherlink.formats import write_loopy

    every = [p for found in puzzles().values() for p in found]
    graphs = [p for p in every if p.kind == "graph" and p.n <= 60]
    if form == "text":
        return [kinds.write_text(p) for p in every if p.kind != "graph" or p.n <= 60]
    if form == "hcp":
        return [graph.write_hcp(g) for g in graphs]
    if form == "adj":
        head = "NAME : a\nTYPE : HCP\nDIMENSION : {}\nEDGE_DATA_FORMAT : ADJ_LIST\nEDGE_DATA_SECTION\n"
        lists = ["\n".join(f"{v + 1} {' '.join(str(w + 1) for w in ws)} -1"
                           for v, ws in enumerate(g.neighbours) if ws) for g in graphs]
        return [(head + "{}\n-1\nEOF\n").format(g.n, body) for g, body in zip(graphs, lists, strict=True)]
    if form == "dimacs":
        return [graph.write_dimacs(g, "fuzz") for g in graphs]
    if form == "janko":
        return [_janko_block(p) for p in every if kinds.get(p.kind)._found_or("read_janko", None)]
    if form == "url":
        return [kinds.get(p.kind).write_url(p) for p in every if p.kind in ("masyu", "slitherlink")]
    if form == "tatham":
        return ([write_tatham(p) for p in puzzles()["masyu"] if not p.full]
                + [write_loopy(p) for p in puzzles()["slitherlink"] if not (p.full or p.unknown)])
    raise KeyError(form)


# --- mutations ---------------------------------------------------------------------------------------

PIECES = ["", " ", "\n", "\r\n", "\t", "-1", "0", "1", "-", ".", "#", ":", "/", "EOF", "e", "p", "c",
          "DIMENSION : 3", "TYPE : HCP", "EDGE_DATA_SECTION", "EDGE_DATA_FORMAT : ADJ_LIST", "begin", "end",
          "size 3", "problem", "solution", "full", "graph", "masyu", "x", "\ufeff", "\x00", "é", "٣",
          "99999999999999999999", "9223372036854775808", "1e20", "?", "z", "W", "B"]


@st.composite
def mutated(draw: Callable, texts: list[str]) -> str:
    """A seed text with up to 8 edits: a character or piece put in, a span cut, a line repeated or
    dropped, a number made huge, a token made long."""
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(0, 8))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.integers(0, 7))
        if edit == 0:
            text = text[:at] + draw(st.sampled_from(PIECES)) + text[at:]
        elif edit == 1:
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        elif edit == 2:
            text = text[:at] + draw(st.text(max_size=6)) + text[at:]
        elif edit == 3:
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            text = "\n".join(lines[:k + 1] + [lines[k]] * draw(st.integers(1, 3)) + lines[k + 1:])
        elif edit == 4:
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            text = "\n".join(lines[:k] + lines[k + 1:])
        elif edit == 5:
            text = text[:at] + draw(st.sampled_from(["9" * 25, "1" * 5000, "0" * 30 + "7"])) + text[at:]
        elif edit == 6:
            text = text[:at] + "a" * draw(st.sampled_from([299, 301, 3000])) + text[at:]
        else:
            text = text[:at] + "\n" * draw(st.sampled_from([10, 500])) + text[at:]
    return text


@st.composite
def packed(draw: Callable, texts: st.SearchStrategy[str]) -> bytes:
    """A text's bytes as they come in files: plain, gzip, bz2, cut short, or arbitrary bytes."""
    data = draw(texts).encode("utf-8", "surrogatepass")
    how = draw(st.sampled_from(["plain", "gzip", "bz2", "cut-gzip", "cut-bz2", "junk", "bomb"]))
    if how == "gzip":
        return gzip.compress(data, mtime=0)
    if how == "bz2":
        return bz2.compress(data)
    if how.startswith("cut"):
        packed_data = gzip.compress(data, mtime=0) if how == "cut-gzip" else bz2.compress(data)
        return packed_data[:draw(st.integers(0, len(packed_data)))]
    if how == "junk":
        return draw(st.sampled_from([b"", b"\x1f\x8b", b"BZh"])) + draw(st.binary(max_size=200))
    if how == "bomb":  # past the byte limit once decompressed: lines, blanks or one token
        filler = draw(st.sampled_from([b"\n", b" ", b"0", b"1 2\n"]))
        return gzip.compress(data + filler * 30000, mtime=0)
    return data


# --- JSON records of janko.at scrape files -------------------------------------------------------------

VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                                      max_size=3),
                      max_leaves=12)


@st.composite
def records(draw: Callable) -> str:
    """A JSONL line: a real record of a genre with some fields replaced by any JSON value, or dropped,
    or junk in place of the line."""
    from harness.kinds.janko_loop import PIECES as LOOP_PIECES

    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(["", "{", "[" * 3000, "{}", "null", '{"file": ' + "1" * 5000 + "}",
                                     '"x"', "[1, 2]"]))
    genre = draw(st.sampled_from(["geradeweg", "country", "moonsun", "castlewall", "yajilin"]))
    puzzle = draw(st.sampled_from(puzzles()[genre]))
    data: dict[str, Any] = {"puzzle": genre, "rows": puzzle.rows, "cols": puzzle.cols,
                            "problem": [list(r) for r in puzzle.problem]}
    if puzzle.areas:
        data["areas"] = [list(r) for r in puzzle.areas]
    tokens = [*LOOP_PIECES, "-", "x"]
    data["solution"] = [[tokens[(draw(st.integers(0, 7)) + c) % 8] for c in range(puzzle.cols)]
                        for _ in range(puzzle.rows)]
    keys = ["puzzle", "rows", "cols", "size", "problem", "areas", "solution"]
    for key in draw(st.lists(st.sampled_from(keys), max_size=3)):
        if draw(st.booleans()):
            data.pop(key, None)
        else:
            data[key] = draw(VALUES | st.sampled_from([1e20, 1e400, 30000, -1, 0, 2 ** 70, "5", True]))
    line = {"file": draw(st.sampled_from(["/Geradeweg/001.a.x-janko", 7, None, "", ["x"], "x" * 400])),
            "data": data}
    if draw(st.integers(0, 5)) == 0:
        line = draw(st.sampled_from([{"data": data}, {"file": "/A/1", "data": 5}, [line], {"file": "/A/2"}]))
    return json.dumps(line, allow_nan=True)


# --- targets ---------------------------------------------------------------------------------------------

@dataclass
class Tally:
    """What a campaign saw: inputs tried, outcomes by reader and kind of error, crashes with their input."""

    tried: int = 0
    outcomes: dict[str, int] | None = None
    crashes: list[tuple[str, str, str]] | None = None  # (case, exception, input's repr, cut)

    def __post_init__(self) -> None:
        self.outcomes, self.crashes = {}, []

    def count(self, key: str) -> None:
        self.outcomes[key] = self.outcomes.get(key, 0) + 1


TALLY = Tally()


def judged(case: str, read: Callable[[], Any], given: Any) -> Any:
    """`read()`'s puzzle, or None after a one-line InstanceError; anything else is recorded as a crash
    and raised (the tests fail on it, the benchmark counts it)."""
    TALLY.tried += 1
    try:
        out = read()
    except InstanceError as exc:
        message = str(exc)
        if "\n" in message or len(message) > MESSAGE_WIDTH:
            TALLY.crashes.append((case, "message of many lines or too long", repr(given)[:300]))
            raise AssertionError(f"{case}: the error is not one short line: {message[:300]!r}") from None
        TALLY.count(f"{case}: InstanceError: {_problem_class(exc.problem)}")
        return None
    except Exception as exc:
        TALLY.crashes.append((case, f"{type(exc).__name__}: {str(exc)[:200]}", repr(given)[:300]))
        raise
    TALLY.count(f"{case}: read")
    return out


def _problem_class(problem: str) -> str:
    """An error's kind for the tally: a limit passed, or the problem's first words."""
    if "past the limit" in problem:
        return "limit " + problem.rpartition("(")[2].split()[0]
    words = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "'…'", problem)  # quoted input as '…'
    return " ".join(re.sub(r"[0-9][0-9,]*", "N", words).split()[:5])


def as_instance_text(puzzle: Any) -> None:
    """What a sweep does with a puzzle it read: its text (the run key's content) and its size columns."""
    if puzzle is not None:
        kinds.write_text(puzzle)
        _ = (puzzle.rows, puzzle.cols)


def read_string(text: str, source: str = "<fuzz>") -> Any:
    """`read_spec`'s choice of reader for a file's text: a janko block, a format a kind claims, plain text."""
    if kinds.janko_begin(text.splitlines()) is not None:
        return kinds.read_janko(text, source)[0]
    claimed = [k for k in kinds.kinds().values() if k.claims_text(text)]
    if claimed:
        return claimed[0].read_claimed(text, source)
    return kinds.read_text(text, source)


def file_target(case: str) -> Callable[[bytes], None]:
    def target(data: bytes) -> None:
        as_instance_text(judged(case, lambda: read_string(bounds.read_stream(io.BytesIO(data), "<fuzz>")),
                                data))
    return target


def text_target(case: str) -> Callable[[str], None]:
    def target(text: str) -> None:
        as_instance_text(judged(case, lambda: read_string(text), text))
    return target


def spec_target(case: str) -> Callable[[str], None]:
    def target(spec: str) -> None:
        as_instance_text(judged(case, lambda: kinds.read_spec(spec), spec))
    return target


def jsonl_target(lines: list[str]) -> None:
    """A scrape file of these lines: every line one record, a puzzle or one error naming FILE:LINE."""
    from harness import scrape

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as out:
        out.write("\n".join(lines) + "\n")
    try:
        found = judged("jsonl", lambda: scrape.read(out.name), lines)
    finally:
        import os

        os.unlink(out.name)
    if found is None:
        return
    assert len(found) == sum(1 for line in lines if line.strip())
    for record in found:
        assert (record.puzzle is None) == bool(record.error)
        if record.error:
            assert "\n" not in record.error and len(record.error) <= MESSAGE_WIDTH + 100, record.error
            assert record.error.startswith(f"{out.name}:"), record.error
            TALLY.count(f"jsonl line: {_problem_class(record.error.partition(': ')[2])}")
        else:
            as_instance_text(record.puzzle)


def options_target(pairs: list[str]) -> None:
    """`parse_options` gives a dict of stripped keys, or ValueError naming the pair; a configuration
    entry `NAME:KEY=VALUE...` the same; an encoding refuses an option with ValueError only."""
    TALLY.tried += 1
    try:
        options = parse_options(pairs)
    except ValueError as exc:  # it quotes the pair as given: a line break in it is the user's own
        assert str(exc).count("\n") <= sum(p.count("\n") for p in pairs), str(exc)
        TALLY.count("options: ValueError")
    else:
        assert all(k == k.strip() and k for k in options)
        assert set(options) == {p.partition("=")[0].strip() for p in pairs}
        TALLY.count("options: parsed")
    name = pairs[0].partition("=")[0] if pairs else "sat"
    entry = ":".join([name if name in registry.names() else "sat", *pairs])
    try:
        own_name, own = configuration(entry)
        registry.create(own_name, **own)
    except ValueError as exc:
        assert str(exc).count("\n") <= entry.count("\n"), str(exc)
        TALLY.count("configuration: ValueError")
    except Exception as exc:
        TALLY.crashes.append(("configuration", f"{type(exc).__name__}: {str(exc)[:200]}", repr(entry)[:300]))
        raise
    else:
        TALLY.count("configuration: made")


OPTION_WORDS = ["cuts", "cutset", "implied", "true", "false", "phase", "proof", "seed", "sat.cuts", "=",
                ":", " ", "", "x", "1", "-1", "nan", "1e400", "sat", "behave", "status", "unsat"]
OPTION_PAIRS = st.lists(st.builds(lambda parts: "".join(parts),
                                  st.lists(st.sampled_from(OPTION_WORDS) | st.text(max_size=4), max_size=4)),
                        max_size=4)

FILE_TEXTS = st.one_of(*(mutated(seeds(form)) for form in ("text", "hcp", "adj", "dimacs", "janko")))

# name -> (strategy, target): every reader of the harness and the option parser
CASES: dict[str, tuple[st.SearchStrategy, Callable[[Any], None]]] = {
    **{f"text-{kind}": (mutated([t for t in seeds("text") if t.split(None, 1)[0] == kind]),
                        text_target(f"text-{kind}")) for kind in kinds.names()},
    "masyu-headerless": (mutated([t.partition(" ")[2] for t in seeds("text") if t.startswith("masyu")]),
                         text_target("masyu-headerless")),
    "tsplib-edge-list": (mutated(seeds("hcp")), text_target("tsplib-edge-list")),
    "tsplib-adj-list": (mutated(seeds("adj")), text_target("tsplib-adj-list")),
    "dimacs": (mutated(seeds("dimacs")), text_target("dimacs")),
    "janko-block": (mutated(seeds("janko")), text_target("janko-block")),
    "files-gzip-bz2": (packed(FILE_TEXTS), file_target("files-gzip-bz2")),
    "puzzlink-url": (mutated(seeds("url")), spec_target("puzzlink-url")),
    "tatham-id": (mutated(seeds("tatham")), spec_target("tatham-id")),
    "janko-jsonl": (st.lists(records(), min_size=1, max_size=4), jsonl_target),
    "options": (OPTION_PAIRS, options_target),
}
