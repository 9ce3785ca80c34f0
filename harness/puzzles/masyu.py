"""The Masyu puzzle: pearls on a grid, and the solution string of FORMATS.md (Tatham's hex digits)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from harness.grid import Cell, Direction, Edge, Grid, edge

KIND = "masyu"
HEX_DIGITS = set("0123456789abcdef/")


class Pearl(Enum):
    WHITE = "w"  # the loop goes straight through, and turns in at least one neighbour
    BLACK = "b"  # the loop turns here, and goes straight through both neighbours it uses


@dataclass(frozen=True)
class Masyu:
    """A Masyu instance: the grid and its pearls. `full` = the loop must visit every cell."""

    grid: Grid
    pearls: Mapping[Cell, Pearl] = field(default_factory=dict)
    full: bool = False
    kind: str = field(default=KIND, init=False)

    def __post_init__(self) -> None:
        for cell in self.pearls:
            if not self.grid.contains(cell):
                raise ValueError(f"pearl at {cell} lies outside the {self.rows}x{self.cols} grid")
        object.__setattr__(self, "pearls", MappingProxyType(dict(sorted(self.pearls.items()))))

    @property
    def rows(self) -> int:
        return self.grid.rows

    @property
    def cols(self) -> int:
        return self.grid.cols

    def __hash__(self) -> int:
        return hash((self.grid, tuple(self.pearls.items()), self.full))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Masyu)
            and (self.grid, dict(self.pearls), self.full)
            == (other.grid, dict(other.pearls), other.full)
        )

    def canonical_text(self) -> str:
        """The plain-text form (FORMATS.md), used as the puzzle's identity in run keys."""
        lines = [f"{self.rows} {self.cols}"]
        for r in range(self.rows):
            lines.append(" ".join(self._token((r, c)) for c in range(self.cols)))
        if self.full:
            lines.append("full")
        return "\n".join(lines) + "\n"

    def _token(self, cell: Cell) -> str:
        pearl = self.pearls.get(cell)
        return pearl.value if pearl else "-"


def solution_string(grid: Grid, loop_edges: Iterable[Edge]) -> str:
    """Encode a set of edges as one hex digit per cell (right 1, up 2, left 4, down 8)."""
    bits = {cell: 0 for cell in grid.cells}
    for a, b in loop_edges:
        a, b = edge(a, b)
        if b == (a[0], a[1] + 1):
            bits[a] |= Direction.RIGHT
            bits[b] |= Direction.LEFT
        elif b == (a[0] + 1, a[1]):
            bits[a] |= Direction.DOWN
            bits[b] |= Direction.UP
        else:
            raise ValueError(f"{a} and {b} are not neighbours")
    return "/".join(
        "".join(format(bits[(r, c)], "x") for c in range(grid.cols)) for r in range(grid.rows)
    )


def parse_solution(grid: Grid, text: str) -> dict[Cell, int]:
    """Decode a solution string into each cell's direction bits; raises ValueError on bad shape."""
    rows = text.split("/")
    if len(rows) != grid.rows or any(len(row) != grid.cols for row in rows):
        raise ValueError(f"solution shape does not match a {grid.rows}x{grid.cols} grid")
    bad = set(text) - HEX_DIGITS
    if bad:  # int(ch, 16) alone would take "C" and non-ASCII digits: the format is lower-case hex
        raise ValueError(f"solution holds {''.join(sorted(bad))!r}, not lower-case hex digits")
    return {(r, c): int(ch, 16) for r, row in enumerate(rows) for c, ch in enumerate(row)}


def solution_edges(grid: Grid, text: str) -> set[Edge]:
    """The edges a solution string names (each edge named from either end counts once)."""
    out = set()
    for cell, bits in parse_solution(grid, text).items():
        for d in Direction:
            nxt = grid.step(cell, d)
            if bits & d and nxt is not None:
                out.add(edge(cell, nxt))
    return out
