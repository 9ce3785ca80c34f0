"""Judging `unsat` claims across runs, and the disagreements between encodings.

An encoding that says `unsat` gives no solution the checker can judge. A claim is therefore
- `refuted` when any run of the same puzzle (same `instance_sha256`, any encoding, any code
  version) has a solution the checker accepted: the puzzle has a solution, the claim is wrong;
- `certified` when not refuted and the run's own proof was checked (`extra`'s `proof` is
  `certified`: a DRAT refutation of its CNF, every cut valid; `harness.proof`);
- `confirmed` when neither and a second, different encoding also said `unsat`;
- `unproven` otherwise: one encoding's word alone.
(A claim against a known solution stored with the instance is judged when the run is made: it is
recorded as `wrong`.) Summaries count a refuted claim as wrong, certified, confirmed and unproven
ones apart, and PAR-2 counts certified and confirmed claims as answered.
"""

from __future__ import annotations

import json

import pandas as pd

REFUTED, CERTIFIED, CONFIRMED, UNPROVEN = "refuted", "certified", "confirmed", "unproven"


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


def _certified(runs: pd.DataFrame) -> pd.Series:
    """Per run: whether its `extra` says its proof was checked and certified."""
    if "extra" not in runs:
        return pd.Series(False, index=runs.index)
    return runs["extra"].fillna("").astype(str).map(lambda extra: _proof_of(extra) == CERTIFIED)


def _proof_of(extra: str) -> str | None:
    if '"proof"' not in extra:  # most rows: no JSON to read
        return None
    return json.loads(extra).get("proof")


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
    claimants = runs[unsat].groupby(key[unsat])["encoding"].nunique()
    certified = _certified(runs)
    for index in runs.index[unsat]:
        k = key[index]
        verdicts[index] = (REFUTED if k in solved else CERTIFIED if certified[index]
                           else CONFIRMED if claimants.get(k, 0) >= 2 else UNPROVEN)
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
