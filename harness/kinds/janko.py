"""janko.at `begin … end` blocks: the container is shared, the grids' meaning is each kind's."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from harness.errors import InstanceError
from harness.kinds.bounds import grid_cells
from harness.kinds.registry import DEFAULT_KIND, get_for, kinds
from harness.kinds.text import Lines, size

_JANKO_END = re.compile(r"s*end")  # `send` and `ssend` are typos for `end` in real janko files
JANKO_GRIDS = ("problem", "solution")
SHAPE_KEYS = ("size", "rows", "cols")  # said once: a second one would redraw the grid


def janko_begin(lines: Sequence[str]) -> int | None:
    return next((i for i, line in enumerate(lines) if line.strip().lower() == "begin"), None)


def read_janko(text: str, source: str, kind: str | None = None) -> tuple[Any, str]:
    """The first block's puzzle and solution, read by the kind its `puzzle` key names (Masyu if none)."""
    props, _ = parse_janko(text, source)
    named = " ".join(props["puzzle"][1]).lower() if "puzzle" in props else DEFAULT_KIND
    if kind is None:
        found = [k for k in kinds().values() if named in k.janko_names]
        if not found:
            raise InstanceError(source, f"no reader for janko.at puzzle {named!r}", props["puzzle"][0])
        kind = found[0].name
    return get_for(kind, source).read_janko(text, source)


def parse_janko(text: str, source: str, names: tuple[str, ...] = (),
                label: str = "") -> tuple[dict[str, tuple[int, list[str]]], dict[str, Lines]]:
    """The first `begin … end` block: one-line properties and the grids (`problem`, `solution`).

    Unknown keys and stray lines are kept as properties or skipped (continued `moves`, an extra
    grid row, typoed keys), `send`/`ssend` end a block as `end` does, and a missing `end` is fine.
    Grid rows come back as (line number, the row's text); `problem` must be there. With `names`,
    a `puzzle` key naming anything else is an error: "not a `label` block".
    """
    raw = text.splitlines()
    begin = janko_begin(raw)
    if begin is None:
        raise InstanceError(source, "no `begin` line: not a janko.at block")
    lines = [(n, line.split()) for n, line in enumerate(raw[begin + 1:], begin + 2) if line.strip()]
    props: dict[str, tuple[int, list[str]]] = {}
    grids: dict[str, Lines] = {}
    i = 0
    while i < len(lines):
        n, words = lines[i]
        key = words[0].lower()
        i += 1
        if _JANKO_END.fullmatch(key):
            break
        if key in JANKO_GRIDS:
            rows, cols = _janko_shape(props, key, source, n)
            grids[key] = _janko_grid(lines[i:i + rows], key, rows, cols, source, n)
            i += rows
        else:
            if key in SHAPE_KEYS and key in props:
                raise InstanceError(source, f"a second `{key}` line (the first is line {props[key][0]})", n)
            props[key] = (n, words[1:])
    if "problem" not in grids:
        raise InstanceError(source, "the block has no `problem` grid", begin + 1)
    if names and "puzzle" in props and " ".join(props["puzzle"][1]).lower() not in names:
        n, words = props["puzzle"]
        raise InstanceError(source, f"not a {label} block: puzzle {' '.join(words)!r}", n)
    return props, grids


def _janko_shape(props: dict[str, tuple[int, list[str]]], key: str, source: str,
                 line: int) -> tuple[int, int]:
    """The grid's rows and columns from `size N` or `rows R` + `cols C`, which must come first."""
    def value(name: str) -> int:
        n, words = props[name]
        return size(words[0] if words else "", f"`{name}`", source, n)

    if "size" in props:
        shape = value("size"), value("size")
    elif "rows" in props and "cols" in props:
        shape = value("rows"), value("cols")
    else:
        raise InstanceError(source, f"`{key}` comes before `size` (or `rows` and `cols`)", line)
    grid_cells(*shape, source, line)
    return shape


def _janko_grid(lines: list[tuple[int, list[str]]], key: str, rows: int, cols: int, source: str,
                line: int) -> Lines:
    for r, (n, tokens) in enumerate(lines):
        if _JANKO_END.fullmatch(tokens[0].lower()) or tokens[0].lower() in JANKO_GRIDS:
            raise InstanceError(source, f"`{key}` has {r} rows, expected {rows}", n)
        if len(tokens) != cols:
            raise InstanceError(source, f"expected {cols} cells in row {r} of `{key}`, found {len(tokens)}",
                                n)
    if len(lines) < rows:
        raise InstanceError(source, f"`{key}` has {len(lines)} rows, expected {rows}",
                            lines[-1][0] if lines else line)
    return [(n, " ".join(tokens)) for n, tokens in lines]
