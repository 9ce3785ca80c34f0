"""The long fuzz campaign: every case of `tests.fuzzing` run with a large Hypothesis budget, and what it saw.

Run from the repository root: `python tests/benchmarks/bench_fuzz.py [--examples N] [--case NAME ...]
[--only CASE=N ...] [--hang S] [--csv FILE]` (default 5,000 generated inputs per case, every case; one
core). Not collected by pytest. `--csv` also writes the figures per case (and an `all` row) to FILE,
the table results/fuzz/README.md shows; `--from-output TXT --csv FILE` makes that file from a run's
recorded output instead of running. The figures so far are printed after each case, so a run cut
short still says what it saw. Under the small reading limits of `tests.fuzzing.SMALL`, it prints the
inputs tried, the outcomes by reader and kind of error, the crashes (any exception but the one error
of bad input, each with its input), the inputs that took longer than `--hang` seconds (a hang past the
limits) and the process's peak memory (VmHWM). Exit 1 if there was a crash or a hang.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
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
    parser.add_argument("--csv", type=Path, metavar="FILE", help="also write the figures per case here")
    parser.add_argument("--from-output", type=Path, metavar="TXT",
                        help="run nothing: write --csv from this recorded output of a run")
    args = parser.parse_args(argv)
    if args.from_output:
        if not args.csv:
            parser.error("--from-output needs --csv")
        write_csv(args.csv, rows_from_output(args.from_output))
        return 0
    os.environ.update(fuzzing.SMALL)
    cases = args.case or sorted(fuzzing.CASES)
    budget = {case: int(n) for case, _, n in (item.partition("=") for item in args.only)}
    start = time.perf_counter()
    slow: list[tuple[str, float, str]] = []
    failed = {}
    rows = []
    for done, case in enumerate(cases, 1):
        before, at = fuzzing.TALLY.tried, time.perf_counter()
        crashes, hangs = len(fuzzing.TALLY.crashes), len(slow)
        failed[case] = campaign(case, budget.get(case, args.examples), args.hang, slow)
        print(f"{case}: {fuzzing.TALLY.tried - before:,} inputs in {time.perf_counter() - at:.0f} s"
              f"{'  CRASH ' + failed[case] if failed[case] else ''}", flush=True)
        rows.append(row(case, fuzzing.TALLY.tried - before, time.perf_counter() - at,
                        len(fuzzing.TALLY.crashes) - crashes, len(slow) - hangs, peak_mb()))
        summary(done, cases, time.perf_counter() - start, slow, args.hang, brief=done < len(cases))
        if args.csv:  # after every case, so a run cut short leaves its figures so far
            write_csv(args.csv, [*rows, row("all", fuzzing.TALLY.tried, time.perf_counter() - start,
                                            len(fuzzing.TALLY.crashes), len(slow), peak_mb())])
    return 1 if fuzzing.TALLY.crashes or slow or any(failed.values()) else 0


COLUMNS = ("case", "inputs", "seconds", "crashes", "hangs", "peak_mb")


def row(case: str, inputs: int, seconds: float, crashes: int, hangs: int, peak: float) -> dict[str, str]:
    """One line of the CSV, rounded as the printed output rounds it (peak_mb: the process's so far)."""
    cells = (case, str(inputs), f"{seconds:.0f}", str(crashes), str(hangs), f"{peak:.0f}")
    return dict(zip(COLUMNS, cells, strict=True))


def write_csv(path: Path, rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


_CASE = re.compile(r"^(?P<case>[\w-]+): (?P<inputs>[\d,]+) inputs in (?P<s>\d+) s")
_SO_FAR = re.compile(r"^(?:  so far: |inputs tried: )(?P<inputs>[\d,]+) in (?P<s>\d+) s, \d+/\d+ cases, "
                     r"crashes (?P<crashes>\d+), hangs (?P<hangs>\d+), peak memory (?P<peak>\d+) MB")


def rows_from_output(path: Path) -> list[dict[str, str]]:
    """The CSV's rows from a run's printed output: each case's line, then the running totals after it."""
    rows, case, crashes, hangs = [], None, 0, 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if (m := _CASE.match(line)) and case is None:
            case = m
        elif (m := _SO_FAR.match(line)) and case is not None:
            total = line.startswith("inputs tried")
            rows.append(row(case["case"], int(case["inputs"].replace(",", "")), int(case["s"]),
                            int(m["crashes"]) - crashes, int(m["hangs"]) - hangs, int(m["peak"])))
            crashes, hangs, case = int(m["crashes"]), int(m["hangs"]), None
            if total:
                rows.append(row("all", int(m["inputs"].replace(",", "")), int(m["s"]), crashes, hangs,
                                int(m["peak"])))
                return rows
    raise SystemExit(f"{path}: no closing 'inputs tried:' line: not a whole run's output")


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
