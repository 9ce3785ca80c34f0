"""The contract every encoding meets, the project's and plug-ins' alike (docs/PLUGINS.md points here).

`Encoding` below is the one place it is written: each attribute and method says what it gets,
what it returns and what it may not assume. `Limits` is a run's budget, `Outcome` its answer.
"""

from __future__ import annotations

import abc
import importlib
import resource
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from harness import options as option_rules
from harness.outcomes import Answer

# What an encoding may say: the solver's own verdict only. Statuses come in layers (harness.outcomes):
# the runner overlays timeout/memout/crash/error, and the independent checker decides solved or wrong.
SAT, UNSAT, UNKNOWN, UNSUPPORTED = Answer.SAT, Answer.UNSAT, Answer.UNKNOWN, Answer.UNSUPPORTED
ENCODING_STATUSES = tuple(Answer)


def cpu_time(children: bool = False) -> float:
    """This process's CPU time in seconds (every thread, finished ones too; user and system), to the
    microsecond: the one clock of a run's times. `solve_cpu_s`, `check_s` and `unique_s` are read with
    it, and so is every phase statistic an encoding or the proof check reports (`build_s`,
    `solver_cpu_s`, `outside_cpu_s`, `callback_cpu_s`, `proof_check_cpu_s`, `drat_cpu_s`): the
    difference of two readings around the part it names. Process CPU, so a solver's own threads count
    (CP-SAT with `num_workers` > 1, clingo's search thread). `children`: with the children it has
    waited for (a worker's whole run, a generator's forked checks).

    `getrusage`, not `time.process_time()`: once a process-wide CPU timer is armed (the worker's
    CPU backstop, `worker.arm_backstop`, arms one) the kernel answers `process_time` from a total it
    updates at the scheduler's ticks, so it moves in 4 ms steps; a 0.5 ms piece of work read 0.0 s 86
    times in 100 and 0.004 s the rest, while `getrusage` adds up each thread's own runtime to the
    microsecond.
    Both count the same time, so an encoding may compare `process_time()` with its deadline.
    """
    me = resource.getrusage(resource.RUSAGE_SELF)
    if not children:
        return me.ru_utime + me.ru_stime
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


@dataclass(frozen=True)
class Limits:
    """Per-run budget: `time_s` seconds of CPU time, `memory_mb` of resident memory.

    The time limit is CPU time, the clock the runner enforces (it kills a run whose process has
    used `time_s` CPU seconds since the run began, and records `timeout`). An encoding that stops
    itself must read the same clock: `limits.clock()` (or `limits.deadline()` compared with
    `time.process_time()`), never the wall clock, which runs ahead of CPU time on a loaded machine.
    """

    time_s: float = 60.0
    memory_mb: int = 4096
    # `cpu_time()` when the run's budget began: `harness.run.execute` sets it as it calls solve()
    # (and `harness.unique.ask_again` as it calls the second solve), so the encoding's deadline is the
    # one its `solve_cpu_s` is judged on. None: the budget begins when deadline() is called.
    cpu_origin: float | None = None
    # Where `report` hands the statistics so far: the worker keeps the latest (`harness.run.worker`), so
    # a run the runner stops past its limit keeps them. None (a run in this process): nowhere.
    progress: Callable[[dict[str, Any]], None] | None = field(default=None, compare=False, repr=False)

    def report(self, stats: dict[str, Any]) -> None:
        """Hand over the statistics gathered so far, as `Outcome.stats` would hold them; an encoding
        that works in rounds or chunks calls it before each, so a run stopped by the runner (a chunk
        past the limit) is recorded with them. Cheap: the worker writes them down at most every
        `worker.PROGRESS_EVERY_S` of CPU, the call costs a clock reading otherwise."""
        if self.progress is not None:
            self.progress(stats)

    def saying(self, said: dict[str, Any]) -> Limits:
        """These limits, `said` reported now and merged into every later report: what an encoding chose
        before its search (`auto`'s configuration, `sat`'s `degree=auto`) stays on a run the runner
        stops past its limit, which keeps the statistics reported last."""
        self.report(said)
        if self.progress is None:
            return self
        return replace(self, progress=lambda stats, hand=self.progress: hand({**stats, **said}))

    def deadline(self) -> float:
        """The CPU-time instant, in `time.process_time()` seconds, by which an encoding must stop."""
        origin = time.process_time() if self.cpu_origin is None else self.cpu_origin
        return origin + self.time_s

    def clock(self) -> Clock:
        """This run's CPU-time budget as a Clock (what every encoding reads to stop in time)."""
        return Clock(self.deadline())


class Clock:
    """A CPU-time budget: how much is left, whether it is spent, and a watchdog for native solvers.

    CPU time is `time.process_time()`: this process, every thread, user and system time, which is
    what the runner's limit counts. Use `left()` to size a solver's own limit, `expired()` between
    rounds or in callbacks, and `watch(stop)` around a native call that only knows the wall clock
    (CP-SAT's `max_time_in_seconds` is wall time): it calls `stop()` once the CPU budget is spent.
    """

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline

    def left(self) -> float:
        """CPU seconds left (negative once the budget is spent)."""
        return self.deadline - time.process_time()

    def expired(self) -> bool:
        return time.process_time() >= self.deadline

    @contextmanager
    def watch(self, stop: Callable[[], None], every_s: float = 0.01) -> Iterator[None]:
        """Call `stop()` (once, from another thread) if the budget runs out before the block ends.

        For a native solve that releases the GIL, e.g. `with clock.watch(cp_solver.stop_search):
        cp_solver.solve(model)`. The watcher sleeps between reads, so it costs next to no CPU.
        """
        done = threading.Event()

        def watcher() -> None:
            while not done.wait(every_s):
                if self.expired():
                    stop()
                    return

        thread = threading.Thread(target=watcher, name="cpu-clock", daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()


@dataclass
class Outcome:
    """What an encoding reports: the solver's verdict, the solution string and its statistics.

    `stats` uses the database's column names where one fits (build_s, iterations, cuts,
    conflicts); anything else lands in `extra` (num_workers, deterministic_time, solver_cpu_s, ...).
    Times are CPU time of the part they name, read with `cpu_time()` (`build_s`: model building);
    a time on another clock is named so (`*_wall_s`).
    Two optional keys have a meaning of their own: `partial`, the edges an encoding held when it
    stopped without an answer (a loop-style solution string; `harness.solve` draws it), and
    `steps`, a replayable trace (harness/replay.py), which a sweep keeps in a file beside the database.
    """

    status: str
    solution: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.status not in ENCODING_STATUSES:
            raise ValueError(f"unknown encoding status {self.status!r}")


class Encoding(abc.ABC):
    """One way to solve puzzles: subclasses set `name`, `puzzles` and `defaults`, and implement `solve`.

    Life of an encoding object: the harness makes one per run, in a long-lived worker process that
    serves many runs of many encodings one after another (module-level caches are shared by those
    runs; a worker left holding much more memory than it started with is replaced). It calls
    `prepare()` untimed, then `solve()`; with `--unique` it calls `solve()` once more on the same
    object with the found answer in `exclude`. A run that uses up its CPU budget or memory is
    killed with its whole process group and recorded `timeout` or `memout`: an encoding never
    catches that. Every `sat` answer is judged by the puzzle kind's independent checker; a
    rejected one is recorded `wrong`. No method may assume another encoding ran before it.
    """

    # The encoding's name on the command line and in the database (an entry point's NAME).
    name: ClassVar[str]
    puzzles: ClassVar[tuple[str, ...] | None] = ()  # the puzzle kinds it solves; None: every kind
    # Its options, each declared once (`harness.options.Option`: type, choices, default, help, the kinds
    # it applies to, defaults per kind, what it requires or excludes); checked from these, never by code.
    declared: ClassVar[tuple[Any, ...]] = ()
    # The older contract, which plug-ins may keep: every option with its default (command-line strings
    # are converted to the default's type), and the options that take one of a few words. Made from
    # `declared` where an encoding declares its options.
    defaults: ClassVar[dict[str, Any]] = {}
    choices: ClassVar[dict[str, tuple[str, ...]]] = {}
    # Settings of the code that are no options of this encoding (a subclass's fixed choice of its base's
    # option): in `self.options` for the code to read, never in the run key.
    fixed: ClassVar[dict[str, Any]] = {}
    # Solver packages the encoding uses; `prepare` imports them before the clock starts, since
    # solve_s counts the encoding's work on the puzzle, never imports (FORMATS.md). Their versions
    # are part of the encoding's fingerprint.
    imports: ClassVar[tuple[str, ...]] = ()
    # Whether `solve` honours `exclude` (solutions it must not return): what uniqueness checks and
    # generators ask of an encoding. One that does not is never asked.
    excludes: ClassVar[bool] = False
    # Whether its model is code the harness cannot read (a program it runs): its unsat claims then confirm
    # no other encoding's, since no model family can be read off it (`harness.analysis.verdicts`).
    unread_model: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("declared"):
            cls.defaults = {o.name: o.default for o in cls.declared}
            cls.choices = {o.name: o.choices for o in cls.declared if o.choices is not None}

    def __init__(self, **options: Any) -> None:
        """Take the run's options (strings from the command line, or typed values), resolved for no
        kind in particular (`harness.options.resolve`: each at its plain default unless given, checked
        against the declarations); `self.options` holds every option the code reads. A run resolves its
        options for its instance's kind once and makes its encoding with `made` instead.

        Raises ValueError naming an unknown option or a bad value. Cheap: no solver work here.
        """
        # a fixed setting given at its value (an encoding made again from another's `options`) is no option
        given = {k: v for k, v in options.items() if not (k in self.fixed and self.fixed[k] == v)}
        self.take(option_rules.resolve(type(self), given).options)

    @classmethod
    def made(cls, resolved: dict[str, Any]) -> Encoding:
        """The encoding for options already resolved (`harness.options.resolve`), not checked again.
        A plug-in class with an `__init__` of its own is made through it."""
        if cls.__init__ is not Encoding.__init__:
            return cls(**resolved)
        made = cls.__new__(cls)
        made.take(resolved)
        return made

    def take(self, resolved: dict[str, Any]) -> None:
        """Keep the resolved options: `self.options` is every declared option (those a kind leaves out at
        their plain default, so the code reads any alike) and `fixed`, with the resolved ones on top;
        `self.resolved` the resolved ones alone (the run key's)."""
        self.resolved = dict(resolved)
        self.options = {**option_rules.every_option(type(self)), **self.fixed, **resolved}

    def prepare(self) -> None:
        """Import the solver packages (untimed); cheap after the first call in a process.

        Override only to do more untimed set-up that does not depend on the puzzle.
        """
        for module in self.imports:
            importlib.import_module(module)

    def supports(self, puzzle: Any) -> bool:
        """Whether this encoding can take this puzzle; False is recorded as an `error` run.

        Default: the puzzle's kind is served. Override to refuse some puzzles of a served kind.
        """
        return self.serves(puzzle.kind)

    @classmethod
    def serves(cls, kind: str) -> bool:
        """Whether the encoding solves puzzles of `kind` (a sweep plans it on those only)."""
        return cls.puzzles is None or kind in cls.puzzles

    @abc.abstractmethod
    def solve(self, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        """Solve `puzzle` within `limits`; never return a solution string listed in `exclude`.

        Gets a puzzle of a kind it serves (the kind's model: `kind`, `rows`, `cols`, the kind's
        clues), the run's budget and seed (pass it to the solver's random seed, so a seed sweep
        means something). Returns the solver's verdict (`sat` with the solution string in the
        kind's solution format, `unsat`: no solution outside `exclude`, `unknown`, `unsupported`)
        and statistics (`Outcome.stats`); it may not catch the runner's limits or judge its own
        answer. An encoding that stops itself in time reads `limits.clock()` (CPU time), never the
        wall clock: the runner records a run that used its CPU budget as `timeout` whatever it
        returned. An exception is recorded as the run's `crash`, with its traceback.
        """


def parse_options(pairs: list[str]) -> dict[str, str]:
    """`--option KEY=VALUE` strings as a dict; raises ValueError naming a malformed one."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option {pair}: expected KEY=VALUE")
        options[key.strip()] = value.strip()
    return options
