"""One run in this process: solve with an encoding, judge the answer, and return the run's row.

The row holds the run's identity, outcome and the encoding's own measures: `solve_s` (wall) and
`solve_cpu_s` (CPU, `harness.encoding.cpu_time`: every thread of this process and the child processes it
waited for) of the encoding's own work,
from the call of `solve` to its return, with the run's CPU budget starting at that call
(`Limits.cpu_origin`); `check_s`, the checker's CPU time. With `unique`, the encoding is asked
again with its verified solution excluded (`harness.unique.ask_again`) under a budget of its own,
the same limit counted from the second solve's start, and the row's `unique` column says what it
found (`unique_s`: that solve's CPU time). Before the clocks start the heap is collected and frozen
(`settle_heap`), so no run pays for another's garbage. Process-level measures (wall_s, cpu_s, peak_rss_mb) and
the `timeout`/`memout`/`crash` overlays belong to the runner that hosts this call.
"""

from __future__ import annotations

import gc
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from harness import fingerprint, kinds, registry
from harness.encoding import SAT, UNKNOWN, UNSAT, UNSUPPORTED, Limits, Outcome, cpu_time
from harness.extra import merge_extra, write_extra
from harness.instances import Instance
from harness.outcomes import AGAINST_KNOWN, Status, judged
from harness.proof.certify import with_proof
from harness.unique import ask_again

# Outcome.stats keys that have a column of their own; all other stats go to the `extra` JSON.
STAT_COLUMNS = ("build_s", "iterations", "cuts", "conflicts")


def run_key(instance: Instance, encoding: str, options: dict[str, Any], seed: int, limits: Limits,
            code: str = "", unique: bool = False, harness: str = "") -> str:
    """The run's identity: a hash of the puzzle's content, the encoding, its options, the seed, the
    limits, the fingerprints of the code that runs it (`harness.fingerprint`: the encoding's, and
    the harness's) and whether uniqueness was asked.

    The limits are hashed so that a sweep with a longer time limit runs again what timed out under
    a shorter one; the fingerprints, so that changed code (or solver versions) means new runs; a run
    that asked for uniqueness is another run.
    """
    key = [instance.content_hash, encoding, options, seed, limits.time_s, limits.memory_mb, code]
    key += [harness] if harness else []  # keys made before the harness fingerprint stay as they were
    blob = json.dumps(key + ["unique"] * unique, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


def identity(
    instance: Instance, encoding: str, options: dict[str, Any], seed: int, limits: Limits, code: str = "",
    unique: bool = False, harness: str = "",
) -> dict[str, Any]:
    return {
        "run_key": run_key(instance, encoding, options, seed, limits, code, unique, harness),
        "fingerprint": code or None,
        "harness_fingerprint": harness or None,
        "instance": instance.name,
        "source": instance.source,
        "instance_sha256": instance.content_hash,
        "puzzle": instance.kind,
        **size_columns(instance),
        "encoding": encoding,
        "options": json.dumps(options, sort_keys=True),
        "seed": seed,
    }


def size_columns(instance: Instance) -> dict[str, int | None]:
    """`rows` and `cols`, as every run has them, and the same two numbers under the kind's own
    column names where it has them (`Kind.size_columns`: a graph's `vertices` and `edges`)."""
    puzzle = instance.puzzle
    if puzzle is None:
        return {"rows": None, "cols": None}
    return {**dict(zip(kinds.get(puzzle.kind).size_columns, (puzzle.rows, puzzle.cols), strict=True)),
            "rows": puzzle.rows, "cols": puzzle.cols}


def execute(
    instance: Instance, encoding: str, options: dict[str, Any], seed: int, limits: Limits,
    code: dict[str, list[str]] | None = None,
    unique: bool = False,
    answered: Callable[[dict[str, Any]], None] | None = None,
    harness_code: dict[str, list[str]] | None = None,
    proof_dir: str | None = None,
    phase: Callable[[str], None] | None = None,
    check_time_s: float | None = None,
    resolved: bool = False,
) -> dict[str, Any]:
    """Solve one instance and judge the answer; bad input becomes status `error`, never an exception.

    `encoding` is a configuration (`sat`, `sat:cuts=cutset`, a preset), `options` more options on top,
    resolved here for the instance's kind (`registry.Entry.resolve`; one that does nothing there is an
    `error`); `resolved`: `options` are a sweep's, resolved once in its plan, taken as they are.
    The row records the options with the encoding's defaults filled in, as sweeps key them, and
    the fingerprints of this process's code for the encoding (`code`: the modules and imports the
    coordinator found, `fingerprint.Scope.as_dict()`; None: find them here) and for the harness
    (`harness_code`, the same for `fingerprint.harness_scope()`).
    With `unique`, a verified answer is followed by a second solve that excludes it, with a budget
    of its own. `answered(row)` is called with the judged row as soon as the solve is over, before
    any proof check or uniqueness solve (and again after the check), so a runner keeps the answer
    whatever the harness's work after it does (`harness.run.worker`). `phase(name)` is called as
    each part of the run begins (`solve`, `judge`, `check`, `unique`, `unique_check`), so a runner
    can measure and limit each apart.
    A proof the encoding logged (`proof=true`) is checked after the solve with a CPU budget of its
    own (`check_time_s`, default the run's time limit) and its verdict put in `extra`
    (`harness.proof.certify.with_proof`); a check that fails (MemoryError included) leaves the
    answer as it was and says why in `extra["check_error"]`. `proof_dir` also keeps its files.
    """
    phase = phase or (lambda name: None)
    runner = fingerprint.harness_scope() if harness_code is None else fingerprint.Scope(**harness_code)
    harness = fingerprint.loaded(tuple(runner.modules), tuple(runner.imports))
    try:
        if resolved:  # a sweep's spec: resolved once, in the plan
            solver = registry.encodings()[encoding].made(options)
        else:
            found = registry.entry(encoding)
            found = replace(found, given={**found.given, **options})
            solver = registry.encodings()[found.encoding].made(found.resolve(instance.kind).options)
            encoding = found.encoding
    except (ValueError, KeyError) as exc:
        row = identity(instance, encoding, options, seed, limits, unique=unique, harness=harness)
        detail = str(exc) if isinstance(exc, ValueError) else f"unknown encoding {encoding!r}"
        return {**row, "status": Status.ERROR, "detail": detail, "verified": None}
    scope = fingerprint.scope(encoding) if code is None else fingerprint.Scope(**code)
    printed = fingerprint.loaded(tuple(scope.modules), tuple(scope.imports))
    row = identity(instance, encoding, solver.resolved, seed, limits, printed, unique, harness)
    if instance.puzzle is None:
        return {**row, "status": Status.ERROR, "detail": instance.error, "verified": None}
    if not solver.supports(instance.puzzle):
        detail = f"encoding {encoding!r} does not support {instance.kind} puzzles"
        return {**row, "status": Status.ERROR, "detail": detail, "verified": None}

    solver.prepare()
    settle_heap()
    phase("solve")
    # The budget starts here, for the encoding too; its CPU counts the child processes it waited for.
    cpu0, spent0, start = cpu_time(), cpu_time(children=True), time.perf_counter()
    budget = replace(limits, cpu_origin=cpu0)
    outcome = solver.solve(instance.puzzle, budget, seed)
    solve_s, solve_cpu_s = time.perf_counter() - start, cpu_time(children=True) - spent0
    phase("judge")
    proof = outcome.stats.pop("proof", None)
    check0 = cpu_time()
    verdict = {**judge(instance, outcome), "check_s": cpu_time() - check0}
    if instance.known_answer:  # kept in `extra`: an unsat claim matching it is confirmed (analysis.verdicts)
        outcome.stats["known_answer"] = instance.known_answer
    row = {**row, **verdict, **measures(outcome, solve_s, solve_cpu_s)}
    if answered is not None:
        answered(row)
    check_time_s = limits.time_s if check_time_s is None else check_time_s
    if proof is not None:
        phase("check")
        row["extra"] = checked(row["extra"], proof, instance, proof_dir, False, check_time_s, solver)
        if answered is not None:
            answered(row)  # with the check's verdict, should the uniqueness solve end the run
    if unique and row["status"] == Status.SOLVED:
        phase("unique")
        row.update(uniqueness(solver, instance, row, limits, seed, proof_dir,
                              lambda: phase("unique_check"), check_time_s))
    return row


def checked(extra: str, proof: Any, instance: Instance, proof_dir: str | None, unique: bool,
            check_time_s: float, solver: Any, answer: str | None = None) -> str:
    """`extra` with the proof's check (`with_proof`, given the run's encoding, its options and, for
    `unique`, its `answer`) within `check_time_s` of CPU from now; a check that fails leaves the answer
    alone, its proof `unchecked`, and says why in `check_error` (`unique_check_error` for `unique`)."""
    try:
        return with_proof(extra, proof, instance, proof_dir, unique, cpu_time() + check_time_s,
                          options=solver.options, answer=answer, encoding=solver.name)
    except MemoryError:
        failure = "MemoryError (an allocation the kernel refused)"  # the checker's hoard is gone by now
    except Exception as exc:  # noqa: BLE001 - the checker's fault is recorded, never the encoding's
        failure = f"{type(exc).__name__}: {exc}"
    prefix = "unique_" if unique else ""
    said = {prefix + "check_error": failure, prefix + "proof": f"unchecked: the check ended in {failure}"}
    return merge_extra(extra, said)


def settle_heap() -> None:
    """Collect the garbage left so far and freeze what survives, before a run's clocks start.

    A full collection scans every object the process holds (every import, every kept grid shape):
    10-20 ms in a worker, charged to whichever run's allocations crossed the collector's threshold,
    so one run paid for the garbage of the runs before it (sat on slither-hard: gen-2 collections
    were a tenth of its CPU time). Frozen objects are left out of every later collection; what a
    run makes is still collected, by the next run's call at the latest.
    """
    gc.collect()
    gc.freeze()


def uniqueness(solver: Any, instance: Instance, row: dict[str, Any], limits: Limits,
               seed: int, proof_dir: str | None = None, checking: Callable[[], None] | None = None,
               check_time_s: float | None = None) -> dict[str, Any]:
    """A solved run's `unique` column, with the second solution or why there is no verdict in `detail`.

    The second solve has a budget of its own: the run's time limit in CPU time, counted from its own
    start (`ask_again` sets the origin). Its CPU time is `unique_s`, its wall time `unique_wall_s`
    in `extra`; one that answers past its budget gives no verdict, as a late first answer gives none.
    """
    verdict = ask_again(solver, instance.puzzle, row["solution"], limits, seed)
    unique, unique_s = verdict.unique, verdict.solve_cpu_s
    said = verdict.detail
    if unique is not None and unique_s > limits.time_s:
        unique = None
        said = (f"uniqueness unknown: the second solve used {unique_s:.2f} s of CPU, over its own "
                f"{limits.time_s:g} s budget" + (f" ({said})" if said else ""))
    detail = "; ".join(filter(None, [row.get("detail"), said]))
    extra_json = merge_extra(row["extra"], {"unique_wall_s": verdict.solve_s})
    proof = verdict.stats.pop("proof", None)
    if proof is not None:  # checked with a budget of its own, after the second solve
        if checking is not None:
            checking()
        check_time_s = limits.time_s if check_time_s is None else check_time_s
        extra_json = checked(extra_json, proof, instance, proof_dir, True, check_time_s, solver,
                             row["solution"])
    return {"unique": unique, "unique_s": unique_s, "detail": detail, "extra": extra_json}


def judge(instance: Instance, outcome: Outcome) -> dict[str, Any]:
    """Turn the encoding's verdict into a run status, with the independent checker's word."""
    known = instance.known_solution
    if outcome.status == SAT:
        problems = kinds.check(instance.puzzle, outcome.solution)
        verdict = {
            "status": judged(SAT, accepted=not problems),
            "solution": outcome.solution,
            "verified": 0 if problems else 1,
            "detail": "; ".join(problems[:5]),
        }
        if known and not problems:
            verdict["matches_known"] = int(outcome.solution == known)
        if instance.known_answer == UNSAT and not problems:
            recorded = kinds.known_word(instance.puzzle, UNSAT)
            verdict["detail"] = f"the checker accepts it, yet the instance is recorded as {recorded}"
        return verdict
    if outcome.status == UNSAT:
        if known and not kinds.check(instance.puzzle, known):
            detail = f"{AGAINST_KNOWN}, but a known solution exists"
            return {"status": Status.WRONG, "verified": 0, "detail": detail}
        if instance.known_answer == SAT:
            word = kinds.known_word(instance.puzzle, SAT)
            detail = f"{AGAINST_KNOWN}, but the instance is known to be {word}"
            return {"status": Status.WRONG, "verified": 0, "detail": detail}
        return {"status": judged(UNSAT), "verified": None, "detail": outcome.stats.get("reason", "")}
    if outcome.status == UNSUPPORTED:
        return {"status": judged(UNSUPPORTED), "verified": None,
                "detail": "the encoding reported: unsupported"}
    assert outcome.status == UNKNOWN
    return {"status": judged(UNKNOWN), "verified": None, "detail": outcome.stats.get("reason", "")}


def measures(outcome: Outcome, solve_s: float, solve_cpu_s: float | None = None) -> dict[str, Any]:
    return {"solve_s": solve_s, "solve_cpu_s": solve_cpu_s, **stat_columns(outcome.stats)}


def stat_columns(stats: dict[str, Any]) -> dict[str, Any]:
    """An encoding's statistics as the row holds them: STAT_COLUMNS in their columns, the rest in `extra`.

    `build_s` is CPU time (`harness.encoding.cpu_time`, as every phase statistic is); `extra`'s
    `build_clock` says so, since the column is wall time in rows made before it was."""
    stats = dict(stats)
    stats.pop("reason", None)
    columns = {k: stats.pop(k) for k in STAT_COLUMNS if k in stats}
    if "build_s" in columns:
        stats["build_clock"] = "cpu"
    return {**columns, "extra": write_extra(stats)}
