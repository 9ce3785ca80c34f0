"""Bundles: a collection's instances as one gzipped TSV, a row per puzzle, written byte for byte the same.

A row holds `name rows cols puzzle solution` and metadata columns: `puzzle` is the kind's compact
one-line form (`Kind.write_compact`), `solution` the known solution string ("" when none).
"""

from __future__ import annotations

import gzip
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from harness import kinds

BASE_COLUMNS = ("name", "rows", "cols", "puzzle", "solution")

Row = dict[str, str]


@dataclass(frozen=True)
class Entry:
    """One imported puzzle: its stable name, the puzzle, the known solution ("" = none), metadata."""

    name: str
    puzzle: Any
    solution: str = ""
    meta: dict[str, str] = field(default_factory=dict)


def write_bundle(path: Path, entries: Iterable[Entry]) -> None:
    """Write entries (name, puzzle, solution, meta) as a bundle; byte-identical for the same entries."""
    entries = list(entries)
    extra = sorted({key for e in entries for key in e.meta})
    lines = ["\t".join(BASE_COLUMNS + tuple(extra))]
    for e in entries:
        compact = kinds.of(e.puzzle).write_compact(e.puzzle)
        values = [e.name, str(e.puzzle.rows), str(e.puzzle.cols), compact, e.solution]
        values += [e.meta.get(key, "") for key in extra]
        if any(ch in v for v in values for ch in "\t\n\r"):
            raise ValueError(f"{e.name}: a value holds a tab or a line break")
        lines.append("\t".join(values))
    path.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0 and no file name in the header, so that rebuilding an unchanged set changes no byte.
    with open(path, "wb") as raw, gzip.GzipFile("", "wb", 9, raw, mtime=0) as out:
        out.write(("\n".join(lines) + "\n").encode())


def read_bundle(path: Path) -> tuple[Row, ...]:
    """The rows of a bundle, each a dict keyed by column name."""
    stat = path.stat()  # part of the cache key, so that a rebuilt bundle is read again
    return _read_bundle(path, stat.st_mtime_ns, stat.st_size)


@cache
def _read_bundle(path: Path, mtime_ns: int, size: int) -> tuple[Row, ...]:
    with gzip.open(path, "rt") as handle:
        header, *lines = handle.read().splitlines()
    columns = header.split("\t")
    missing = set(BASE_COLUMNS) - set(columns)
    if missing:
        raise ValueError(f"{path}: bundle lacks the column(s) {', '.join(sorted(missing))}")
    out = []
    for n, line in enumerate(lines, 2):
        values = line.split("\t")
        if len(values) != len(columns):
            raise ValueError(f"{path}:{n}: {len(values)} values for {len(columns)} columns")
        out.append(dict(zip(columns, values, strict=True)))
    return tuple(out)


# --- merging and judging imported entries, for every kind's importer ------------------------------

def merge_names(entries: Iterable[Entry]) -> list[Entry]:
    """One entry per name: upstream repeats a record, once with a solution and once without."""
    out: dict[str, Entry] = {}
    for entry in entries:
        seen = out.get(entry.name)
        if seen is None:
            out[entry.name] = entry
        elif seen.puzzle != entry.puzzle or (seen.solution and entry.solution and
                                             seen.solution != entry.solution):
            raise ValueError(f"two different records are both named {entry.name}")
        elif entry.solution and not seen.solution:
            out[entry.name] = replace(seen, solution=entry.solution)
    return list(out.values())


def merge_contents(entries: Iterable[Entry]) -> list[Entry]:
    """One entry per puzzle: a repeat becomes an alias of the first, as run keys hash the content."""
    out: dict[Any, Entry] = {}
    aliases: dict[Any, list[str]] = {}
    for entry in entries:
        if entry.puzzle in out:
            aliases[entry.puzzle].append(entry.name)
            if entry.solution and not out[entry.puzzle].solution:
                out[entry.puzzle] = replace(out[entry.puzzle], solution=entry.solution)
        else:
            out[entry.puzzle] = entry
            aliases[entry.puzzle] = []
    return [replace(e, meta={**e.meta, "aliases": " ".join(aliases[p])}) for p, e in out.items()]


def judge_solutions(entries: Iterable[Entry]) -> list[Entry]:
    """Keep a known solution only if the checker accepts it; a rejected one is dropped and noted."""
    out = []
    for entry in entries:
        problems = kinds.check(entry.puzzle, entry.solution) if entry.solution else []
        if problems:
            note = f"stored solution dropped, the checker says: {problems[0]}"
            entry = replace(entry, solution="", meta={**entry.meta, "note": note})
        out.append(entry)
    return out


def attach_solutions(entries: Iterable[Entry], solved: Iterable[Entry], column: str) -> list[Entry]:
    """Give entries without a solution the one of an equal puzzle in `solved`, naming it in `column`."""
    known = {e.puzzle: e for e in solved if e.solution}
    out = []
    for entry in entries:
        twin = known.get(entry.puzzle)
        if twin and not entry.solution:
            entry = replace(entry, solution=twin.solution, meta={**entry.meta, column: twin.name})
        out.append(entry)
    return out
