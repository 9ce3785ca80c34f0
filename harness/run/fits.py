"""What the store can hold: SQLite's INTEGER is signed 64-bit, so every whole number of a run is
checked where the run is planned, and again where its row is made, never left to the insert.

A run that cannot be stored becomes an `error` row naming the column and the value (the value
itself left out, so the row can be stored), and the sweep goes on; the same command resumes.
"""

from __future__ import annotations

import argparse
from typing import Any

from harness.outcomes import Status

LOW, HIGH = -(1 << 63), (1 << 63) - 1


def fits(value: Any) -> bool:
    """Whether a value is no whole number, or one SQLite's INTEGER holds (bool is a whole number too)."""
    return not isinstance(value, int) or LOW <= value <= HIGH


def whole(text: str) -> int:
    """An argparse type: a whole number the store can hold (`--seed`), or the reason it is refused."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text[:40]!r}") from None
    if not fits(value):
        raise argparse.ArgumentTypeError(f"{text[:40]} does not fit the results database's signed 64-bit "
                                         f"INTEGER ({LOW}..{HIGH})")
    return value


def unfit(row: dict[str, Any]) -> list[str]:
    """The columns of a row whose whole numbers the store cannot hold."""
    return [k for k, v in row.items() if not fits(v)]


def storable(row: dict[str, Any]) -> dict[str, Any]:
    """The row itself when it fits; else an `error` row, each unfit column emptied and named in `detail`."""
    bad = unfit(row)
    if not bad:
        return row
    said = ", ".join(f"{k} {_brief(row[k])}" for k in bad)
    detail = f"cannot be stored: {said} does not fit the results database's signed 64-bit INTEGER"
    return {**row, **dict.fromkeys(bad), "status": Status.ERROR, "detail": detail, "verified": None}


def _brief(value: int) -> str:
    """A whole number as its first digits (str() of one of over 4,300 digits raises)."""
    if value.bit_length() > 1000:
        return f"(a number of {value.bit_length():,} bits)"
    text = str(value)
    return text if len(text) <= 24 else f"{text[:24]}... ({len(text)} digits)"


def planned(spec: dict[str, Any]) -> dict[str, Any]:
    """A run's spec as planned; one whose identity (seed, sizes) the store cannot hold becomes a run
    the coordinator records as an `error` without starting it (its `text` None, its `error` why)."""
    row = storable(spec["identity"])
    if row is spec["identity"]:
        return spec
    return {**spec, "text": None, "error": row["detail"]}
