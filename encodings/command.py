"""`command`: a Hamiltonian-cycle program of one's own, run on each graph; its tour judged like any answer.

Model: the program's. For the published solvers, whose authors would compare theirs with the harness's
on the same graphs, the same CPU clock and the same checker. The graph is written to a file
(`input=hcp`: TSPLIB HCP, as the FHCP set is published; `input=dimacs`: DIMACS `p edge`, the `.col`
files the SAT 2025 cut-set CEGAR reads), and `run` is the program's command line, split as a POSIX
shell would (`shlex`, no shell runs) with `{graph}` (that file), `{tour}` (a path the program may write
a TSPLIB tour to), `{seed}` and `{seconds}` (the run's CPU seconds left, rounded up) put in. It runs in
the harness's working directory, as from the shell that started the sweep (so `./my-solver` is found),
with standard input closed; `{graph}` and `{tour}` are in a folder made for the run, removed after it.

Its CPU is the run's: the harness waits for it, so it counts in `solve_cpu_s` as the children of every
encoding do, and the runner's limit, which counts a run's child processes, kills it with the run's
process group; it also gets RLIMIT_CPU at the budget's end, so it stops where no runner watches
(`harness.solve`). Memory: it lives in the run's cgroup where the runner made one
(`harness.run.memory`), and inherits the worker's limits.

What it answers, read in this order (`answer`):
- a tour: the file at `{tour}` if the program wrote one (a TSPLIB tour, or the vertex numbers alone);
  else on standard output a `TOUR_SECTION` up to its `-1`, or `v` lines (the vertex numbers after
  each `v`, as SAT competitions print values, a lone `0` ending them), or a `solution:` line (the
  numbers after it, or on the next line that has any: the SAT 2025 CEGAR's way). Vertices are
  numbered 1 to n, as in the file (`base=0`: 0 to n - 1). A tour that visits every vertex once is
  turned to start at vertex 1 towards its smaller neighbour (the solution format, docs/FORMATS.md);
  any other is passed on as written, and the checker says what is wrong with it.
- else the verdict: `s SATISFIABLE` / `s UNSATISFIABLE` on standard output, or exit code 10 / 20 (the
  SAT competitions' words and codes). `unsat` is a claim without a certificate, judged across the
  database as every unproven one is (`harness.analysis.verdicts`): another model family's claim may
  confirm it, but it confirms none (`unread_model`: the harness cannot read the program's model);
  `sat` without a tour is an empty solution, which the checker refuses (`wrong`).
- else: stopped by its CPU limit (SIGXCPU, SIGKILL), `unknown` (a `timeout` to the runner), and by the
  wall-clock guard (a program that waits: WALL_FACTOR), `unknown`; another signal, or an exit code
  other than 0, 10 and 20, is a `crash` with the end of its standard error; exit code 0 and nothing
  said, `unknown`.
Standard output and the tour file are read up to OUTPUT_MAX bytes (standard output's last ones), so no
program's output makes the harness allocate without bound.

Stats: `build_s` (writing the graph), `command_cpu_s` and `command_peak_rss_mb` (the program's CPU and
largest resident set, from its own rusage: with the children it waited for; the run's `peak_rss_mb` is
the worker's), `command_exit` (its exit code, or minus the signal that ended it), `command_path` (the
program found on PATH) and `command_sha256` (its content's digest, read before the clock starts). The
run key holds the command line, not the program's content: a program rebuilt at the same path is the
same configuration to a sweep's resume, so give a new build a new path (or `--rerun`); the digest in
`extra` tells them apart.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import re
import resource
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.encoding import SAT, UNKNOWN, UNSAT, Encoding, Limits, Outcome, cpu_time
from harness.options import Option

OUTPUT_MAX = 64 << 20  # bytes of standard output (its end) or of a tour file read at most
TAIL_CHARS = 2000  # of a crashed program's standard error, kept in the run's detail
EXIT_SAT, EXIT_UNSAT = 10, 20  # the SAT competitions' exit codes
STOPPED_BY_LIMIT = (signal.SIGXCPU, signal.SIGKILL)
# The wall-clock guard on a program that sleeps or waits (its CPU limit never comes): above the runner's
# own wall cap (harness.run.supervise.wall_cap), which stops a sweep's run first; in `harness.solve`, ours.
WALL_FACTOR, WALL_SLACK_S = 2.0, 10.0


def _command_line(text: str) -> str:
    """The command line as given, once it splits into words ("" is no program: `take` refuses to run
    one); ValueError otherwise."""
    try:
        said = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"option run: {text!r} does not split into words ({exc})") from None
    if text and not said:
        raise ValueError(f"option run: {text!r} names no program")
    return text


def words(text: str, places: dict[str, str]) -> list[str]:
    """The command line's words with each place (`{graph}` ...) put in, within words as well."""
    out = []
    for word in shlex.split(text):
        for place, value in places.items():
            word = word.replace(place, value)
        out.append(word)
    return out


def tail(path: Path, limit: int = OUTPUT_MAX) -> str:
    """A file's text, or its last `limit` bytes when it is longer."""
    with open(path, "rb") as f:
        size = f.seek(0, os.SEEK_END)
        f.seek(max(0, size - limit))
        return f.read().decode("utf-8", errors="replace")


def tour_in(text: str, bare: bool = False) -> list[str] | None:
    """The tour's vertex numbers as written (strings), or None where the text holds none.

    A `TOUR_SECTION` to its `-1`; `v` lines (a lone `0` ends them); a `solution:` line; with `bare`
    (a tour file), else every word of the text."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().upper().startswith("TOUR_SECTION"):
            out = []
            for later in [line.strip()[len("TOUR_SECTION"):], *lines[i + 1:]]:
                for word in later.split():
                    if word == "-1" or word.upper() == "EOF":
                        return out
                    out.append(word)
            return out
    values = [w for line in lines if line.startswith("v ") for w in line.split()[1:]]
    if values:
        return values[:-1] if values[-1] == "0" else values
    for i, line in enumerate(lines):
        if line.strip().lower().startswith("solution:"):
            for later in [line.strip()[len("solution:"):], *lines[i + 1:]]:
                if later.split():
                    return later.split()
            return []
    return text.split() if bare and text.split() else None


def numbered(tour: list[str], base: int) -> list[str]:
    """The tour's vertex numbers counted from 1 (a word that is no number is left for the checker)."""
    return [str(int(w) + 1 - base) if w.isdecimal() else w for w in tour] if base != 1 else tour


def canonical(n: int, tour: list[str]) -> str:
    """The tour from vertex 1 towards its smaller neighbour if it visits each of 1..n once; else as given."""
    if sorted(tour, key=lambda w: (len(w), w)) != [str(v) for v in range(1, n + 1)]:
        return " ".join(tour)
    start = tour.index("1")
    order = tour[start:] + tour[:start]
    if n > 2 and int(order[1]) > int(order[-1]):
        order = [order[0], *reversed(order[1:])]
    return " ".join(order)


def verdict(text: str) -> str | None:
    """`SATISFIABLE`, `UNSATISFIABLE`, ... from the last `s` line of the output, or None."""
    said = re.findall(r"^s\s+(\S+)", text, flags=re.MULTILINE)
    return said[-1].upper() if said else None


def digest(path: str | None) -> str | None:
    """The sha256 of a program file's content, or None where there is none to read."""
    if path is None or not os.path.isfile(path):
        return None
    sha = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


class Command(Encoding):
    name = "command"
    puzzles = ("graph",)
    unread_model = True  # its unsat claims confirm no other encoding's; another family's may confirm them
    declared = (
        Option("run", "", "the program's command line; {graph}, {tour}, {seed} and {seconds} are put in "
               "(give it with --option 'run=...')", check=_command_line),
        Option("input", "hcp", "the graph file's format: TSPLIB HCP, or DIMACS `p edge` (.col)",
               ("hcp", "dimacs")),
        Option("base", 1, "the number of the first vertex in the program's tour: 1, as in the file, or 0",
               (1, 0)),
    )

    def take(self, resolved: dict) -> None:
        super().take(resolved)
        if not self.options["run"]:  # no program by default: a run without one is an `error` row
            raise ValueError("option run: give the program's command line, e.g. "
                             "--option 'run=./my-solver {graph} {tour}'")
        self.path: str | None = None
        self.sha256: str | None = None

    def prepare(self) -> None:
        """Find the program on PATH and read its digest, before the clock starts."""
        super().prepare()
        self.path = shutil.which(shlex.split(self.options["run"])[0])
        self.sha256 = digest(self.path)

    def solve(self, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        from harness.kinds.graph.formats import write_dimacs, write_hcp

        clock = limits.clock()
        start = cpu_time()
        with tempfile.TemporaryDirectory(prefix="loopbench-command-") as folder:
            here = Path(folder)
            graph = here / ("graph.hcp" if self.options["input"] == "hcp" else "graph.col")
            graph.write_text(write_hcp(puzzle) if self.options["input"] == "hcp" else write_dimacs(puzzle))
            tour_file = here / "graph.tour"
            seconds = max(1, math.ceil(clock.left()))
            argv = words(self.options["run"], {"{graph}": str(graph), "{tour}": str(tour_file),
                                               "{seed}": str(seed), "{seconds}": str(seconds)})
            build_s = cpu_time() - start
            with open(here / "stdout", "wb") as out, open(here / "stderr", "wb") as err:
                ended = run_program(argv, out, err, seconds, WALL_FACTOR * limits.time_s + WALL_SLACK_S)
            stats = {"build_s": build_s, "command_exit": ended.code, "command_cpu_s": ended.cpu_s,
                     "command_peak_rss_mb": ended.peak_rss_mb, "command_path": self.path,
                     "command_sha256": self.sha256}
            stdout = tail(here / "stdout")
            written = tail(tour_file) if tour_file.is_file() else ""
            tour = tour_in(written, bare=True) if written.strip() else tour_in(stdout)
            if tour is not None:
                return Outcome(SAT, canonical(puzzle.n, numbered(tour, self.options["base"])), stats)
            word = verdict(stdout)
            if ended.code != 0 and not ended.said(word) and not ended.stopped():
                stderr = tail(here / "stderr", TAIL_CHARS)
                raise RuntimeError(f"the command ended with {ended.how()}: {stderr}")
        return answer(ended, word, stats)


@dataclass(frozen=True)
class Ended:
    """How the program ended: its exit code (minus the signal that ended it), its CPU and peak memory (its
    own rusage, with the children it waited for), and whether the wall-clock guard ended it."""

    code: int
    cpu_s: float
    peak_rss_mb: float
    guarded: bool = False

    def said(self, word: str | None) -> bool:
        """Whether it gave a verdict, by word or by exit code."""
        return word in ("SATISFIABLE", "UNSATISFIABLE") or self.code in (EXIT_SAT, EXIT_UNSAT)

    def stopped(self) -> bool:
        """Whether a limit ended it: its CPU limit's signals, or the guard."""
        return self.guarded or (self.code < 0 and -self.code in STOPPED_BY_LIMIT)

    def how(self) -> str:
        return f"signal {signal.Signals(-self.code).name}" if self.code < 0 else f"exit code {self.code}"


def answer(ended: Ended, said: str | None, stats: dict[str, Any]) -> Outcome:
    """The answer of a program that wrote no tour: its verdict, else why it has none."""
    if said == "UNSATISFIABLE" or (said is None and ended.code == EXIT_UNSAT):
        return Outcome(UNSAT, stats={**stats, "reason": "the program said so (no certificate)"})
    if said == "SATISFIABLE" or (said is None and ended.code == EXIT_SAT):
        return Outcome(SAT, "", {**stats, "reason": "the program said sat and gave no tour"})
    if ended.guarded:
        return Outcome(UNKNOWN, stats={**stats, "reason": "stopped by the wall-clock guard"})
    if ended.stopped():
        return Outcome(UNKNOWN, stats={**stats, "reason": f"stopped by {ended.how()} (its CPU limit)"})
    return Outcome(UNKNOWN, stats={**stats, "reason": "the program ended without an answer"})


def run_program(argv: list[str], out: Any, err: Any, seconds: int, wall_s: float) -> Ended:
    """Start the program (standard input closed, output to the files given), hold it to `seconds` of CPU and
    `wall_s` of wall time, and wait for it."""
    try:
        program = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
    except OSError as exc:
        raise RuntimeError(f"the command {argv[0]!r} did not start: {exc}") from None
    limit_cpu(program.pid, seconds)
    guarded: list[bool] = []

    def guard() -> None:
        guarded.append(True)
        with contextlib.suppress(ProcessLookupError):
            os.kill(program.pid, signal.SIGKILL)

    timer = threading.Timer(wall_s, guard)
    timer.start()
    try:
        _, status, usage = os.wait4(program.pid, 0)  # its own rusage, not the worker's other children's
    finally:
        timer.cancel()
    program.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    return Ended(program.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, bool(guarded))


def limit_cpu(pid: int, seconds: int) -> None:
    """RLIMIT_CPU on the program: SIGXCPU a second past its budget, SIGKILL a second later (never above
    the hard limit it inherited: the worker's own backstop)."""
    try:
        _, hard = resource.prlimit(pid, resource.RLIMIT_CPU)
        if hard == resource.RLIM_INFINITY:
            resource.prlimit(pid, resource.RLIMIT_CPU, (seconds + 1, seconds + 2))
        else:
            resource.prlimit(pid, resource.RLIMIT_CPU, (min(seconds + 1, hard), hard))
    except (ProcessLookupError, PermissionError):  # already ended: nothing to limit
        pass
