"""Judging `unsat` claims across runs, and the disagreements between encodings.

An encoding that says `unsat` gives nothing the checker can judge. A claim is therefore
- `refuted` when any run of the same puzzle (same `instance_sha256`, any encoding, any code
  version) has a solution the checker accepted: the puzzle has a solution, the claim is wrong;
- `certified` when not refuted and the run's own unsat proof was checked (`extra`'s `proof` is
  `certified`: a DRAT refutation of its CNF, every cut valid, `harness.proof`; or `certified` = 1,
  a column or an `extra` key, for other proof checkers);
- `confirmed` when not refuted and an encoding of another model family also said `unsat`, or the
  instance's answer is known to be unsat (a theorem stored with it: `known_answer` in `extra`);
- `unproven` otherwise: one model's word alone, however many encodings of it agree.
(A claim against a known solution stored with the instance is judged when the run is made: it is
recorded as `wrong`.) Summaries count a refuted claim as wrong, an unproven one apart, a certified
one apart from a confirmed one, and PAR-2 counts certified and confirmed claims as answered.

Model families (`families`): two encodings are of one family when their models share code, read
off their fingerprint scopes (`harness.fingerprint.scope`), so the families follow the code and
cannot go stale. Model code is every module of the encodings package an encoding uses, except
`SHARED_INFRASTRUCTURE`: the packages' `__init__`s, the loop graph and its arrays (vertex and
edge numbering),
the sub-loop finder (`loop.cuts`) and the kinds' rules modules (`rules.*`, which hold each
backend's clue constraints as functions of their own). Encodings sharing a model module are one
family (transitively). Today: {circuit, lazy, cpsat} (`loop.cpsat`), {sat, propagator}
(`loop.cnf`, `sat`, `_plain_sat`), {asp} (`loop.asp`), {dfs}, {inference} (they share no module);
an encoding no longer registered is a family of its own.
"""

from __future__ import annotations

import json
from functools import cache

import pandas as pd

from harness.fingerprint import ENCODINGS_PREFIX as ENCODINGS_PACKAGE

REFUTED, CERTIFIED, CONFIRMED, UNPROVEN = "refuted", "certified", "confirmed", "unproven"
# Modules shared by the loop encodings that are not one backend's model: where a bug could make two
# families agree wrongly. Listed so the families say what they leave out (docs/FORMATS.md).
SHARED_INFRASTRUCTURE = (f"{ENCODINGS_PACKAGE}.loop.graph", f"{ENCODINGS_PACKAGE}.loop.arrays",
                         f"{ENCODINGS_PACKAGE}.loop.cuts", f"{ENCODINGS_PACKAGE}.rules")


def _model_modules(encoding: str) -> frozenset[str]:
    from harness import fingerprint

    modules = fingerprint.scope(encoding).modules
    return frozenset(
        m for m in modules
        if m.startswith(ENCODINGS_PACKAGE + ".") and not fingerprint._is_package(m)
        and not any(m == shared or m.startswith(shared + ".") for shared in SHARED_INFRASTRUCTURE))


@cache
def families() -> dict[str, str]:
    """Each registered encoding's model family: the sorted names of the encodings sharing its model code,
    joined by `+` (`circuit+cpsat+lazy`)."""
    from harness import registry

    names = sorted(registry.names())
    code = {name: _model_modules(name) for name in names}
    parent = {name: name for name in names}

    def root(name: str) -> str:
        while parent[name] != name:
            name = parent[name]
        return name

    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if code[a] & code[b]:
                parent[root(b)] = root(a)
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(root(name), []).append(name)
    return {name: "+".join(groups[root(name)]) for name in names}


def family(encoding: str) -> str:
    """The model family of an encoding (its own name if it is not registered)."""
    return families().get(encoding, encoding)


def _extra(runs: pd.DataFrame, key: str) -> pd.Series:
    """Each run's `extra` value for `key` (None where absent or unreadable)."""
    def value(blob: object) -> object:
        try:
            return json.loads(blob).get(key) if isinstance(blob, str) and blob else None
        except (json.JSONDecodeError, AttributeError):
            return None

    if "extra" not in runs:
        return pd.Series(None, index=runs.index, dtype=object)
    return runs["extra"].map(value)


def certified(runs: pd.DataFrame) -> pd.Series:
    """Whether each run's unsat proof was checked: a `certified` column, else `extra`'s `proof` saying
    `certified` (`harness.proof`: a DRAT refutation of its CNF, every cut valid) or a `certified` key."""
    if "certified" in runs:
        return runs["certified"].fillna(0).astype(int) == 1
    said = _extra(runs, "proof") == CERTIFIED
    return (said | _extra(runs, "certified").isin([1, True])).astype(bool)


def _puzzle_key(runs: pd.DataFrame) -> pd.Series:
    """What tells one puzzle from another: its content hash, else its source, else its name."""
    key = pd.Series(runs.index.astype(str), index=runs.index, dtype=object)
    for column in ("instance", "source", "instance_sha256"):  # the last one present wins
        if column in runs:
            key = runs[column].astype(object).where(runs[column].notna(), key)
    return key


def _verified(runs: pd.DataFrame) -> pd.Series:
    verified = runs["verified"] if "verified" in runs else pd.Series(pd.NA, index=runs.index)
    return (runs["status"] == "solved") & (verified.fillna(0).astype(int) == 1)


def unsat_verdicts(runs: pd.DataFrame) -> pd.Series:
    """Per run: `refuted`, `certified`, `confirmed` or `unproven` for each `unsat` run, NA for the others.

    Judge over every run there is (a whole database), before selecting: a solution found in
    another sweep refutes a claim all the same.
    """
    verdicts = pd.Series(pd.NA, index=runs.index, dtype="string")
    if runs.empty:
        return verdicts
    key = _puzzle_key(runs)
    unsat = runs["status"] == "unsat"
    if not unsat.any():
        return verdicts
    solved = set(key[_verified(runs)])
    model = runs.loc[unsat, "encoding"].map(lambda e: family(str(e)))
    claimants = model.groupby(key[unsat]).nunique()
    proven, known = certified(runs), _extra(runs, "known_answer") == "unsat"
    for index in runs.index[unsat]:
        k = key[index]
        verdicts[index] = (REFUTED if k in solved else CERTIFIED if proven[index]
                           else CONFIRMED if claimants.get(k, 0) >= 2 or known[index] else UNPROVEN)
    return verdicts


def with_verdicts(runs: pd.DataFrame) -> pd.DataFrame:
    """The runs with an `unsat_verdict` column (see `unsat_verdicts`)."""
    return runs.assign(unsat_verdict=unsat_verdicts(runs))


def disagreements(runs: pd.DataFrame) -> pd.DataFrame:
    """Puzzles on which encodings contradict each other: an `unsat` claim where a verified solution exists.

    One row per puzzle: its name and source, the content hash (short), the encodings (with
    options, when they differ) that said unsat, and those whose solution the checker accepted.
    Also a claim recorded `wrong` because the instance's known solution contradicts it.
    """
    columns = ["instance", "source", "instance_sha256", "unsat_by", "solved_by"]
    if runs.empty:
        return pd.DataFrame(columns=columns)
    key = _puzzle_key(runs)
    detail = runs["detail"].fillna("") if "detail" in runs else pd.Series("", index=runs.index)
    against_known = (runs["status"] == "wrong") & detail.str.startswith("claimed unsat")
    claims = (runs["status"] == "unsat") | against_known
    solved = _verified(runs)
    out = []
    for k, group in runs[claims].groupby(key[claims], sort=True):
        solvers = runs[solved & (key == k)]
        known = group["status"].eq("wrong").any()
        if solvers.empty and not known:
            continue
        solved_by = sorted(set(_labels(solvers))) + (["the known solution"] if known else [])
        out.append({"instance": group["instance"].iloc[0], "source": group["source"].iloc[0],
                    "instance_sha256": str(k)[:12], "unsat_by": ", ".join(sorted(set(_labels(group)))),
                    "solved_by": ", ".join(solved_by)})
    return pd.DataFrame(out, columns=columns)


def _labels(runs: pd.DataFrame) -> list[str]:
    from harness.analysis.plots.data import with_config

    return list(with_config(runs)["config"]) if not runs.empty else []
