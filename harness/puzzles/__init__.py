"""The puzzle kinds the harness knows, and the two things every kind offers: reading and checking."""

from __future__ import annotations

from typing import Any

from harness.puzzles import masyu_check

KINDS = ("masyu",)


def check(puzzle: Any, solution: str) -> list[str]:
    """The independent checker's violations for `solution` (empty list: correct)."""
    checkers = {"masyu": masyu_check.check}
    return checkers[puzzle.kind](puzzle, solution)
