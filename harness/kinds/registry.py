"""The kind registry: every kind by name, the project's folders and plug-ins alike, each checked."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from functools import cache
from typing import Any

from harness import plugins
from harness.errors import InstanceError
from harness.kinds.contract import Kind, require

DEFAULT_KIND = "masyu"  # a first line of only `ROWS COLS` is Masyu (the public Java solver's files)


@cache
def kinds() -> dict[str, Kind]:
    """Every kind by name: each sub-package of harness.kinds with a KIND, and the plug-ins' kinds
    (entry-point group `loopbench.kinds`, `harness.plugins`)."""
    found: dict[str, tuple[Kind, str]] = {}
    for info in pkgutil.iter_modules(sys.modules[__package__].__path__):
        if not info.ispkg:
            continue
        where = f"{__package__}.{info.name}"
        kind = getattr(importlib.import_module(where), "KIND", None)
        if kind is None:
            raise TypeError(f"puzzle kind {where} defines no KIND (an instance of its Kind subclass)")
        require(kind, where)
        if kind.name in found:
            raise RuntimeError(f"two puzzle kinds are named {kind.name!r}")
        found[kind.name] = kind, where
    for name, entry, where in plugins.loaded(plugins.KINDS):
        kind = plugged(name, entry, where)
        require(kind, where)
        if name in found:
            raise RuntimeError(f"two puzzle kinds are named {name!r}: {found[name][1]} and {where}")
        found[name] = kind, where
    return {name: kind for name, (kind, _) in sorted(found.items())}


def plugged(name: str, entry: Any, where: str) -> Kind:
    """What a plug-in's entry point names, as a Kind: a Kind subclass (checked before one is made) or an
    instance of one, whose `name` is the entry point's."""
    if isinstance(entry, type) and issubclass(entry, Kind):
        require(entry, where)  # before making one: say everything it lacks, by name
        entry = entry()
    if not isinstance(entry, Kind):
        raise RuntimeError(f"{where} is not a puzzle kind (a harness.kinds.Kind subclass)")
    if entry.name != name:
        raise RuntimeError(f"{where}: the kind's name is {entry.name!r}, not {name!r}")
    return entry


def names() -> list[str]:
    return list(kinds())


def get(name: str) -> Kind:
    """The kind called `name`; ValueError listing the known ones otherwise."""
    try:
        return kinds()[name]
    except KeyError:
        raise ValueError(f"unknown puzzle kind {name!r} (known: {', '.join(kinds())})") from None


def of(puzzle: Any) -> Kind:
    return get(puzzle.kind)


def check(puzzle: Any, solution: str) -> list[str]:
    """The independent checker's violations for `solution` (empty list: correct)."""
    return of(puzzle).check(puzzle, solution)


def write_text(puzzle: Any) -> str:
    return of(puzzle).write_text(puzzle)


def known_word(puzzle: Any, answer: str) -> str:
    """A known answer ("sat"/"unsat") in the kind's own word (`hamiltonian`), else as it is."""
    return next((word for word, value in of(puzzle).known_answers.items() if value == answer), answer)


def get_for(kind: str, source: str) -> Kind:
    """The kind called `kind`, or an InstanceError naming `source` (a file that names no known kind)."""
    try:
        return get(kind)
    except ValueError as exc:
        raise InstanceError(source, str(exc)) from None
