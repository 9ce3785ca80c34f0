"""docs/ describe mechanisms: no number with a unit that reads as measured off a run, no broken link,
and a front page that opens with its two commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md"))

_NUM = r"\d[\d,]*(?:\.\d+)?"
_UNIT = r"(?:ms|µs|s|%|[KMG]B|kB|CPU[- ]hours?|hours?|minutes?|seconds?)"
# A number (or a range "2 to 3", "20-25") with a time, memory, ratio or percentage unit; a speed-up
# "2.85x"; a solved count "43 of 45" or "1 of the 6". Grid sizes (5x5) are not matched: the x is
# followed by a digit. Whitespace may be a line break: a figure can span two lines of a paragraph.
FIGURE = re.compile(
    rf"(?<![\w.\-/=`]){_NUM}(?:\s*(?:to|-|–)\s*{_NUM})?(?:\s*{_UNIT}|x)(?![\w])"
    rf"|(?<![\w.\-/=`]){_NUM}\s+of\s+(?:the\s+)?{_NUM}\b")

# Constants of a mechanism, each the exact phrase in docs/ (whitespace may break across lines).
# A figure read off a run does not belong here: it belongs in results/<study>/README.md.
ALLOWED = [
    "95 % bootstrap interval",  # the confidence level harness.compare's interval is computed at
    "Sub-solves get 2 s of CPU, then 8, 32",  # split=hubs' sub-solve budgets, set in encodings/loop/split.py
    "cores × `--memory-limit` + 512 MB",  # a Slurm job's memory request: harness.run.slurm.OVERHEAD_MB
    "1.5 × time limit + 5 s",  # the runner's wall-time cap (a hang's backstop), as CLUSTER.md writes it
    "1.5 x limit + 5 s",  # the same cap, as RUNS.md writes it
    "1,800 s of CPU per graph",  # the published per-instance time limit the full FHCP study takes over
    "1,800 s wall, 7 GB",  # the limits the published fork's cegar-fix run states
    "gives each run 7 GB",  # what the command's --memory-limit 7168 asks for
    "16 × 7,168 MB = 112 GB",  # arithmetic of the command's own options (16 cores × --memory-limit)
    "`death-timeout` (60 s)",  # dask's setting: how long a worker outlives its scheduler
    "asks `squeue` every 2 s",  # the Slurm coordinator's poll interval
    "moves in 4 ms ticks",  # time.process_time()'s resolution while RLIMIT_CPU is armed: the kernel's tick
    "than 64 MB is replaced",  # the worker's leftover-memory threshold for replacing it (FORMATS.md)
    "64 MB above its RSS",  # the same threshold, as RUNS.md writes it
    "0.05 s of CPU",  # harness.run.worker.PROGRESS_EVERY_S: how often a solve's statistics are written
    "≥ 98 % of it",  # harness.run.supervise.UNKNOWN_AT_LIMIT: `unknown` this close to the limit is a timeout
]


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
              "59 to\n  94 s", "1 of the 6 runs", "about 283 CPU-hours"]
    for text in caught:
        assert measured_figures(text), text
    for text in ["a 5x5 grid", "3 × the mean", "a 3 x 3 block", "graph132", "GP(1000,2)", "`--time-limit 60`",
                 "issue 28", "v1.9.5",
                 "a wall cap (1.5 x limit + 5 s)", "at most every 0.05 s of CPU"]:
        assert not measured_figures(text), text


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
