"""A test-only encoding that returns a configured outcome, or misbehaves on purpose.

Model: none. It lets the runner, store and plots be tested with no solver (BenchExec's
tools/dummy.py). `status` and `solution` are returned as given; `behave` picks a fault:
`ok` (return at once), `sleep` (wait `seconds` of wall time, then return), `burn` (use
`seconds` of CPU time, then return), `hang` (sleep forever), `spin` (burn CPU forever),
`alloc` (allocate `megabytes` MB and return, or without bound if 0), `leak` (allocate
`megabytes` MB and keep them after returning, as a solver's caches or Python's arenas do),
`abort` (kill the process with SIGABRT), `exit` (end the process at once with exit code
`code`), `raise` (raise an exception), `clock` (burn CPU until the run's CPU clock runs out,
then say unknown, as an encoding that stops itself in time does), `rounds` (rounds of `seconds` of
CPU each, forever, reporting `iterations` after each (`Limits.report`) and never reading the clock,
as an encoding whose chunk runs past its limit). A comma-separated list
gives one behaviour per seed (seed i takes item i mod n), so one sweep can mix faults.
`again` (empty: the dummy cannot exclude a solution) is the behaviour of a solve asked to exclude
solutions (a uniqueness check), which then says unsat: one more solution there is none.
"""

from __future__ import annotations

import os
import time

from harness.encoding import UNKNOWN, UNSAT, Encoding, Limits, Outcome

LEAKED: list[bytearray] = []  # what `leak` keeps for the rest of the process


class Dummy(Encoding):
    name = "dummy"
    puzzles = None  # every puzzle kind
    defaults = {"status": "unknown", "solution": "", "behave": "ok", "seconds": 0.0, "code": 3,
                "megabytes": 0, "again": ""}

    def take(self, resolved: dict) -> None:
        super().take(resolved)
        self.excludes = bool(self.options["again"])  # this instance honours `exclude` if told how to behave

    def solve(self, puzzle, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        choices = self.options["again" if exclude else "behave"].split(",")
        behave = choices[seed % len(choices)].strip()
        if behave == "clock":
            clock = limits.clock()
            while not clock.expired():
                pass
            return Outcome(UNKNOWN, stats={"reason": f"time limit of {limits.time_s:g} s reached"})
        if behave == "sleep":
            time.sleep(self.options["seconds"])
        elif behave == "burn":
            end = time.process_time() + self.options["seconds"]
            while time.process_time() < end:
                pass
        elif behave == "hang":
            while True:
                time.sleep(60)
        elif behave == "rounds":
            rounds = 0
            while True:
                end = time.process_time() + self.options["seconds"]
                while time.process_time() < end:
                    pass
                rounds += 1
                limits.report({"iterations": rounds})
        elif behave == "spin":
            while True:
                pass
        elif behave == "alloc":
            hoard = []
            while not self.options["megabytes"] or len(hoard) * 16 < self.options["megabytes"]:
                hoard.append(bytearray(16 << 20))
                hoard[-1][::4096] = b"x" * len(hoard[-1][::4096])  # touch pages so RSS grows
        elif behave == "leak":
            LEAKED.append(bytearray(self.options["megabytes"] << 20))
            LEAKED[-1][::4096] = b"x" * len(LEAKED[-1][::4096])  # touch pages so RSS grows
        elif behave == "abort":
            os.abort()
        elif behave == "exit":
            os._exit(self.options["code"])  # no cleanup, no traceback: like a native library calling exit()
        elif behave == "raise":
            raise RuntimeError("dummy encoding told to raise")
        elif behave != "ok":
            raise ValueError(f"unknown behaviour {behave!r}")
        if exclude:
            return Outcome(UNSAT, stats={"iterations": 1})
        return Outcome(self.options["status"], self.options["solution"], {"iterations": 1})
