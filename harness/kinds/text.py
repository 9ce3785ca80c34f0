"""What the kinds' plain-text readers share: numbered non-blank lines, numbers, rows of tokens."""

from __future__ import annotations

from collections.abc import Iterable

from harness.errors import InstanceError
from harness.kinds.bounds import number
from harness.kinds.contract import Lines


def size(token: str, what: str, source: str, line: int | None = None, least: int = 1) -> int:
    """A grid dimension (or a header count): a decimal number of at least `least`, at most the
    reading limit `count` (`bounds.number`)."""
    return number(token, what, source, line, least)


def nonblank_lines(text: str) -> Lines:
    return [(n, line.strip()) for n, line in enumerate(text.lstrip("\ufeff").splitlines(), 1) if line.strip()]


def row_tokens(lines: Iterable[tuple[int, str]], cols: int, source: str, what: str = "row") -> list[
        tuple[int, list[str]]]:
    """Each body line split into `cols` tokens (blank-separated, or one character each when unspaced)."""
    out = []
    for r, (n, line) in enumerate(lines):
        tokens = line.split()
        if len(tokens) == 1 and cols > 1:
            tokens = list(tokens[0])  # a row written without blanks
        if len(tokens) != cols:
            raise InstanceError(source, f"expected {cols} cells in {what} {r}, found {len(tokens)}", n)
        out.append((n, tokens))
    return out


def grid_rows(lines: Lines, rows: int, cols: int, source: str) -> list[tuple[int, list[str]]]:
    """A body of exactly `rows` lines of `cols` tokens each, as (line number, tokens) pairs."""
    if len(lines) < rows:
        raise InstanceError(source, f"expected {rows} rows of cells, found {len(lines)}",
                            lines[-1][0] if lines else 1)
    if len(lines) > rows:
        raise InstanceError(source, f"expected {rows} rows of cells, found more", lines[rows][0])
    return row_tokens(lines, cols, source)


def trailing_flag(lines: Lines, word: str) -> tuple[Lines, bool]:
    """The body without a last line that is only `word` (`full`), and whether it was there."""
    flagged = bool(lines) and lines[-1][1].lower() == word
    return (lines[:-1] if flagged else lines), flagged
