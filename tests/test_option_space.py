"""The declared option space walked per kind (`sat` on every kind with smoke puzzles hard enough, `lazy`
and `circuit` on three): every option value the declarations accept on a kind changes the model or the
search there (no option that does nothing enters a run key).

From each kind's own defaults, each other value of each option with choices, one at a time: either the
declarations refuse it on that kind (it does nothing there, or breaks a rule), or the runs on the kind's
first smoke puzzles differ from the defaults' in their answers or search statistics (conflicts, rounds,
cuts, clauses, variables and the rest; times aside). `proof=true` changes what is recorded, the proof of
an unsat answer (tests/test_proof*.py check it), not the search: it is the one left out here.
"""

from __future__ import annotations

import json

import pytest

from harness import options, registry, sets
from harness.encoding import Limits

# country's, moonsun's and yajilin's smoke puzzles take one round each: too easy to tell cut families apart
SETS = ("masyu-smoke", "slither-smoke", "graph-smoke", "walls-smoke", "marupeke-smoke", "castlewall-smoke",
        "geradeweg-smoke")
RECORDS_ONLY = {"proof"}
LIMITS = Limits(time_s=20.0)


def observed(outcome) -> str:
    """What a run did, times aside: its verdict, answer and search statistics."""
    stats = {k: v for k, v in outcome.stats.items() if not k.endswith("_s") and k != "rounds"}
    return json.dumps([outcome.status, outcome.solution, stats], sort_keys=True, default=str)


# circuit's options on a graph have no choices (its implied constraints are the grid kinds')
CASES = [("sat", c) for c in SETS] + [("lazy", c) for c in ("masyu-smoke", "slither-smoke", "graph-smoke")]
CASES += [("circuit", c) for c in ("masyu-smoke", "slither-smoke")]


def values(option: options.Option) -> tuple:
    """The values walked: its choices, or both of a Boolean's."""
    if option.choices is not None:
        return option.choices
    return (False, True) if isinstance(option.default, bool) else ()


@pytest.mark.parametrize(("encoding", "collection"), CASES)
def test_every_accepted_option_changes_the_run_on_its_kind(encoding, collection):
    cls = registry.encodings()[encoding]
    puzzles = [i.puzzle for i in sets.instances(collection) if i.puzzle is not None][:4]
    kind = puzzles[0].kind

    def runs(resolved: dict) -> list[str]:
        encoding = cls.made(resolved)
        return [observed(encoding.solve(p, LIMITS, 0)) for p in puzzles]

    base = registry.entry(encoding).resolve(kind).options
    reference = runs(base)
    # answered within the limit: a run stopped by the clock would differ by the clock alone
    assert all(json.loads(r)[0] in ("sat", "unsat") for r in reference)
    tried, same = 0, []
    for name, option in options.declarations(cls).items():
        if name not in base or name in RECORDS_ONLY:
            continue
        for value in values(option):
            if value == base[name]:
                continue
            try:
                resolved = options.resolve(cls, {name: value}, kind).options
            except ValueError:
                continue  # refused on this kind: it does nothing here, or breaks a rule
            tried += 1
            if runs(resolved) == reference:
                same.append(f"{name}={value}")
    assert not same, f"on {kind}, accepted but changing nothing: {', '.join(same)}"
    if encoding == "sat" and kind in ("walls", "marupeke"):  # one plain solve of the whole CNF
        assert set(base) == {"solver", "proof"} and tried == 0
    else:
        assert tried >= (10 if encoding == "sat" else 1), tried
