"""docs/ describe mechanisms: no figure that reads as measured off a run (a number with a unit, or a
count, share, ratio, time or rate said in words), no broken link, and a front page that opens with its
two commands."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md"))

_NUM = r"\d[\d,]*(?:\.\d+)?"
_RANGE = rf"{_NUM}(?:\s*(?:to|-|–)\s*{_NUM})?"  # "2 to 3", "20-25": a range reads as runs' spread
# Counts spelt out ("gains eight"); "one" is left out: "solves one puzzle" says what a command does.
_WORDS = (r"(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty"
          r"|hundreds?|thousands?|millions?|dozens?)")
_COUNT = rf"(?:{_NUM}|{_WORDS})"
_UNIT = (r"(?:ms|µs|ns|s|%|percent|per\s?cent|[KMG]i?B|kB|bytes?|megabytes?|gigabytes?|CPU[- ]hours?"
         r"|CPU[- ]seconds?|hours?|minutes?|seconds?|milliseconds?|microseconds?)")
_TIME = r"(?:seconds?|minutes?|hours?|days?|milliseconds?|microseconds?)"
# A noun a run's figure counts or shares out: "many FHCP graphs", "most of the memory"
_RUN_NOUN = r"(?:graphs|puzzles|instances|runs|solves|rounds|conflicts|memory|time|CPU)"
_FEW = r"(?:a\s+few|several|a\s+handful\s+of)"  # a count said without its number
# up to two words between a count and its noun ("100 held-out graphs", "45 FHCP graphs"), none a
# preposition ("4.2 on dense graphs" is a version, then a kind of graph)
_QUALIFIERS = r"(?:(?!(?:on|in|of|for|with|and|or|to|at|by|from)\s)[\w-]+\s+){0,2}"
_START = r"(?<![\w.\-/=`^])"  # not inside a name, a version, an option (`--time-limit 60`) or 2^30
# Each way a figure read off a run shows in prose. Whitespace may be a line break: a figure can span
# two lines of a paragraph.
SHAPES = {
    # a time, memory or percentage: "94 s", "59 to 94 s", "1,577 MB", "a 40-byte clause", "7-8 %"
    "number with a unit": rf"{_START}{_RANGE}(?:\s*|-){_UNIT}(?![\w])",
    # a speed-up: "2.85x", "1.6×"; a grid size (5x5) is not one: there the x is followed by a digit
    "ratio": rf"{_START}{_NUM}[x×](?![\w])",
    # a solved count: "43 of 45", "1 of the 6 runs"
    "N of M": rf"{_START}{_NUM}\s+of\s+(?:the\s+)?{_NUM}\b",
    # what a configuration solved, gained or lost: "solves 76", "gains eight", "lost ten"
    "solved N": (rf"\b(?:solv(?:es|ed|ing)|finish(?:es|ed)|gain(?:s|ed)?|los(?:es|t|ing))\s+"
                 rf"(?:only\s+|just\s+|about\s+|all\s+but\s+)?{_COUNT}\b"),
    # a comparison with its size: "2 to 3 times sooner", "faster by 12", "a speed-up of 11.7"
    "N times faster": (rf"\b{_COUNT}(?:\s*(?:to|-)\s*{_COUNT})?\s+times\s+(?:faster|slower|sooner|quicker"
                       rf"|as\s+\w+|more|fewer|less|longer|shorter|larger|smaller)\b"
                       rf"|\b(?:faster|slower|sooner)\s+by\s+(?:about\s+)?{_NUM}"
                       rf"|\bspeed-?ups?\s+(?:of\s+)?(?:about\s+)?{_NUM}"),
    # an approximate figure: "past ~60 vertices", "~10x10"
    "approximate": rf"~\s?{_NUM}",
    # a search's size off a run: "thousands of rounds", "22,100 rounds", "533 conflicts", "2^k rounds",
    # "by a few flips"
    "run counts": (rf"(?:{_START}{_COUNT}|{_START}\d+\^\w+|\b{_FEW})\s+(?:of\s+)?"
                   r"(?:rounds|conflicts|restarts|merges|flips)\b"),
    # how many graphs a run or a script's reading of a set counted: "tested on 100 held-out graphs",
    # "(45 graphs, 1,381 to 5,130 vertices)"
    "N graphs": rf"{_START}{_COUNT}(?:\s*(?:to|-)\s*{_COUNT})?\s+{_QUALIFIERS}graphs\b",
    # the size a run reached, said of the graphs: "on graphs of thousands of vertices", "a graph of a
    # few hundred vertices" (a limit of the code is its constant: `MAX_DRAWN` = 3,000 vertices)
    "graphs of N vertices": (rf"\bgraphs?\s+of\s+(?:{_FEW}\s+)?{_COUNT}(?:\s*(?:to|-)\s*{_COUNT})?\s+"
                             r"(?:of\s+)?vertices\b"),
    # where a strategy stopped: "grids past 12x12" (a limit of the code is written "up to 12x12")
    "stopped past": rf"\bpast\s+{_NUM}\s*x\s*{_NUM}\b",
    # a share of a set: "about half of the FHCP graphs"; a share without its number: "most of the
    # memory", "many FHCP graphs", "nearly all runs" ("at most" is a bound, "how many" a question)
    "share": (r"\b(?:about|nearly|almost|over|under|roughly)\s+"
              r"(?:half|a\s+third|a\s+quarter|two\s+thirds)\s+of\b"
              r"|(?<!\bat\s)(?<!\bhow\s)\b(?:most|many|nearly\s+all|almost\s+all|the\s+bulk|the\s+majority)\s+"
              rf"(?:of\s+)?(?:(?:the|a|an|its|their)\s+)?(?:[\w-]+(?:'s)?\s+){{0,2}}?{_RUN_NOUN}\b"),
    # a ratio in words: "far less", "twice as fast", "an order of magnitude", "much more"
    "ratio in words": (r"\b(?:twice|thrice|half)\s+as\s+\w+"  # "as far as 2-opt goes" is no ratio
                       r"|\b(?:far|much|twice|thrice|half)\s+(?:less|more|fewer|smaller|larger"
                       r"|faster|slower|sooner|quicker|longer|shorter|cheaper|dearer)\b"
                       r"|\b(?:an?|one|two|three)\s+orders?\s+of\s+magnitude\b"),
    # a time without its number: "solves it in seconds", "a few seconds", "within a minute",
    # "well under a millisecond"
    "time in words": (rf"\b(?:in|within|under|after|takes?|took|taking)\s+(?:{_FEW}\s+|mere\s+|"
                      rf"(?:a\s+)?fractions?\s+of\s+(?:a\s+)?|(?:a|one)\s+)?{_TIME}\b"
                      rf"|\b{_FEW}\s+{_TIME}\b"),
    # a rate: "533 conflicts a second", "20 runs per hour", "ten percent"
    # ("0 a second one exists" is an ordinal: a rate names what it counts, or says "per")
    "rate": (rf"{_START}{_COUNT}\s+(?:[\w-]+\s+(?:per|an?)|per)\s+{_TIME.replace('s?', '')}\b"
             rf"|\b{_WORDS}\s+(?:percent|per\s?cent)\b"),
    # a measured comparison said in words: "fewer rounds, not less time"
    "compared in words": (r"\b(?:fewer|more)\s+(?:rounds|conflicts|restarts|solves|timeouts)\b"
                          r"|\b(?:less|more)\s+(?:time|CPU\s+time|memory)\b"),
}
FIGURE = re.compile("|".join(f"(?:{shape})" for shape in SHAPES.values()), re.I)

# Constants of a mechanism, each the exact phrase in docs/ (whitespace may break across lines), with
# where its value is set: (module, name, value) when the code sets it, and the test below checks that
# the code still does (a page saying "2 s" of a budget the code made 3 s would be a stale figure);
# None for a fact outside the code, said why in its comment.
# A figure read off a run does not belong here: it belongs in results/<study>/README.md.
CONSTANTS = {
    "95 % bootstrap interval": None,  # analysis.compare.compare's `level` default: checked below
    "Sub-solves get 2 s of CPU, then 8, 32": ("loopbench_encodings.loop.split", "SUB_BUDGET_S", 2.0),
    "cores × `--memory-limit` + 512 MB": ("harness.run.slurm", "OVERHEAD_MB", 512),
    "1.5 × time limit + 5 s": None,  # the runner's wall-time cap: supervise.wall_cap, checked below
    "1,800 s of CPU per graph": None,  # the published per-instance time limit the full FHCP study takes over
    "1,800 s wall, 7 GB": None,  # the limits the published fork's cegar-fix run states
    "gives each run 7 GB": None,  # what the page's own command's --memory-limit 7168 asks for
    "16 × 7,168 MB = 112 GB": None,  # arithmetic of the page's command's options (16 cores × --memory-limit)
    "`death-timeout` (60 s)": None,  # dask's own setting: how long a worker outlives its scheduler
    "asks `squeue` every 2 s": ("harness.run.slurm", "WATCH_S", 2.0),
    "moves in 4 ms ticks": None,  # time.process_time()'s resolution under RLIMIT_CPU: the kernel's tick
    "holding more than 64 MB": ("harness.run.supervise", "LEFT_BEHIND_MB", 64),
    "0.05 s of CPU": ("harness.run.worker", "PROGRESS_EVERY_S", 0.05),
    "≥ 98 % of it": ("harness.run.supervise", "UNKNOWN_AT_LIMIT", 0.98),  # `unknown` this close is a timeout
    "get 10,000 conflicts": ("loopbench_encodings._plain_sat", "CHUNK_FIRST", 10_000),  # a round's first
    "RESTART_ROUNDS = 100 rounds": ("loopbench_encodings.cegar.rebuild", "RESTART_ROUNDS", 100),  # Luby unit
    "67,108,864 (64 MiB)": None,  # harness.kinds.bounds.ReadLimits.bytes' default: checked below
    "FHCP Challenge Set has 1,001 graphs": None,  # the benchmark's size as its authors publish it
}
ALLOWED = list(CONSTANTS)


def _phrase(text: str) -> re.Pattern:
    return re.compile(r"\s+".join(re.escape(word) for word in text.split()))


def measured_figures(text: str) -> list[tuple[int, str]]:
    """The figures of `text` outside the allowed phrases, with their line numbers."""
    allowed = [m.span() for phrase in ALLOWED for m in _phrase(phrase).finditer(text)]
    return [(text.count("\n", 0, m.start()) + 1, " ".join(m.group(0).split()))
            for m in FIGURE.finditer(text)
            if not any(a <= m.start() and m.end() <= b for a, b in allowed)]


def test_the_pattern_catches_measured_figures_and_passes_constants():
    caught = ["took 94 s", "solved 43 of 45", "7-8 % slower", "2.85x faster", "peaks at 1,577 MB",
              "59 to\n  94 s", "1 of the 6 runs", "about 283 CPU-hours", "1.61× the time", "about 40 bytes",
              "a 40-byte clause", "solves 76", "it gains eight graphs", "loses ten", "2 to 3 times sooner",
              "faster by 12", "a speed-up of 11.7", "22,100 rounds", "533 conflicts", "past ~60 vertices",
              "grids past 12x12", "about half of the graphs", "(82.8 %)", "4.85 s before, 3.45 s after"]
    for text in caught:
        assert measured_figures(text), text
    for text in ["a 5x5 grid", "3 × the mean", "a 3 x 3 block", "graph132", "GP(1000,2)", "`--time-limit 60`",
                 "issue 28", "v1.9.5", "2^30 megabytes", "up to 12x12", "solves one puzzle", "2-opt",
                 "64-bit label", "one of two empty neighbours", "the first 20, then a count",
                 "a wall cap (1.5 × time limit + 5 s)", "at most every 0.05 s of CPU",
                 # what the shapes for figures in words must let pass
                 "2-opt moves as far as they go", "1 one solution, 0 a second one exists", "at most one arc",
                 "on how many instances each was faster", "Glucose 4.2 on dense graphs", "2 clauses a bit",
                 "`MAX_DRAWN` = 3,000 vertices", "degree at least 3 times the mean", "most clusters",
                 "(23 at B = 11, for 1,025 to 2,048 vertices)", "random hub graphs", "the graph's vertices"]:
        assert not measured_figures(text), text


def test_a_figure_said_in_words_is_caught():
    # the kinds a reviewer counts that carry no number with a unit
    for text in ["solves it in seconds", "in a second", "takes a few seconds", "within a minute",
                 "well under a millisecond", "533 conflicts a second", "20 runs per hour", "ten percent",
                 "12 per cent", "twice as fast", "an order of magnitude faster", "far less",
                 "much more memory", "nearly all runs", "most of the graphs", "the majority of puzzles",
                 "solved on 45 graphs", "fewer rounds", "less time", "several restarts",
                 "a handful of conflicts"]:
        assert measured_figures(text), text


# Figures docs/ held before issue 45's item 5 moved them to results/ (each as it was written there):
# typed back into a page, each must fail the page's test.
MOVED = [
    "why `sat` took thousands of rounds",  # CEGAR.md: results/graph
    "about 100 bytes a clause (a 40-byte clause object with its allocation, and two 16-byte watches",
    "100 bytes each, and 182 bytes a variable",  # CEGAR.md's `solver=auto` estimate: results/fhcp
    "The unit, 100 rounds, was fixed before those runs",  # CEGAR.md's restarts: results/fhcp
    "hopeless on wide graphs (grids past 12x12, random cubic graphs past ~60 vertices, about half of the"
    " FHCP graphs)",  # ENCODINGS.md's `frontier`: results/graph
    "expect timeouts past ~10x10",  # ENCODINGS.md's `dfs`: results/reference
    "graph132 from 0.44 s to 7.86 s",  # issue 45's example of a figure docs/ held
    "the CEGAR configuration solves 76, but not the same 75: it gains eight graphs",
    # moved by a second review (each to the HISTORY.md named); figures in words, without a unit
    "The FHCP set's 30-hub family (45 graphs, 1,381 to 5,130 vertices)",  # CEGAR.md: results/fhcp
    "a rule read off fhcp-sample and then tested on 100 held-out graphs, where it did not hold",  # fhcp
    "which on graphs of thousands of vertices is what the budget ends",  # CEGAR.md: results/decomp
    "A round of the CEGAR configuration on a graph of a few hundred vertices costs CaDiCaL well under a"
    " millisecond",  # moved earlier from CEGAR.md: results/fhcp
    "CaDiCaL's saved phases give the next model from the last by a few flips",  # CEGAR.md: results/fhcp
    "one round per set of them (2^k rounds on the flower snark J_k)",  # CONNECT.md: results/graph
    "On dense graphs the formula is most of the memory, held by CaDiCaL",  # CEGAR.md: results/fhcp
    "on wide graphs (large grids, random cubic graphs, many FHCP graphs)",  # ENCODINGS.md: results/graph
    "CP-SAT's LP relaxation: 0 none (its defaults spend most of a loop model's time there)",  # results/
    "one block alone, with paths between its boundary vertices, is a far smaller problem",  # fhcp
    "The published configurations took far less",  # CLUSTER.md: results/fhcp
    "Fewer rounds, not less time, for `sat`",  # ENCODINGS.md: results/reference-slither
]


@pytest.mark.parametrize("figure", MOVED)
def test_a_moved_figure_typed_back_fails_its_page(figure):
    page = next(p for p in DOCS if p.name == "CEGAR.md").read_text(encoding="utf-8")
    assert not measured_figures(page)  # the page as committed passes
    edited = page.replace("## Deterministic search", f"{figure}.\n\n## Deterministic search", 1)
    assert edited != page
    assert measured_figures(edited), figure


def test_every_allowed_phrase_is_still_in_docs():
    # an entry no page uses any more would let the same phrase back in unseen
    text = "\n".join(p.read_text(encoding="utf-8") for p in DOCS)
    assert DOCS
    assert [p for p in ALLOWED if not _phrase(p).search(text)] == []


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_docs_hold_no_measured_figures(path):
    found = measured_figures(path.read_text(encoding="utf-8"))
    assert not found, (f"{path.relative_to(ROOT)} holds measured figures (move them to "
                       f"results/<study>/README.md with their command): "
                       + "; ".join(f"line {n}: {fig!r}" for n, fig in found))


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to hyphens."""
    heads = re.findall(r"^#+\s+(.*)$", path.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


PAGES = [ROOT / "README.md", *DOCS, *sorted((ROOT / "results").glob("*/README.md")),
         ROOT / "results" / "README.md"]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_somewhere(path):
    broken = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # a web address: not checked offline
        file, _, anchor = target.partition("#")
        where = (path.parent / file).resolve() if file else path
        if not where.exists():
            broken.append(target)
        elif anchor and where.suffix == ".md" and anchor not in _anchors(where):
            broken.append(target)
    assert not broken, f"{path.relative_to(ROOT)}: broken links {broken}"


COMMANDS = ['pip install -e ".[dev]" && python -m harness.run --encoding lazy',
            'pip install -e ".[dev]" && pytest --full']


def test_the_readme_opens_with_its_two_commands_and_keeps_one_table():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    head, _, rest = text.partition("```bash\n")
    assert head.strip() == "# loopbench"  # the title, then the commands, nothing between
    assert rest.split("```", 1)[0].splitlines() == COMMANDS
    # the test command is what CI runs
    assert COMMANDS[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert text.count("<!-- table:") == 1


@pytest.mark.parametrize("phrase", [p for p, where in CONSTANTS.items() if where])
def test_a_constant_said_in_docs_is_still_the_codes(phrase):
    module, name, value = CONSTANTS[phrase]
    assert getattr(importlib.import_module(module), name) == value


def test_the_constants_that_are_defaults_are_still_the_docs():
    import inspect

    from harness.analysis.compare import compare
    from harness.kinds.bounds import ReadLimits
    from harness.run.supervise import wall_cap

    assert inspect.signature(compare).parameters["level"].default == 0.95
    assert wall_cap(10.0) == 20.0 and wall_cap(60.0) == 95.0  # 1.5 x the limit + 5 s
    assert ReadLimits().bytes == 67_108_864
