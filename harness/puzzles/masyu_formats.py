"""Masyu readers and writers: plain text (read/write); more formats arrive in this module."""

from __future__ import annotations

from harness.errors import InstanceError
from harness.grid import Grid
from harness.puzzles.masyu import Masyu, Pearl

# Plain-text tokens (FORMATS.md): the janko-java files also use 1/2 for white/black.
TEXT_TOKENS = {"-": None, ".": None, "w": Pearl.WHITE, "b": Pearl.BLACK, "1": Pearl.WHITE,
               "2": Pearl.BLACK}


def read_text(text: str, source: str = "<text>") -> Masyu:
    """Parse the plain-text format: `ROWS COLS`, then one line of tokens per row."""
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise InstanceError(source, "empty file: expected a `ROWS COLS` line", 1)
    n, header = lines[0]
    parts = header.split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise InstanceError(source, f"expected `ROWS COLS`, found {header!r}", n)
    rows, cols = int(parts[0]), int(parts[1])
    if rows < 1 or cols < 1:
        raise InstanceError(source, f"grid size must be positive, found {rows}x{cols}", n)
    body = lines[1:]
    full = bool(body) and body[-1][1].lower() == "full"
    if full:
        body = body[:-1]
    if len(body) != rows:
        last = body[-1][0] if body else n
        raise InstanceError(source, f"expected {rows} rows of cells, found {len(body)}", last)
    pearls = {}
    for r, (n, line) in enumerate(body):
        tokens = line.split() if " " in line or "\t" in line else list(line)
        if len(tokens) != cols:
            raise InstanceError(source, f"expected {cols} cells in row {r}, found {len(tokens)}", n)
        for c, token in enumerate(tokens):
            try:
                pearl = TEXT_TOKENS[token.lower()]
            except KeyError:
                raise InstanceError(source, f"unknown token {token!r} in row {r}", n) from None
            if pearl:
                pearls[(r, c)] = pearl
    return Masyu(Grid(rows, cols), pearls, full=full)


def write_text(puzzle: Masyu) -> str:
    return puzzle.canonical_text()
