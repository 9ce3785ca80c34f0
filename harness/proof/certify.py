"""One logged proof judged in full: the DRAT refutes the CNF and every clause of the CNF holds (`certify`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.encoding import cpu_time
from harness.extra import merge_extra
from harness.outcomes import PROOF_CERTIFIED as CERTIFIED
from harness.outcomes import PROOF_UNCHECKED as UNCHECKED
from harness.proof.contents import judge
from harness.proof.drat import Cnf, ProofFormatError, binary_to_text, check, is_binary, read_drat
from harness.proof.reasons import STOPPED
from harness.prooflog import Proof, mark_line


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
        cnf = cnf_of(proof)
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
        write(proof, directory, instance.name + (".unique" if unique else ""))
    return merge_extra(extra, {prefix + k: v for k, v in fields.items()})


def cnf_of(proof: Proof) -> Cnf:
    """The formula as `harness.proof.drat.read_cnf` would read it from `proof.dimacs()`, lines included."""
    head = proof.header_lines()
    notes, lines, at = [], [], len(head)
    for k in range(len(proof.clauses)):
        mark = proof.marks.get(k)
        notes.append([mark_line(mark)] if mark else [])
        at += 2 if mark else 1
        lines.append(at)
    comments = head[:-1] + [mark_line(proof.marks[k]) for k in sorted(proof.marks)]
    return Cnf(int(head[-1].split()[2]), proof.clauses, notes, lines, comments)


def write(proof: Proof, directory: str | Path, name: str) -> tuple[Path, Path]:
    """Write `<name>.cnf` and `<name>.drat` (text DRAT) into `directory`; the two paths."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    cnf, drat = out / f"{name}.cnf", out / f"{name}.drat"
    cnf.write_text(proof.dimacs())
    drat.write_text(binary_to_text(proof.drat) if is_binary(proof.drat) else proof.drat.decode())
    return cnf, drat
