"""Each puzzle kind's rules for the solver backends: one module per kind, named as the kind.

A loop kind's module (masyu, slitherlink) gives the loop problem and its local rules once per
backend, for the loop strategies of `loopbench_encodings.loop`; a kind without a loop (walls,
marupeke) gives its whole model per backend. A strategy serves the kinds whose module has what
it needs (`kinds_with`); a kind's module names no strategy.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType


@cache
def of(kind: str) -> ModuleType | None:
    """The rules module of a puzzle kind, or None when no encoding knows its rules."""
    try:
        return importlib.import_module(f"{__name__}.{kind}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{kind}":
            raise  # a rules module that fails to import is a bug, not a missing kind
        return None


def kinds_with(*names: str) -> tuple[str, ...]:
    """The puzzle kinds whose rules module defines every one of `names` (a strategy's `puzzles`)."""
    from harness import kinds

    return tuple(k for k in kinds.names() if (m := of(k)) is not None and all(hasattr(m, n) for n in names))
