"""A shallow selection rule on a graph's features: up to two thresholds choose one configuration or another.

A rule is `when` (conditions on `loop.features`, all of which hold) `then` one configuration, else
`otherwise`; no condition: always `otherwise`. `harness.select train` finds it from stored runs and
writes it as JSON (RULE_FILE, committed beside the `auto` encoding that applies it); what it was
trained on and how well it did is kept in `trained`, as written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RULE_FILE = Path(__file__).resolve().parents[1] / "auto.json"


@dataclass(frozen=True)
class Condition:
    """`feature > threshold` (`above`) or `feature <= threshold`."""

    feature: str
    above: bool
    threshold: float

    def holds(self, features: dict[str, float]) -> bool:
        value = features[self.feature]
        return value > self.threshold if self.above else value <= self.threshold

    def __str__(self) -> str:
        return f"{self.feature} {'>' if self.above else '<='} {self.threshold:.12g}"


@dataclass(frozen=True)
class Rule:
    when: tuple[Condition, ...]
    then: str
    otherwise: str
    trained: dict[str, Any] = field(default_factory=dict, compare=False)

    def choose(self, features: dict[str, float]) -> str:
        """The configuration for a graph with these features; KeyError naming a feature they lack."""
        return self.then if self.when and all(c.holds(features) for c in self.when) else self.otherwise

    def __str__(self) -> str:
        if not self.when:
            return f"always {self.otherwise}"
        return f"{self.then} if {' and '.join(map(str, self.when))} else {self.otherwise}"

    def to_json(self) -> str:
        when = [{"feature": c.feature, "above": c.above, "threshold": c.threshold} for c in self.when]
        body = {"when": when,
                "then": self.then, "otherwise": self.otherwise, "rule": str(self), "trained": self.trained}
        return json.dumps(body, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str, source: str = "rule") -> Rule:
        """The rule a `to_json` text holds; ValueError naming `source` and what is wrong."""
        try:
            body = json.loads(text)
            when = tuple(Condition(str(c["feature"]), bool(c["above"]), float(c["threshold"]))
                         for c in body["when"])
            return cls(when, str(body["then"]), str(body["otherwise"]), dict(body.get("trained", {})))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{source}: not a selection rule ({exc})") from None


def parse(text: str) -> Rule:
    """The rule `str(rule)` writes (`always CONFIG`, or `CONFIG if FEATURE > T and FEATURE <= T else
    CONFIG`: no comma, so it can stand in a comma-separated `--encoding` list); ValueError saying what
    does not read."""
    said = " ".join(text.split())
    if said.startswith("always "):
        return Rule((), said[len("always "):], said[len("always "):])
    then, sep, rest = said.partition(" if ")
    conds, sep2, otherwise = rest.rpartition(" else ")
    if not (sep and sep2 and then and otherwise):
        raise ValueError(f"rule {text!r}: expected 'always CONFIG' or 'CONFIG if CONDITIONS else CONFIG'")
    when = []
    for cond in conds.split(" and "):
        parts = cond.split(" ")
        if len(parts) != 3 or parts[1] not in (">", "<="):
            raise ValueError(f"rule {text!r}: condition {cond!r} is not 'FEATURE > T' or 'FEATURE <= T'")
        try:
            when.append(Condition(parts[0], parts[1] == ">", float(parts[2])))
        except ValueError:
            raise ValueError(f"rule {text!r}: {parts[2]!r} is no number") from None
    return Rule(tuple(when), then, otherwise)


def read(path: Path = RULE_FILE) -> Rule:
    """The rule in `path` (the committed one by default); ValueError naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{path}: no such rule file (python -m harness.select train writes it)") from None
    return Rule.from_json(text, str(path))
