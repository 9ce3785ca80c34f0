"""A run's configuration label: a preset's name (`cegar-split`) where its options are a preset's, else the
encoding and the options that tell its runs apart (`sat[cuts=cutset]`), or alone the nearest name and how
the run differs from it (`cegar-split[smallcuts=true]`)."""

from __future__ import annotations

import json
from functools import cache

import pandas as pd


def with_config(runs: pd.DataFrame) -> pd.DataFrame:
    """Add `config`: the preset's name for a run whose options on its kind are a preset's (`preset_of`);
    else the encoding's name, plus the options that vary between its other runs (`sat[cuts=cutset]`);
    a lone such configuration of an encoding is named by `nearest` (the encoding's name alone would say
    its defaults).

    Runs store every option, defaults included, so only the ones that tell two configurations of
    one encoding apart make it into the label. Runs that already carry `config` keep it: a subset
    labelled as part of the whole keeps the whole's labels (`harness.compare --set`).
    """
    if "config" in runs:
        return runs
    encodings = [str(e) for e in runs["encoding"]]
    # an option older rows lack (it came later) is labelled as its default, which those runs had
    base = {e: defaults(e) for e in set(encodings)}
    options = [{**base[e], **_options(o)} for e, o in zip(encodings, runs["options"], strict=True)]
    kinds = [str(k) if isinstance(k, str) else None for k in runs["puzzle"]] if "puzzle" in runs \
        else [None] * len(runs)
    labels = list(encodings)
    named = {}  # a run whose options are a preset's on its kind is labelled with the preset's name
    for i, (e, k) in enumerate(zip(encodings, kinds, strict=True)):
        key = (e, k, json.dumps(options[i], sort_keys=True, default=str))
        if key not in named:
            named[key] = preset_of(e, k, options[i])
        if named[key]:
            labels[i] = named[key]
    for encoding in set(encodings):
        mine = [i for i, e in enumerate(encodings) if e == encoding and labels[i] == e]
        keys = sorted({k for i in mine for k in options[i]})
        varying = [k for k in keys if len({json.dumps(options[i].get(k), sort_keys=True) for i in mine}) > 1]
        for i in mine if varying else ():
            labels[i] = f"{encoding}[{','.join(f'{k}={options[i].get(k)}' for k in varying)}]"
        near: dict[tuple, str] = {}  # one search per (kind, options), as `named` above
        for i in () if varying else mine:
            # alone, a run that is not what the encoding's name resolves to on its kind says how it
            # differs from the nearest name that is (a bare name would say "the defaults")
            key = (kinds[i], json.dumps(options[i], sort_keys=True, default=str))
            if key not in near:
                near[key] = nearest(encoding, kinds[i], options[i])
            labels[i] = near[key]
    if "fingerprint" in runs:  # runs of several code versions (--all-fingerprints): tell them apart
        harness = runs["harness_fingerprint"] if "harness_fingerprint" in runs else [None] * len(runs)
        code = [("old" if pd.isna(f) else str(f)[:8]) + ("" if pd.isna(h) else f"+{str(h)[:6]}")
                for f, h in zip(runs["fingerprint"], harness, strict=True)]
        for label in set(labels):
            mine = [i for i, x in enumerate(labels) if x == label]
            if len({code[i] for i in mine}) > 1:
                for i in mine:
                    labels[i] = f"{label}@{code[i]}"
    return runs.assign(config=labels)


def nearest(encoding: str, kind: str | None, options: dict) -> str:
    """A run of `encoding` on `kind` named by the encoding or the preset of it whose options there differ
    from the run's in the fewest (the encoding first, then the presets in order), with those options:
    `sat`, `sat-plain[cuts=cutset]`, `cegar-split[smallcuts=true]`."""
    from harness.presets import PRESETS

    best = (encoding, _differing(encoding, kind, options))
    for name, preset in PRESETS.items():
        if preset.encoding == encoding and best[1]:
            differing = _differing(name, kind, options)
            if len(differing) < len(best[1]):
                best = (name, differing)
    name, differing = best
    return f"{name}[{','.join(f'{k}={options.get(k)}' for k in differing)}]" if differing else name


def _differing(entry: str, kind: str | None, options: dict) -> list[str]:
    """The options of a run that differ from what `entry` (an encoding or a preset) resolves to on `kind`
    (options that do nothing there aside)."""
    wanted = _resolved(entry, kind)
    return [k for k, v in wanted or () if k in options and str(options[k]) != str(v)]


def _options(text: object) -> dict:
    try:
        value = json.loads(text) if isinstance(text, str) and text else {}
    except json.JSONDecodeError:
        value = {}
    return value if isinstance(value, dict) else {}


def preset_of(encoding: str, kind: str | None, options: dict) -> str:
    """The first preset (`harness.presets`) whose options, resolved for `kind`, a run of `encoding` with
    these `options` has (options that do nothing on the kind aside), or ""."""
    from harness import registry
    from harness.presets import PRESETS

    for name, preset in PRESETS.items():
        if preset.encoding != encoding or encoding not in registry.encodings():
            continue
        wanted = _resolved(name, kind)
        if wanted is None or wanted == _resolved(encoding, kind) == _resolved("", kind, encoding):
            continue  # the encoding's own plain defaults on this kind are its name's (`sat-plain` on Masyu)
        if all(str(options.get(k)) == str(v) for k, v in wanted):
            return name
    return ""


@cache
def _resolved(entry: str, kind: str | None, plain: str = "") -> tuple | None:
    """The options `entry` resolves to on `kind`; with `plain`, that encoding's plain defaults there."""
    from harness import registry
    from harness.options import every_option

    try:
        if plain:
            base = every_option(registry.encodings()[plain])
            return tuple(registry.Entry(plain, plain, {}, base).resolve(kind, strict=False).options.items())
        return tuple(registry.entry(entry).resolve(kind, strict=False).options.items())
    except ValueError:  # a kind this code does not know
        return None


def defaults(encoding: str) -> dict:
    """The encoding's current default options ({} for an encoding this code does not have)."""
    from harness import registry

    found = registry.encodings().get(encoding)
    return dict(found.defaults) if found is not None else {}


def spelled(configs: list[str], wanted: str) -> list[str]:
    """The configs `wanted` names as `harness.run --encoding` spells one (`sat:join=merge:arcs=true`,
    or `sat`): its options as given, every other option that labels tell apart at its default."""
    if wanted in configs:  # a preset's name as labels show it
        return [wanted]
    from harness.presets import PRESETS

    encoding, given = _spelling(wanted)
    base = {k: str(v) for k, v in defaults(encoding).items()}
    out = []
    for config in configs:
        name, _, inside = config.partition("[")
        shown = dict(pair.partition("=")[::2] for pair in inside.rstrip("]").split(",") if pair)
        if name in PRESETS and name != encoding:  # `nearest`'s label: a preset and how a run differs
            label_encoding, label_given = _spelling(":".join([name, *(f"{k}={v}" for k, v in shown.items())]))
            if (label_encoding, {**base, **label_given}) == (encoding, {**base, **given}):
                out.append(config)
            continue
        if name != encoding:
            continue
        # a shown option is as given, or else at its default; one no label shows (every run had the
        # same) cannot tell the configs apart
        if all(given.get(k, base.get(k)) == v for k, v in shown.items()):
            out.append(config)
    return out


def spells(encoding: str, options: dict, wanted: str) -> bool:
    """Whether a run of `encoding` with these options is the configuration `wanted` as `harness.run
    --encoding` spells one: the options given as given, every other at its default."""
    name, given = _spelling(wanted)
    base = defaults(encoding)
    return name == encoding and all(
        str(options.get(k, base.get(k))) == str(given.get(k, base.get(k))) for k in {*base, *options, *given})


def _spelling(wanted: str) -> tuple[str, dict[str, str]]:
    """`sat:join=merge:arcs=true` read: the encoding and the options given (a preset's, `cegar:fix=false`,
    with those on top)."""
    from harness.presets import PRESETS

    encoding, *pairs = wanted.split(":")
    given = dict(pair.partition("=")[::2] for pair in pairs)
    if encoding in PRESETS:
        return PRESETS[encoding].encoding, {**PRESETS[encoding].options, **given}
    return encoding, given
