"""One logged proof judged in full: the DRAT refutes the CNF and every clause of the CNF holds (`certify`)."""

from __future__ import annotations

from typing import Any

from harness.encoding import cpu_time
from harness.extra import merge_extra
from harness.proof.contents import judge
from harness.proof.drat import ProofFormatError, check, read_drat
from harness.proof.reasons import STOPPED
from harness.proof.record import Proof

CERTIFIED = "certified"
# A verdict that judged nothing wrong but stopped (the check's time ran out): not a rejection.
UNCHECKED = "unchecked"


def rejected(verdict: object) -> bool:
    """Whether a proof verdict (`extra`'s `proof`) says the proof or its CNF was judged and found wrong:
    anything but `certified` and `unchecked: ...` (harness.analysis.verdicts calls such a claim suspect)."""
    return isinstance(verdict, str) and verdict != CERTIFIED and not verdict.startswith(UNCHECKED)


def certify(proof: Proof, puzzle: Any, deadline: float | None = None, options: dict[str, Any] | None = None,
            answer: str | None = None, encoding: str = "sat") -> dict[str, Any]:
    """`verdict` (`certified`, or why not), the proof's size and the checking times, for a run's `extra`.

    `options`, `encoding`: the run's (its base clauses are made again with them, `harness.proof.base`);
    `answer`: for a uniqueness proof, the answer the run reported, which its one `c exclude` must rule out.
    `deadline` (a `time.process_time()` instant, the run's CPU limit): the checks stop there, so a
    run asked for a proof stays within its limit; the verdict then says the check stopped.
    """
    start = cpu_time()
    out: dict[str, Any] = {"proof_bytes": len(proof.drat), "cnf_clauses": len(proof.clauses)}
    try:
        cnf = proof.cnf()
        steps = read_drat("<drat>", proof.drat)
        refuted = check(cnf, steps, deadline=deadline)  # sizes the formula first (`drat.sized`)
    except ProofFormatError as exc:
        out.update(verdict=f"unreadable proof: {exc}", proof_check_cpu_s=cpu_time() - start)
        return out
    out.update(proof_lemmas=refuted.lemmas, proof_rat=refuted.rat, drat_cpu_s=refuted.seconds)
    contents = judge(cnf, puzzle, options, answer, deadline, encoding) if refuted.ok else None
    if not refuted.ok:
        stopped = refuted.reason.startswith(STOPPED)
        out["verdict"] = f"{UNCHECKED}: {refuted.reason}" if stopped else f"proof rejected: {refuted.reason}"
    elif contents is not None and not contents.ok:
        last = contents.problems[-1] if contents.problems else ""
        out["verdict"] = f"{UNCHECKED}: cut {last}" if STOPPED in last else contents.summary()
    else:
        out["verdict"] = CERTIFIED
    if contents is not None:
        out.update(proof_cuts=contents.cuts, proof_excluded=contents.excluded, proof_faces=contents.faces,
                   proof_base=contents.base)
    out["proof_check_cpu_s"] = cpu_time() - start
    return out


def with_proof(extra: str, proof: Proof, instance: Any, directory: str | None = None,
               unique: bool = False, deadline: float | None = None, options: dict[str, Any] | None = None,
               answer: str | None = None, encoding: str = "sat") -> str:
    """A run's `extra` JSON with its proof's check added (`proof`: the verdict, then sizes and time).

    `unique`: the proof is the uniqueness question's (no second answer other than `answer`, the
    run's), its keys prefixed `unique_`; `options`, `encoding`: the run's (`certify`).
    `directory`: also write `<name>.cnf` and `<name>.drat` there (`<name>.unique.*` for `unique`).
    """
    checked = certify(proof, instance.puzzle, deadline, options, answer if unique else None, encoding)
    prefix = "unique_" if unique else ""
    fields = {"proof": checked.pop("verdict"), **checked}
    if directory:
        proof.write(directory, instance.name + (".unique" if unique else ""))
    return merge_extra(extra, {prefix + k: v for k, v in fields.items()})
