"""Judging `unsat` and uniqueness claims across runs, and the disagreements between encodings.

An encoding that says `unsat` gives nothing the checker can judge. A claim is therefore
- `refuted` when any run of the same puzzle (same `instance_sha256`, any encoding, any code
  version) has a solution the checker accepted: the puzzle has a solution, the claim is wrong;
- `suspect` when not refuted and the run's own proof was judged and found wrong (`extra`'s `proof`
  neither `certified` nor `unchecked: ...`: a rejected DRAT step, an invalid cut, a base clause the
  encoding's code does not make, a misplaced exclusion; `harness.outcomes.rejected`). It is
  never confirmed, never unproven, and confirms no other claim;
- `certified` when the run's own unsat proof was checked (`extra`'s `proof` is `certified`: a DRAT
  refutation of its CNF, every clause of it judged or made again, `harness.proof`; or `certified`
  = 1, a column or an `extra` key, for other proof checkers);
- `confirmed` when an encoding of another model family, at its newest code (`fingerprint` of its
  most recent run), also said `unsat` with no rejected proof, or the instance's answer is known to
  be unsat (a theorem stored with it: `known_answer` in `extra`);
- `unproven` otherwise: one model's word alone, however many encodings of it agree.
(A claim against a known solution stored with the instance is judged when the run is made: it is
recorded as `wrong`.) Summaries count a refuted claim as wrong, a suspect or unproven one apart,
a certified one apart from a confirmed one, and PAR-2 counts certified and confirmed claims as answered.
A uniqueness claim (`unique` = 1) is judged alike (`unique_verdicts`): `refuted` beside a verified
solution that differs from the run's own, `suspect` when its proof (`unique_proof`) was rejected,
`certified` when that proof was certified, else `unproven`.

Model families (`families`): two encodings are of one family when their models share code, read
off their fingerprint scopes (`harness.fingerprint.scope`), so the families follow the code and
cannot go stale. Model code is every module of the encodings package an encoding uses, except
`SHARED_INFRASTRUCTURE` (the packages' `__init__`s, the loop graph's vertex and edge numbering, and
the kinds' rules modules, which hold each backend's clue constraints as functions of their own),
and it counts the shared cut code (`loop.arrays`, `loop.cuts`: the sub-loop decision `lazy`, `sat`
and the others take alike) and the kinds' implied clauses (`IMPLIED`: every module that calls
`implied_clauses`, the clauses every backend takes alike), where one bug could make two backends
agree wrongly. Encodings sharing model code are one family (transitively). Today the loop
encodings are one family (they all take `loop.arrays`); `inference` and `frontier` stand apart.
An encoding no longer registered is a family of its own. An encoding whose model is a program the
harness runs but cannot read (`command`: `Encoding.unread_model`) confirms no claim: its own may be
confirmed by another family.
"""

from __future__ import annotations

import re
from functools import cache

import pandas as pd

from harness.analysis.configs import with_config
from harness.extra import extra_column
from harness.fingerprint import ENCODINGS_PREFIX as ENCODINGS_PACKAGE
from harness.outcomes import AGAINST_KNOWN, PROOF_CERTIFIED, Answer, Status, Verdict, rejected

REFUTED, SUSPECT, CERTIFIED, CONFIRMED, UNPROVEN = (Verdict.REFUTED, Verdict.SUSPECT, Verdict.CERTIFIED,
                                                   Verdict.CONFIRMED, Verdict.UNPROVEN)
# Modules shared by the encodings that are not one backend's model (numbering, per-backend rules):
# listed so the families say what they leave out (docs/FORMATS.md).
SHARED_INFRASTRUCTURE = (f"{ENCODINGS_PACKAGE}.loop.graph", f"{ENCODINGS_PACKAGE}.loop.grid",
                         f"{ENCODINGS_PACKAGE}.rules")
# The kinds' implied clauses, written once (`loop.implied_clauses`) and given to every backend that
# calls it: counted as one model module of each such encoding.
IMPLIED = "harness.kinds.*.rules.implied_clauses"  # a label: the kinds' rules live in their folders
_CALLS_IMPLIED = re.compile(r"(?<!def )\bimplied_clauses\(")  # a call, not the rules modules' definitions


# A module another encoding runs only to look for an answer (which the checker judges), never for an unsat:
# of the model of its own encoding only, so the two families stay apart and their unsat answers still
# confirm each other (`sat`'s `prepass=frontier` runs `frontier.prepass_cycle`, which gives a cycle or none).
ANSWERS_ONLY = {f"{ENCODINGS_PACKAGE}.frontier": "frontier"}  # module: the encoding whose model it is


def _model_modules(encoding: str) -> frozenset[str]:
    from harness import fingerprint

    modules = [m for m in fingerprint.scope(encoding).modules
               if m.startswith(ENCODINGS_PACKAGE + ".") and not fingerprint._is_package(m)
               and ANSWERS_ONLY.get(m, encoding) == encoding]
    model = {m for m in modules
             if not any(m == shared or m.startswith(shared + ".") for shared in SHARED_INFRASTRUCTURE)}
    if any(_calls_implied(m) for m in modules):
        model.add(IMPLIED)
    return frozenset(model)


@cache
def _calls_implied(module: str) -> bool:
    from harness import fingerprint

    path = fingerprint._source(module)
    return path is not None and bool(_CALLS_IMPLIED.search(path.read_text()))


@cache
def families() -> dict[str, str]:
    """Each registered encoding's model family: the sorted names of the encodings sharing its model code,
    joined by `+` (`asp+circuit+cpsat+...`)."""
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


def unread(encoding: str) -> bool:
    """Whether the encoding's model is a program the harness cannot read (`Encoding.unread_model`): its
    claims confirm none (an encoding no longer registered is read as it was)."""
    from harness import registry

    found = registry.encodings().get(encoding)
    return bool(found is not None and found.unread_model)


def family(encoding: str) -> str:
    """The model family of an encoding (its own name if it is not registered)."""
    return families().get(encoding, encoding)


def certified(runs: pd.DataFrame) -> pd.Series:
    """Whether each run's unsat proof was checked: a `certified` column, else `extra`'s `proof` saying
    `certified` (`harness.proof`: a DRAT refutation of its CNF, every cut valid) or a `certified` key."""
    if "certified" in runs:
        return runs["certified"].fillna(0).astype(int) == 1
    said = extra_column(runs, "proof") == PROOF_CERTIFIED
    return (said | extra_column(runs, "certified").isin([1, True])).astype(bool)


def _puzzle_key(runs: pd.DataFrame) -> pd.Series:
    """What tells one puzzle from another: its content hash, else its source, else its name."""
    key = pd.Series(runs.index.astype(str), index=runs.index, dtype=object)
    for column in ("instance", "source", "instance_sha256"):  # the last one present wins
        if column in runs:
            key = runs[column].astype(object).where(runs[column].notna(), key)
    return key


def _verified(runs: pd.DataFrame) -> pd.Series:
    verified = runs["verified"] if "verified" in runs else pd.Series(pd.NA, index=runs.index)
    return (runs["status"] == Status.SOLVED) & (verified.fillna(0).astype(int) == 1)


def suspect(runs: pd.DataFrame, prefix: str = "") -> pd.Series:
    """Whether each run's proof (`extra`'s `proof`, `unique_proof` with prefix `unique_`) was judged wrong."""
    return extra_column(runs, prefix + "proof").map(rejected).astype(bool)


def newest_code(runs: pd.DataFrame) -> pd.Series:
    """Whether each run is of its encoding's newest code: the `fingerprint` of the encoding's most recent
    run (by `finished_at`, else `started_at`). Without those columns every run counts as newest."""
    if "fingerprint" not in runs or "encoding" not in runs or runs.empty:
        return pd.Series(True, index=runs.index)
    when = pd.Series("", index=runs.index, dtype=object)
    for column in ("started_at", "finished_at"):  # the last one present wins
        if column in runs:
            when = runs[column].astype(object).where(runs[column].notna(), when)
    printed = runs["fingerprint"].astype(object).fillna("")
    ordered = pd.DataFrame({"encoding": runs["encoding"], "printed": printed, "when": when.astype(str)})
    newest = ordered.sort_values("when", kind="stable").groupby("encoding")["printed"].transform("last")
    return printed == newest.reindex(runs.index)


def unsat_verdicts(runs: pd.DataFrame) -> pd.Series:
    """Per run: `refuted`, `suspect`, `certified`, `confirmed` or `unproven` for each `unsat` run, else NA.

    Judge over every run there is (a whole database), before selecting: a solution found in
    another sweep refutes a claim all the same, and only the newest code of each encoding confirms.
    """
    verdicts = pd.Series(pd.NA, index=runs.index, dtype="string")
    if runs.empty:
        return verdicts
    key = _puzzle_key(runs)
    unsat = runs["status"] == Status.UNSAT
    if not unsat.any():
        return verdicts
    solved = set(key[_verified(runs)])
    wrong = suspect(runs)
    encodings = runs["encoding"].astype(str)
    confirming = (unsat & ~wrong & newest_code(runs)
                  & ~encodings.isin([e for e in encodings.unique() if unread(e)]))
    model = runs.loc[confirming, "encoding"].map(lambda e: family(str(e)))
    families_of = model.groupby(key[confirming]).agg(set)
    proven, known = certified(runs), extra_column(runs, "known_answer") == Answer.UNSAT
    for index in runs.index[unsat]:
        k = key[index]
        others = families_of.get(k, set()) - {family(str(runs.at[index, "encoding"]))}
        verdicts[index] = (REFUTED if k in solved else SUSPECT if wrong[index] else CERTIFIED if proven[index]
                           else CONFIRMED if others or known[index] else UNPROVEN)
    return verdicts


def unique_verdicts(runs: pd.DataFrame) -> pd.Series:
    """Per run: `refuted`, `suspect`, `certified` or `unproven` for each uniqueness claim (`unique` = 1 on a
    verified answer), NA for the others. `refuted`: a verified solution of the same puzzle, by any run,
    differs from the run's own."""
    verdicts = pd.Series(pd.NA, index=runs.index, dtype="string")
    if runs.empty or "unique" not in runs:
        return verdicts
    claims = _verified(runs) & (pd.to_numeric(runs["unique"], errors="coerce") == 1)
    if not claims.any() or "solution" not in runs:
        return verdicts
    key, verified = _puzzle_key(runs), _verified(runs)
    solutions = runs.loc[verified, "solution"].astype(str).groupby(key[verified]).agg(set)
    wrong, proven = suspect(runs, "unique_"), extra_column(runs, "unique_proof") == PROOF_CERTIFIED
    for index in runs.index[claims]:
        others = solutions.get(key[index], set()) - {str(runs.at[index, "solution"])}
        verdicts[index] = (REFUTED if others else SUSPECT if wrong[index] else CERTIFIED if proven[index]
                           else UNPROVEN)
    return verdicts


def with_verdicts(runs: pd.DataFrame) -> pd.DataFrame:
    """The runs with `unsat_verdict` and `unique_verdict` columns (`unsat_verdicts`, `unique_verdicts`)."""
    return runs.assign(unsat_verdict=unsat_verdicts(runs), unique_verdict=unique_verdicts(runs))


def disagreements(runs: pd.DataFrame) -> pd.DataFrame:
    """Puzzles on which encodings contradict each other or a claim rests on a rejected proof.

    One row per puzzle: its name and source, the content hash (short), the encodings (with
    options, when they differ) that said unsat, those whose solution the checker accepted, and
    `suspect`: the claims whose proof was judged wrong and the uniqueness claims a verified
    different solution refutes, each `config: why`. Also a claim recorded `wrong` because the
    instance's known solution contradicts it.
    """
    columns = ["instance", "source", "instance_sha256", "unsat_by", "solved_by", "suspect"]
    if runs.empty:
        return pd.DataFrame(columns=columns)
    key = _puzzle_key(runs)
    detail = runs["detail"].fillna("") if "detail" in runs else pd.Series("", index=runs.index)
    against_known = (runs["status"] == Status.WRONG) & detail.str.startswith(AGAINST_KNOWN)
    claims = (runs["status"] == Status.UNSAT) | against_known
    solved = _verified(runs)
    unique = unique_verdicts(runs)
    doubted = (claims & suspect(runs)) | unique.isin([SUSPECT, REFUTED]).fillna(False)
    why = _why_suspect(runs[doubted], unique[doubted])
    contested = (set(key[claims]) & set(key[solved])) | set(key[against_known]) | set(key[doubted])
    # labels made once for the runs that matter, then gathered per puzzle in plain dicts
    shown = runs[key.isin(contested) & (claims | solved | doubted)]
    label = dict(zip(shown.index, _labels(shown), strict=True))
    per: dict[object, dict[str, set[str]]] = {k: {"unsat": set(), "solved": set(), "suspect": set()}
                                              for k in contested}
    first: dict[object, object] = {}
    for index in shown.index:
        k = key[index]
        first.setdefault(k, index)
        if claims[index]:
            per[k]["unsat"].add(label[index])
        if solved[index]:
            per[k]["solved"].add(label[index])
        if doubted[index]:
            per[k]["suspect"].add(f"{label[index]}: {why[index]}")
    out, known_keys = [], set(key[against_known])
    for k in sorted(contested, key=str):
        known, row = k in known_keys, runs.loc[first[k]]
        solved_by = sorted(per[k]["solved"]) + (["the known solution"] if known else [])
        out.append({"instance": row["instance"], "source": row["source"], "instance_sha256": str(k)[:12],
                    "unsat_by": ", ".join(sorted(per[k]["unsat"])), "solved_by": ", ".join(solved_by),
                    "suspect": "; ".join(sorted(per[k]["suspect"]))})
    return pd.DataFrame(out, columns=columns)


def _why_suspect(runs: pd.DataFrame, unique: pd.Series) -> pd.Series:
    """Why each run's claim is doubted, in words (`disagreements`' `suspect` column)."""
    proof, unique_proof = extra_column(runs, "proof"), extra_column(runs, "unique_proof")
    why = pd.Series("", index=runs.index, dtype=object)
    for index in runs.index:
        if unique[index] is not pd.NA and unique[index] == REFUTED:
            why[index] = "says unique, yet a verified solution differs"
        elif unique[index] is not pd.NA and unique[index] == SUSPECT:
            why[index] = f"uniqueness proof {unique_proof[index]}"
        else:
            why[index] = f"unsat proof {proof[index]}"
    return why


def _labels(runs: pd.DataFrame) -> list[str]:
    return list(with_config(runs)["config"]) if not runs.empty else []
