"""A run's limits as given on a command line, checked before anything runs: numbers a machine can mean.

`float("nan")` and `float("inf")` are floats argparse takes, and neither is a limit: a NaN CPU limit
turns every comparison with it false (the hang guard never fires), an infinite one cannot be set in
the kernel (RLIMIT_CPU takes whole seconds). A limit past MAX_SECONDS or MAX_MEMORY_MB is taken for
a typo (it would not fit the kernel's limits or the store's columns either). `refused` says why a
value is no limit, `warnings` what a valid combination will do that its user may not expect.
"""

from __future__ import annotations

import math

MAX_SECONDS = 366 * 24 * 3600  # a year of CPU or wall time for one run
MAX_MEMORY_MB = 1 << 30  # 1 PiB: past any machine's memory, and its bytes fit a 64-bit rlimit


def refused(flag: str, value: float | None, most: float) -> str:
    """Why `value` cannot be the limit `flag` ("" when it can): not a number, not finite, not positive or
    past `most` (MAX_SECONDS or MAX_MEMORY_MB); None (not given) is fine."""
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return f"{flag} must be a number, not nan"
    if isinstance(value, float) and math.isinf(value):
        return (f"{flag} must be finite, not {value:g} (a run without a limit is not measured; give the most "
                "it may take)")
    if value <= 0:
        return f"{flag} must be positive, not {value:g}"
    if value > most:
        return f"{flag} {value:g} is past the largest this harness takes, {most:g}: a typo?"
    return ""


def warnings(time_s: float, wall_s: float | None, check_time_s: float | None = None) -> list[str]:
    """What a wall cap below a CPU limit does: the run is stopped at the cap, as a timeout, before its
    CPU limit is reached (each part of a run has the cap from its own start: solve, check)."""
    out = []
    for flag, cpu in (("--time-limit", time_s), ("--check-time-limit", check_time_s)):
        if wall_s is not None and cpu is not None and wall_s < cpu:
            out.append(f"--wall-limit {wall_s:g} is below {flag} {cpu:g}: a part of a run still busy after "
                       f"{wall_s:g} s of wall time is stopped there, as a timeout, before its CPU limit")
    return out
