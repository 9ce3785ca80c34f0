"""Plug-ins: encodings and puzzle kinds from other installed packages, declared as entry points.

A package declares `NAME = "module:Class"` under the group `loopbench.encodings` (an `Encoding`
subclass whose `name` is NAME) or `loopbench.kinds` (a `Kind` subclass, or an instance of one,
whose `name` is NAME). The registries (`harness.registry`, `harness.kinds.kinds`) load them here
and add them to the project's own; a name taken twice is an error naming both. This module
imports neither registry. The contract is docs/PLUGINS.md.
"""

from __future__ import annotations

from functools import cache
from importlib import metadata
from typing import Any

ENCODINGS, KINDS = "loopbench.encodings", "loopbench.kinds"


def _entries(group: str) -> list[metadata.EntryPoint]:
    return sorted(metadata.entry_points(group=group), key=lambda e: (e.name, e.value))


def where(entry: metadata.EntryPoint) -> str:
    """How an error names a plug-in: its line in the entry points, and the distribution declaring it."""
    dist = getattr(entry, "dist", None)
    return f"plug-in `{entry.name} = {entry.value}` ({dist.name if dist else 'unknown'} {entry.group})"


def _load(entry: metadata.EntryPoint) -> Any:
    if ":" not in entry.value:
        raise RuntimeError(f"{where(entry)}: expected `module:Class`")
    try:
        return entry.load()
    except Exception as exc:  # any import error of someone else's package: say whose
        raise RuntimeError(f"{where(entry)} does not load: {exc!r}") from exc


def loaded(group: str) -> list[tuple[str, Any, str]]:
    """Each entry point of `group` as (name, the object it names, where), in name order. What the
    object must be is the registry's to say: `harness.registry` for encodings, `harness.kinds` for kinds."""
    return [(entry.name, _load(entry), where(entry)) for entry in _entries(group)]


def encodings() -> list[tuple[str, type, str]]:
    """Each plug-in encoding as (name, class, where), loaded and checked against the contract's basics."""
    from harness.encoding import Encoding

    out = []
    for entry in _entries(ENCODINGS):
        cls = _load(entry)
        if not (isinstance(cls, type) and issubclass(cls, Encoding)):
            raise RuntimeError(f"{where(entry)} is not an Encoding subclass (harness.encoding.Encoding)")
        if getattr(cls, "name", None) != entry.name:
            raise RuntimeError(f"{where(entry)}: the class's name is {getattr(cls, 'name', None)!r}, "
                               f"not {entry.name!r}")
        out.append((entry.name, cls, where(entry)))
    return out


@cache
def packages() -> tuple[str, ...]:
    """The top-level import names of every plug-in's module: fingerprints hash their code as the project's."""
    modules = {e.value.partition(":")[0] for group in (ENCODINGS, KINDS) for e in _entries(group)}
    return tuple(sorted({module.split(".")[0] for module in modules}))
