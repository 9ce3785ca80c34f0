"""Encoding options as declarations, and their resolution for an instance kind: where options are checked.

Each option of an encoding is an `Option` (type from its default, choices, one line of help, the kinds
it applies to, defaults per kind, what its values require or exclude); `resolve` turns what a user
gave into a run's options for a kind: defaults filled in (the kind's own first), every value checked,
and the options that do nothing on that kind left out (refused, or dropped with a note). The result
is the run key's options; `--describe` and docs/ENCODINGS.md's option tables are made from the same
declarations (`describe`, `markdown`). A plug-in encoding that sets only `defaults` and `choices`
gets declarations made from them (`declarations`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class Feature:
    """The instance kinds an option applies to, by what they have (`name` says it in help and docs)."""

    name: str
    test: Callable[[str], bool]

    def __call__(self, kind: str) -> bool:
        return self.test(kind)


@dataclass(frozen=True)
class Option:
    """One option: its value's type is its default's; strings from a command line are converted to it.

    `choices`: the values it takes (None: any of its type, `check` may refuse some); `kinds`: where it
    does something (None: every kind the encoding serves); `by_kind`: its default on some kinds, where
    another was measured better (the measurement named in `help` or beside the declaration);
    `requires` / `excludes`: for a value, the other options' values it needs, or cannot go with
    (`{"true": {"arcs": ("true", "asymmetry")}}`); `check`: the value's canonical form, raising
    ValueError for a value its type and choices cannot rule out; `idle`: where it does nothing though
    its kind applies, while other options hold some values.
    """

    name: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    kinds: Feature | None = None
    by_kind: Mapping[str, Any] = field(default_factory=dict)
    requires: Mapping[Any, Mapping[str, tuple[Any, ...]]] = field(default_factory=dict)
    excludes: Mapping[Any, Mapping[str, tuple[Any, ...]]] = field(default_factory=dict)
    check: Callable[[Any], Any] | None = None
    # where it does nothing although its kind applies: on the kinds of a Feature, while another option
    # holds one of these values (`cuts` on a graph under `join=merge`, which cuts the merged loops)
    idle: tuple[tuple[Feature, Mapping[str, tuple[Any, ...]]], ...] = ()

    def default_for(self, kind: str | None) -> Any:
        return self.by_kind.get(kind, self.default) if kind is not None else self.default

    def applies(self, kind: str | None) -> bool:
        return kind is None or self.kinds is None or self.kinds(kind)

    def read(self, value: Any) -> Any:
        """`value` in this option's type, checked against its choices and `check`; ValueError if it is not."""
        value = coerce(self.name, self.default, value)
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise ValueError(f"option {self.name}: {value!r} is not one of {allowed}")
        return self.check(value) if self.check is not None else value

    def idle_under(self, kind: str | None, options: Mapping[str, Any]) -> str:
        """Why this option does nothing on `kind` with these other options (`idle`), or ""."""
        for feature, others in self.idle if kind is not None else ():
            for other, values in others.items():
                if feature(kind) and options.get(other) in values:
                    return f"on {feature.name} with {other}={options[other]}"
        return ""


def amend(declared: tuple[Option, ...], drop: tuple[str, ...] = (), **changes: dict[str, Any]
          ) -> tuple[Option, ...]:
    """A subclass's declarations from its base's: some dropped, some with fields changed (`colour={...}`)."""
    unknown = (set(changes) | set(drop)) - {o.name for o in declared}
    if unknown:
        raise ValueError(f"amend: no option {', '.join(sorted(unknown))} to change")
    return tuple(replace(o, **changes.get(o.name, {})) for o in declared if o.name not in drop)


def by_kind(kind: str, values: Mapping[str, Any], declared: tuple[Option, ...]) -> tuple[Option, ...]:
    """`declared` with these options' defaults on `kind` (a configuration measured best there, given once)."""
    unknown = set(values) - {o.name for o in declared}
    if unknown:
        raise ValueError(f"by_kind: no option {', '.join(sorted(unknown))}")
    return tuple(replace(o, by_kind={**o.by_kind, kind: values[o.name]}) if o.name in values else o
                 for o in declared)


def declarations(cls: type) -> dict[str, Option]:
    """The encoding class's options by name: its own `declared` ones; for a class that sets `defaults`
    (and `choices`) instead, the older contract plug-ins keep, options made from them (a base's
    declaration of the same name kept, with the new default); otherwise its base's."""
    if "_declared_cache" in cls.__dict__:
        return cls.__dict__["_declared_cache"]
    if cls.__dict__.get("declared"):
        found = {o.name: o for o in cls.__dict__["declared"]}
    elif "defaults" in cls.__dict__ or "choices" in cls.__dict__:
        base = next((declarations(b) for b in cls.__mro__[1:] if hasattr(b, "defaults")), {})
        choices = getattr(cls, "choices", {})
        found = {}
        for k, v in getattr(cls, "defaults", {}).items():
            made = base.get(k) or Option(k, v)
            found[k] = replace(made, default=v, by_kind={},
                               choices=tuple(choices[k]) if k in choices else made.choices)
    else:
        found = next((declarations(b) for b in cls.__mro__[1:] if hasattr(b, "defaults")), {})
    cls._declared_cache = found
    return found


@dataclass(frozen=True)
class Resolved:
    """A run's options for one kind (what it is keyed and stored with) and the given ones left out."""

    options: dict[str, Any]
    dropped: tuple[str, ...] = ()  # `KEY=VALUE` given, doing nothing on the kind (left out, not keyed)


def resolve(cls: type, given: Mapping[str, Any], kind: str | None = None, strict: bool = True,
            base: Mapping[str, Any] | None = None, per_kind: bool = False) -> Resolved:
    """`given` options of encoding `cls` resolved for instances of `kind` (None: any kind, each
    option at its plain default; with `per_kind`, a record whose kinds are each resolved on their own,
    a clash with an option some kind sets otherwise is left to that kind's resolution): every option
    that applies to the kind, at its value given, else in `base` (a preset's), else its default there;
    the values converted and checked; each value's `requires` and `excludes` held (a default of the
    kind's own that breaks one with what was given gives way to its plain default: `proof=true` on a
    graph turns `sat`'s graph `fix=true` off); the
    options that do nothing beside the others (`idle`) left out.

    An option given that does not apply to the kind raises ValueError with `strict` (`harness.solve`),
    else is left out and named in `dropped` (a sweep, which says so); a `base` one is left out quietly.
    ValueError for an unknown option or a bad value, one line naming it.
    """
    declared = declarations(cls)
    name = getattr(cls, "name", cls.__name__)
    base = dict(base or {})
    unknown = (set(given) | set(base)) - set(declared)
    if unknown:
        known = ", ".join(sorted(declared)) or "none"
        raise ValueError(f"encoding {name!r} has no option {', '.join(sorted(unknown))} (options: {known})")
    options, dropped = {}, []

    def leave(key: str, why: str) -> None:
        if key in given:
            said = f"{key}={given[key]}"
            if strict:
                raise ValueError(f"encoding {name!r}: option {said} does nothing {why}")
            dropped.append(said)

    source = {}  # where each value came from: given, base, kind (a default of the kind's own) or plain
    for key, option in declared.items():
        if not option.applies(kind):
            leave(key, f"on {kind} instances (it applies to {option.kinds.name})")
            continue
        if key in given or key in base:
            options[key], source[key] = option.read(given[key] if key in given else base[key]), "given"
        else:
            options[key] = option.default_for(kind)
            source[key] = "kind" if options[key] != option.default else "plain"
    # a sweep's record for no kind: a default that some kind sets otherwise binds nothing, the clash is
    # checked on each kind (`sat:degree=free` needs the arcs that sat's graph defaults hold)
    tolerated = {k for k, o in declared.items()
                 if per_kind and kind is None and o.by_kind and source.get(k) == "plain"}
    while clash := _clash(declared, options, tolerated):
        # a default of the kind's own gives way to what was given: its plain default instead
        key, other = clash
        if source[other] == "kind":
            options[other], source[other] = declared[other].default, "plain"
        elif source[key] == "kind":
            options[key], source[key] = declared[key].default, "plain"
        else:
            raise ValueError(_said(declared, options, key, other))
    for key in [k for k in options if declared[k].idle_under(kind, options)]:
        leave(key, declared[key].idle_under(kind, options))
        del options[key]
    return Resolved(options, tuple(dropped))


def _clash(declared: dict[str, Option], options: dict[str, Any], tolerated: Collection[str] = ()
           ) -> tuple[str, str] | None:
    """The first (option, other option) whose values break the first one's `requires` or `excludes`
    (a pair with a `tolerated` option in it left alone)."""
    for key, value in options.items():
        if key in tolerated:
            continue
        for other, allowed in declared[key].requires.get(value, {}).items():
            if other in options and other not in tolerated and options[other] not in allowed:
                return key, other
        for other, refused in declared[key].excludes.get(value, {}).items():
            if other in options and other not in tolerated and options[other] in refused:
                return key, other
    return None


def _said(declared: dict[str, Option], options: dict[str, Any], key: str, other: str) -> str:
    value = options[key]
    if other in declared[key].requires.get(value, {}):
        wanted = " or ".join(f"{other}={v}" for v in declared[key].requires[value][other])
        return f"{key}={value} needs {wanted}, not {other}={options[other]}"
    return f"{key}={value} cannot be given with {other}={options[other]}"


def every_option(cls: type) -> dict[str, Any]:
    """Every declared option at its plain default: what an encoding object's code may read for any kind."""
    return {k: o.default for k, o in declarations(cls).items()}


def coerce(name: str, default: Any, value: Any) -> Any:
    """Options arrive as strings from the command line; give them the default's type."""
    if not isinstance(value, str) or isinstance(default, str) or default is None:
        return value
    if isinstance(default, bool):
        if value.lower() in ("1", "true", "yes", "on"):
            return True
        if value.lower() in ("0", "false", "no", "off"):
            return False
    else:
        try:
            return type(default)(value)
        except ValueError:
            pass
    kind = "a boolean" if isinstance(default, bool) else f"a {type(default).__name__}"
    raise ValueError(f"option {name}: {value!r} is not {kind}")


def _values(option: Option) -> str:
    if option.choices is not None:
        return "|".join(map(str, option.choices))
    return type(option.default).__name__ if option.default is not None else "any"


def _defaults(option: Option) -> str:
    own = ", ".join(f"{_shown(v)} on {k}" for k, v in option.by_kind.items())
    return _shown(option.default) + (f" ({own})" if own else "")


def _shown(value: Any) -> str:
    return '""' if value == "" else str(value)


def _rules(option: Option) -> str:
    def values(pairs: Mapping[str, tuple[Any, ...]], joint: str) -> str:
        return joint.join(f"{k}={'|'.join(map(str, a))}" for k, a in pairs.items())

    said = [f"{option.name}={v} needs {values(needs, ' and ')}" for v, needs in option.requires.items()]
    said += [f"{option.name}={v} not with {values(no, ' or ')}" for v, no in option.excludes.items()]
    said += [f"does nothing on {f.name} with {values(o, ' or ')}" for f, o in option.idle]
    return "; ".join(said)


def describe(cls: type) -> list[str]:
    """The encoding's options as `--describe` prints them: one line each, then the help indented."""
    lines = []
    for option in declarations(cls).values():
        where = f"; on {option.kinds.name} only" if option.kinds is not None else ""
        lines.append(f"  {option.name}={_values(option)}  (default {_defaults(option)}{where})")
        if option.help:
            lines.append(f"      {option.help}")
        if rules := _rules(option):
            lines.append(f"      {rules}")
    return lines or ["  (no options)"]


def markdown(cls: type) -> str:
    """The encoding's options as a docs/ENCODINGS.md table (made by `python -m harness.run --describe`'s
    declarations; tests/test_option_docs.py compares the committed page with it)."""
    rows = ["| option | values | default | applies to | what it does |", "|---|---|---|---|---|"]
    for o in declarations(cls).values():
        text = " ".join(filter(None, [o.help, _rules(o) and f"({_rules(o)})"]))
        cells = [f"`{o.name}`", f"`{_values(o)}`", f"`{_defaults(o)}`",
                 o.kinds.name if o.kinds is not None else "every kind it serves", text]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows) if len(rows) > 2 else "no options"
