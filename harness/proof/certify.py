"""One logged proof judged in full: the DRAT refutes the CNF and every cut in the CNF holds (`certify`)."""

from __future__ import annotations

import time
from typing import Any

from harness.proof.cuts import check_cuts
from harness.proof.drat import STOPPED, ProofFormatError, check, read_drat
from harness.proof.record import Proof

CERTIFIED = "certified"


def certify(proof: Proof, puzzle: Any, deadline: float | None = None) -> dict[str, Any]:
    """`verdict` (`certified`, or why not), the proof's size and the checking times, for a run's `extra`.

    `deadline` (a `time.process_time()` instant, the run's CPU limit): the checks stop there, so a
    run asked for a proof stays within its limit; the verdict then says the check stopped.
    """
    start = time.perf_counter()
    out: dict[str, Any] = {"proof_bytes": len(proof.drat), "cnf_clauses": len(proof.clauses)}
    try:
        cnf = proof.cnf()
        steps = read_drat("<drat>", proof.drat)
    except ProofFormatError as exc:
        out.update(verdict=f"unreadable proof: {exc}", check_s=time.perf_counter() - start)
        return out
    refuted = check(cnf, steps, deadline=deadline)
    out.update(proof_lemmas=refuted.lemmas, proof_rat=refuted.rat, drat_s=refuted.seconds)
    cuts = check_cuts(cnf, puzzle, deadline) if puzzle is not None and refuted.ok else None
    if not refuted.ok:
        stopped = refuted.reason.startswith(STOPPED)
        out["verdict"] = f"unchecked: {refuted.reason}" if stopped else f"proof rejected: {refuted.reason}"
    elif cuts is not None and not cuts.ok:
        stopped = STOPPED in cuts.problems[-1]
        out["verdict"] = f"unchecked: cut {cuts.problems[-1]}" if stopped else cuts.summary()
    else:
        out["verdict"] = CERTIFIED
    if cuts is not None:
        out.update(proof_cuts=cuts.cuts, proof_excluded=cuts.excluded)
    out["check_s"] = time.perf_counter() - start
    return out


def with_proof(extra: str, proof: Proof, instance: Any, directory: str | None = None,
               unique: bool = False, deadline: float | None = None) -> str:
    """A run's `extra` JSON with its proof's check added (`proof`: the verdict, then sizes and time).

    `unique`: the proof is the uniqueness question's (no second answer), its keys prefixed `unique_`.
    `directory`: also write `<name>.cnf` and `<name>.drat` there (`<name>.unique.*` for `unique`).
    """
    import json

    checked = certify(proof, instance.puzzle, deadline)
    prefix = "unique_" if unique else ""
    fields = {"proof": checked.pop("verdict"), **checked}
    if directory:
        proof.write(directory, instance.name + (".unique" if unique else ""))
    merged = {**json.loads(extra or "{}"), **{prefix + k: v for k, v in fields.items()}}
    return json.dumps(merged, sort_keys=True, default=str)
