"""Finds encodings: every module in encodings/ that defines an `Encoding` subclass is one, and every
encoding another installed package declares under the entry-point group `loopbench.encodings`; reads
a configuration (`NAME[:KEY=VALUE...]`, NAME an encoding or a preset) as `Entry`."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import dataclass
from functools import cache

from harness import options as option_rules
from harness import plugins
from harness.encoding import Encoding
from harness.presets import PRESETS

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
    if clash := set(found) & set(PRESETS):
        raise RuntimeError(f"a preset has an encoding's name: {', '.join(sorted(clash))}")
    for name, cls, where in plugins.encodings():
        if name in found or name in PRESETS:
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
    """An encoding instance by name (an encoding, a preset or `NAME:KEY=VALUE...`), these options on top,
    resolved for no kind in particular (each at its plain default unless given); unknown names raise
    ValueError listing the known ones."""
    found = entry(name)
    if not found.preset and not found.given:
        return encodings()[found.encoding](**options)
    return create_for(name, None, extra=options)


@dataclass(frozen=True)
class Entry:
    """A configuration as a user writes one (`sat`, `sat:cuts=cutset`, `cegar-split`, `cegar-split:seed=3`):
    the encoding, the preset's options (`base`, {} for none) and the options given on top."""

    text: str
    encoding: str
    given: dict[str, str]
    base: dict[str, str]
    preset: str = ""  # the preset's name, or ""

    def resolve(self, kind: str | None = None, strict: bool = True, extra: dict[str, str] | None = None,
                per_kind: bool = False) -> option_rules.Resolved:
        """This configuration's options for instances of `kind` (`harness.options.resolve`, `per_kind`
        too); `extra`: options given beside it (the command line's `--option`), under the entry's own."""
        cls = encodings()[self.encoding]
        return option_rules.resolve(cls, {**(extra or {}), **self.given}, kind, strict, self.base, per_kind)


def entry(text: str) -> Entry:
    """`NAME[:KEY=VALUE...]` read, NAME an encoding or a preset (`harness.presets`); ValueError naming
    an unknown name or a malformed pair."""
    name, *pairs = text.strip().split(":")
    given = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"configuration {text!r}: {pair}: expected KEY=VALUE")
        given[key.strip()] = value.strip()
    if name in PRESETS:  # the same configuration on every kind: its options over the plain defaults
        preset = PRESETS[name]
        plain = option_rules.every_option(encodings()[preset.encoding])
        return Entry(text, preset.encoding, given, {**plain, **preset.options}, name)
    if name not in encodings():
        raise ValueError(f"unknown encoding {name!r} (known: {', '.join(encodings())}; presets: "
                         f"{', '.join(PRESETS)})")
    return Entry(text, name, given, {})


def create_for(text: str, kind: str | None, strict: bool = True, extra: dict | None = None) -> Encoding:
    """The encoding a configuration names (`extra` options on top), its options resolved for `kind` once
    (`Entry.resolve`)."""
    found = entry(text)
    found = Entry(found.text, found.encoding, {**found.given, **(extra or {})}, found.base, found.preset)
    return encodings()[found.encoding].made(found.resolve(kind, strict).options)
