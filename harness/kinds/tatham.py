"""Simon Tatham's descriptive game ids (Pearl, Loopy) share one scheme: `a`..`z` are runs of plain cells."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def write_runs(cells: Iterable[T | None], letter: Callable[[T], str]) -> str:
    """Cells row-major as Tatham's generators write them: maximal runs, a run over 26 split at `z`."""
    desc, run = [], 0
    for cell in cells:
        if cell is None:
            run += 1
            continue
        desc += [_run_letters(run), letter(cell)]
        run = 0
    desc.append(_run_letters(run))
    return "".join(desc)


def read_runs(desc: str, clue: Callable[[str, int], T], most: int) -> list[T | None]:
    """The cells of a description: a letter `a`..`z` is that many plain cells (None), anything else
    is one cell read by `clue(character, position)`, which raises on a character it does not know.

    Reading stops once past `most` cells (the grid's), so a long description costs no more than
    the grid: the caller sees more cells than it has and says so.
    """
    cells: list[T | None] = []
    for i, ch in enumerate(desc):
        if len(cells) > most:
            break
        if "a" <= ch <= "z":
            cells += [None] * (ord(ch) - ord("a") + 1)
        else:
            cells.append(clue(ch, i))
    return cells


def _run_letters(run: int) -> str:
    full_z, rest = divmod(run, 26)
    return "z" * full_z + (chr(ord("a") + rest - 1) if rest else "")
