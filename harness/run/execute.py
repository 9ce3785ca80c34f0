"""One run in this process: solve with an encoding, judge the answer, and return the run's row.

The row holds the run's identity, outcome and the encoding's own measures; with `unique`, the
encoding is asked again with its verified solution excluded (`harness.unique.ask_again`, within
what is left of the run's time budget) and the row's `unique` column says what it found. Process-level
measures (wall_s, cpu_s, peak_rss_mb) and the `timeout`/`memout`/`crash` overlays belong to the
runner that hosts this call.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from harness import fingerprint, kinds, registry
from harness.encoding import SAT, UNKNOWN, UNSAT, UNSUPPORTED, Limits, Outcome
from harness.instances import Instance
from harness.proof.certify import with_proof
from harness.unique import ask_again

# Outcome.stats keys that have a column of their own; all other stats go to the `extra` JSON.
STAT_COLUMNS = ("build_s", "iterations", "cuts", "conflicts")


def run_key(instance: Instance, encoding: str, options: dict[str, Any], seed: int, limits: Limits,
            code: str = "", unique: bool = False) -> str:
    """The run's identity: a hash of the puzzle's content, the encoding, its options, the seed, the
    limits, the fingerprint of the code that runs it (`harness.fingerprint`) and whether
    uniqueness was asked.

    The limits are hashed so that a sweep with a longer time limit runs again what timed out under
    a shorter one; the fingerprint, so that changed code (or solver versions) means new runs; a run
    that asked for uniqueness is another run.
    """
    key = [instance.content_hash, encoding, options, seed, limits.time_s, limits.memory_mb, code]
    blob = json.dumps(key + ["unique"] * unique, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


def identity(
    instance: Instance, encoding: str, options: dict[str, Any], seed: int, limits: Limits, code: str = "",
    unique: bool = False,
) -> dict[str, Any]:
    puzzle = instance.puzzle
    return {
        "run_key": run_key(instance, encoding, options, seed, limits, code, unique),
        "fingerprint": code or None,
        "instance": instance.name,
        "source": instance.source,
        "instance_sha256": instance.content_hash,
        "puzzle": instance.kind,
        "rows": puzzle.rows if puzzle is not None else None,
        "cols": puzzle.cols if puzzle is not None else None,
        "encoding": encoding,
        "options": json.dumps(options, sort_keys=True),
        "seed": seed,
    }


def execute(
    instance: Instance, encoding: str, options: dict[str, Any], seed: int, limits: Limits,
    code: dict[str, list[str]] | None = None,
    unique: bool = False,
    proof_dir: str | None = None,
) -> dict[str, Any]:
    """Solve one instance and judge the answer; bad input becomes status `error`, never an exception.

    The row records the options with the encoding's defaults filled in, as sweeps key them, and
    the fingerprint of this process's code for the encoding (`code`: the modules and imports the
    coordinator found, `fingerprint.Scope.as_dict()`; None: find them here).
    With `unique`, a verified answer is followed by a second solve that excludes it (same budget).
    A proof the encoding logged (`proof=true`) is checked within the run's limit and its verdict put
    in `extra` (`harness.proof.certify.with_proof`); `proof_dir` also keeps its files.
    """
    try:
        solver = registry.create(encoding, **options)
    except ValueError as exc:
        row = identity(instance, encoding, options, seed, limits, unique)
        return {**row, "status": "error", "detail": str(exc), "verified": None}
    scope = fingerprint.scope(encoding) if code is None else fingerprint.Scope(**code)
    printed = fingerprint.loaded(tuple(scope.modules), tuple(scope.imports))
    row = identity(instance, encoding, solver.options, seed, limits, printed, unique)
    if instance.puzzle is None:
        return {**row, "status": "error", "detail": instance.error, "verified": None}
    if not solver.supports(instance.puzzle):
        detail = f"encoding {encoding!r} does not support {instance.kind} puzzles"
        return {**row, "status": "error", "detail": detail, "verified": None}

    solver.prepare()
    start = time.perf_counter()
    outcome = solver.solve(instance.puzzle, limits, seed)
    solve_s = time.perf_counter() - start
    proof = outcome.stats.pop("proof", None)
    row = {**row, **judge(instance, outcome), **measures(outcome, solve_s)}
    if proof is not None:
        row["extra"] = with_proof(row["extra"], proof, instance, proof_dir, deadline=limits.deadline())
    if unique and row["status"] == "solved":
        row.update(uniqueness(solver, instance, row, limits, seed, proof_dir))
    return row


def uniqueness(solver: Any, instance: Instance, row: dict[str, Any], limits: Limits,
               seed: int, proof_dir: str | None = None) -> dict[str, Any]:
    """A solved run's `unique` column, with the second solution or why there is no verdict in `detail`.

    The second solve gets what the first left of the time limit; its time is `unique_s` in `extra`.
    """
    left = Limits(time_s=limits.time_s - row["solve_s"], memory_mb=limits.memory_mb)
    verdict = ask_again(solver, instance.puzzle, row["solution"], left, seed)
    extra = {**json.loads(row["extra"]), "unique_s": verdict.solve_s}
    detail = "; ".join(filter(None, [row.get("detail"), verdict.detail]))
    extra_json = json.dumps(extra, sort_keys=True, default=str)
    proof = verdict.stats.pop("proof", None)
    if proof is not None:
        extra_json = with_proof(extra_json, proof, instance, proof_dir, True, limits.deadline())
    return {"unique": verdict.unique, "detail": detail, "extra": extra_json}


def judge(instance: Instance, outcome: Outcome) -> dict[str, Any]:
    """Turn the encoding's verdict into a run status, with the independent checker's word."""
    known = instance.known_solution
    if outcome.status == SAT:
        problems = kinds.check(instance.puzzle, outcome.solution)
        verdict = {
            "status": "wrong" if problems else "solved",
            "solution": outcome.solution,
            "verified": 0 if problems else 1,
            "detail": "; ".join(problems[:5]),
        }
        if known and not problems:
            verdict["matches_known"] = int(outcome.solution == known)
        return verdict
    if outcome.status == UNSAT:
        if known and not kinds.check(instance.puzzle, known):
            return {"status": "wrong", "verified": 0, "detail": "claimed unsat, but a known solution exists"}
        return {"status": "unsat", "verified": None, "detail": ""}
    if outcome.status == UNSUPPORTED:
        return {"status": "error", "verified": None, "detail": "the encoding reported: unsupported"}
    assert outcome.status == UNKNOWN
    return {"status": "unknown", "verified": None, "detail": outcome.stats.get("reason", "")}


def measures(outcome: Outcome, solve_s: float) -> dict[str, Any]:
    stats = dict(outcome.stats)
    stats.pop("reason", None)
    columns = {k: stats.pop(k) for k in STAT_COLUMNS if k in stats}
    return {"solve_s": solve_s, **columns, "extra": json.dumps(stats, sort_keys=True, default=str)}
