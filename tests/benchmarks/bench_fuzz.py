"""The long fuzz campaign: every case of `tests.fuzzing` run with a large Hypothesis budget, and what it saw.

Run from the repository root: `python tests/benchmarks/bench_fuzz.py [--examples N] [--case NAME ...]
[--only CASE=N ...] [--hang S]` (default 5,000 generated inputs per case, every case; one core). Not
collected by pytest. The figures so far are printed after each case, so a run cut short still says
what it saw. Under the small reading limits of `tests.fuzzing.SMALL`, it prints the inputs tried, the
outcomes by reader and kind of error, the crashes (any exception but the one error of bad input,
each with its input), the inputs that took longer than `--hang` seconds (a hang past the limits)
and the process's peak memory (VmHWM). Exit 1 if there was a crash or a hang.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # `tests.fuzzing` from the repository root

from hypothesis import given, settings  # noqa: E402

from tests import fuzzing  # noqa: E402


def peak_mb() -> float:
    """The process's peak resident memory (VmHWM), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def campaign(case: str, examples: int, hang_s: float, slow: list[tuple[str, float, str]]) -> str:
    """Run one case; "" or the crash Hypothesis reported (after shrinking it)."""
    strategy, target = fuzzing.CASES[case]

    def timed(value: object) -> None:
        start = time.perf_counter()
        try:
            target(value)
        finally:
            took = time.perf_counter() - start
            if took > hang_s:
                slow.append((case, took, repr(value)[:200]))

    run = settings(settings.get_profile("loopbench-fuzz"), max_examples=examples)(given(strategy)(timed))
    try:
        run()
    except Exception as exc:  # the crash, shrunk; its first sighting is in fuzzing.TALLY.crashes too
        return f"{type(exc).__name__}: {str(exc)[:300]}"
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=5000, help="inputs per case (default %(default)d)")
    parser.add_argument("--case", action="append", choices=sorted(fuzzing.CASES),
                        help="run only this case (repeatable; default every case)")
    parser.add_argument("--only", action="append", default=[], metavar="CASE=N",
                        help="this many inputs for this case instead (repeatable)")
    parser.add_argument("--hang", type=float, default=5.0, metavar="S",
                        help="an input that takes longer than this is a hang (default %(default)g s)")
    args = parser.parse_args(argv)
    os.environ.update(fuzzing.SMALL)
    cases = args.case or sorted(fuzzing.CASES)
    budget = {case: int(n) for case, _, n in (item.partition("=") for item in args.only)}
    start = time.perf_counter()
    slow: list[tuple[str, float, str]] = []
    failed = {}
    for done, case in enumerate(cases, 1):
        before, at = fuzzing.TALLY.tried, time.perf_counter()
        failed[case] = campaign(case, budget.get(case, args.examples), args.hang, slow)
        print(f"{case}: {fuzzing.TALLY.tried - before:,} inputs in {time.perf_counter() - at:.0f} s"
              f"{'  CRASH ' + failed[case] if failed[case] else ''}", flush=True)
        summary(done, cases, time.perf_counter() - start, slow, args.hang, brief=done < len(cases))
    return 1 if fuzzing.TALLY.crashes or slow or any(failed.values()) else 0


def summary(done: int, cases: list[str], seconds: float, slow: list[tuple[str, float, str]], hang_s: float,
            brief: bool) -> None:
    """The figures so far; in full (every outcome, every crash's input) after the last case."""
    tally = fuzzing.TALLY
    print(f"{'  so far: ' if brief else chr(10) + 'inputs tried: '}{tally.tried:,} in {seconds:.0f} s, "
          f"{done}/{len(cases)} cases, crashes {len(tally.crashes)}, hangs {len(slow)}, "
          f"peak memory {peak_mb():.0f} MB", flush=True)
    if brief:
        return
    print(f"limits: {', '.join(f'{k}={v}' for k, v in fuzzing.SMALL.items())}")
    print("outcomes by reader and kind of error:")
    for key, n in sorted(tally.outcomes.items(), key=lambda kv: (kv[0].split(":")[0], -kv[1])):
        print(f"  {n:>7,}  {key}")
    kinds = Counter(c[1].split(":")[0] for c in tally.crashes)
    print(f"crashes (tracebacks): {len(tally.crashes)}" + (f" {dict(kinds)}" if kinds else ""))
    for case, what, given_input in tally.crashes[:20]:
        print(f"  {case}: {what}\n    input {given_input}")
    print(f"hangs past {hang_s:g} s: {len(slow)}")
    for case, took, given_input in slow[:20]:
        print(f"  {case}: {took:.1f} s on {given_input}")
    print(f"peak memory (VmHWM): {peak_mb():.0f} MB")


if __name__ == "__main__":
    raise SystemExit(main())
