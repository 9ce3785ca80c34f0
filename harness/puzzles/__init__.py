"""The puzzle kinds the harness knows, and the two things every kind offers: reading and checking."""

from __future__ import annotations

from typing import Any

from harness.puzzles import masyu_check, masyu_formats

# kind -> (reader of the plain-text form that `canonical_text()` writes, independent checker)
KIND_TABLE = {"masyu": (masyu_formats.read_text, masyu_check.check)}
KINDS = tuple(KIND_TABLE)


def read_text(kind: str, text: str, source: str) -> Any:
    """A puzzle of `kind` from its plain-text form; raises InstanceError naming `source`."""
    if kind not in KIND_TABLE:
        raise ValueError(f"unknown puzzle kind {kind!r} (known: {', '.join(KINDS)})")
    return KIND_TABLE[kind][0](text, source)


def check(puzzle: Any, solution: str) -> list[str]:
    """The independent checker's violations for `solution` (empty list: correct)."""
    return KIND_TABLE[puzzle.kind][1](puzzle, solution)
