"""`portfolio`: two configurations at once on a graph, each in a process of its own; the first answer wins.

Model: none of its own. Each member (a preset or encoding, `members=A+B`) runs in a child forked from the
worker, pinned to a core of the run's own where it has two (`harness.run --cores-per-run 2`; with one
they share it, and only the wall clock differs), with half the run's CPU budget and half its memory:
both clocks count (the run's `solve_cpu_s` holds both children's CPU, the loser's up to its end), so a
portfolio is judged on the same CPU seconds as one configuration, the published tables' clock, not on
wall time. The first member to answer (a loop or a proof of none) wins and the other is killed; an
`unknown` from one waits for the other. The winner's answer is judged by the graph checker as every
answer is. Stats: the winner's own, `portfolio_winner`, and per member its status and CPU seconds
(`portfolio_cpu_s`). A parallel portfolio with a shared clock is what SAT competitions' parallel
tracks and Slurm users run; counting both CPU clocks keeps it comparable with the sequential rows.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
from typing import Any

from harness.encoding import SAT, UNKNOWN, UNSAT, Encoding, Limits, Outcome
from harness.options import Option

MEMBERS = "cegar-split-frontier+asp"  # the best single configuration and the one that wins elsewhere


def _members(text: str) -> str:
    """The members' canonical text; ValueError naming a member that is unknown, repeated or a portfolio."""
    from harness import registry

    names = [m.strip() for m in text.split("+")]
    if len(names) != 2 or not all(names):
        raise ValueError(f"option members: two configurations joined by '+', not {text!r}")
    for name in names:
        if registry.entry(name).encoding == Portfolio.name:  # ValueError naming an unknown one
            raise ValueError(f"option members: {name!r} is a portfolio itself")
    return "+".join(names)


def _child(config: str, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...], core: int | None,
           out: int) -> None:
    """In the forked child: run one member, write its Outcome to `out`, exit (never returns)."""
    status = 1
    try:
        from harness import registry

        if core is not None:
            os.sched_setaffinity(0, {core})
        member = registry.create_for(config, puzzle.kind)
        member.prepare()
        outcome = member.solve(puzzle, limits, seed, exclude)
        data = pickle.dumps(outcome)
        while data:
            data = data[os.write(out, data):]
        status = 0
    except BaseException as exc:  # noqa: BLE001 - a child must never return into the worker's code
        try:
            os.write(out, pickle.dumps(Outcome(UNKNOWN, stats={"reason": f"{config}: {exc}"})))
        except BaseException:  # noqa: BLE001
            pass
    finally:
        os._exit(status)


class Portfolio(Encoding):
    name = "portfolio"
    puzzles = ("graph",)  # its default members are graph configurations
    excludes = True  # both default members honour `exclude` (sat, asp)
    declared = (
        Option("members", MEMBERS, "the two configurations run at once, first answer wins (presets or "
               "encodings joined by '+'; each gets half the CPU limit)", check=_members),
    )
    imports = ("pysat.solvers", "networkx", "clingo")  # what the default members import

    def solve(self, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        # the default members' encodings, named so that this encoding's fingerprint holds their code
        from . import asp, sat  # noqa: F401

        configs = self.options["members"].split("+")
        cores = sorted(os.sched_getaffinity(0))
        each = Limits(time_s=limits.time_s / 2, memory_mb=max(1, limits.memory_mb // 2))
        children: dict[int, tuple[int, str]] = {}  # read end -> (pid, member)
        for i, config in enumerate(configs):
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(read)
                _child(config, puzzle, each, seed, exclude, cores[i] if len(cores) > 1 else None, write)
            os.close(write)
            children[read] = (pid, config)
        return self._first(children, len(cores))

    def _first(self, children: dict[int, tuple[int, str]], cores: int) -> Outcome:
        """Read the members' answers as they come; the first decisive one wins, the other is killed."""
        data = {fd: b"" for fd in children}
        outcomes: dict[str, Outcome] = {}
        cpu: dict[str, float] = {}
        winner = None
        open_fds = set(children)
        try:
            while open_fds and winner is None:
                ready, _, _ = select.select(list(open_fds), [], [])
                for fd in ready:
                    chunk = os.read(fd, 1 << 16)
                    if chunk:
                        data[fd] += chunk
                        continue
                    open_fds.discard(fd)
                    pid, config = children[fd]
                    cpu[config] = _reap(pid)
                    outcomes[config] = pickle.loads(data[fd]) if data[fd] else Outcome(
                        UNKNOWN, stats={"reason": f"{config}: ended without an answer"})
                    if outcomes[config].status in (SAT, UNSAT) and winner is None:
                        winner = config
        finally:
            for fd in open_fds:  # the loser: killed, then reaped, so its CPU counts in the run's
                pid, config = children[fd]
                os.kill(pid, signal.SIGKILL)
                cpu[config] = _reap(pid)
                outcomes.setdefault(config, Outcome(UNKNOWN, stats={"reason": f"{config}: stopped, "
                                                                              "the other answered first"}))
            for fd in children:
                os.close(fd)
        chosen = outcomes[winner] if winner else Outcome(UNKNOWN, stats={
            "reason": "; ".join(str(o.stats.get("reason", o.status)) for o in outcomes.values())})
        chosen.stats.update({
            "portfolio_winner": winner or "", "portfolio_cores": cores,
            "portfolio_status": {c: o.status for c, o in outcomes.items()},
            "portfolio_cpu_s": {c: round(s, 6) for c, s in cpu.items()}})
        return chosen


def _reap(pid: int) -> float:
    """Wait for a child and give its CPU seconds (user and system): `cpu_time(children=True)` counts
    them in the run's from here on."""
    _, _, usage = os.wait4(pid, 0)
    return usage.ru_utime + usage.ru_stime
