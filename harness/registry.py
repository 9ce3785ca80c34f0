"""Finds encodings: every module in encodings/ that defines an `Encoding` subclass is one, and every
encoding another installed package declares under the entry-point group `loopbench.encodings`."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import cache

from harness import plugins
from harness.encoding import Encoding

PACKAGE = "loopbench_encodings"  # the import name of the top-level encodings/ folder


@cache
def encodings() -> dict[str, type[Encoding]]:
    """All encoding classes by name, plug-ins' too; helper modules (names starting with `_`) are skipped."""
    package = importlib.import_module(PACKAGE)
    found: dict[str, type[Encoding]] = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_") or info.ispkg:  # helpers and sub-packages (loop machinery, rules)
            continue
        module = importlib.import_module(f"{PACKAGE}.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Encoding) and cls.__module__ == module.__name__:
                if cls.name in found:
                    raise RuntimeError(f"two encodings are named {cls.name!r}: {_where(found[cls.name])} "
                                       f"and {_where(cls)}")
                found[cls.name] = cls
    for name, cls, where in plugins.encodings():
        if name in found:
            raise RuntimeError(f"two encodings are named {name!r}: {_where(found[name])} and {where}")
        found[name] = cls
    return dict(sorted(found.items()))


def _where(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def names(puzzle_kind: str | None = None) -> list[str]:
    return [n for n, cls in encodings().items() if puzzle_kind is None or cls.serves(puzzle_kind)]


def imports(names: list[str]) -> list[str]:
    """The solver packages the named encodings declare (what a worker preloads for them)."""
    return sorted({module for name in names for module in encodings()[name].imports})


def create(name: str, **options) -> Encoding:
    """An encoding instance by name; unknown names raise ValueError listing the known ones."""
    try:
        cls = encodings()[name]
    except KeyError:
        raise ValueError(f"unknown encoding {name!r} (known: {', '.join(encodings())})") from None
    return cls(**options)
