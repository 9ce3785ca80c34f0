"""Mutation testing of the DRAT checker: real proofs of every kind, broken on purpose, judged by two checkers.

The corpus: CaDiCaL's refutations as the `sat` encoding logs them, one or two per kind (a solved
puzzle's second solve with its answer excluded: the uniqueness proof; a non-Hamiltonian graph's
first solve). Each proof is mutated (a lemma dropped, a literal flipped, two lemmas swapped, a lemma
duplicated, the proof truncated, a byte of the binary proof changed), seeded, and every mutant is
judged by both of our engines and by the reference, dratify 0.1.10 with its native engine
(cdclkit-native), deletions not applied as ours (every clause kept). Ours must reject every mutant
the reference rejects, and both must accept every genuine proof.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from harness import registry, sets
from harness.encoding import Limits
from harness.proof.drat import ProofFormatError, binary_to_text, check, read_cnf, read_drat

CORPUS = [
    ("masyu-smoke", "janko071"), ("masyu-smoke", "janko-at-123"), ("slither-smoke", "janko-sl-0021"),
    ("walls-smoke", "janko-at-001"), ("marupeke-smoke", "marupeke-6x6-s2026-000"),
    ("graph-smoke", "graph-petersen-10-s2026-000"), ("graph-hard", "graph-flower-20-s2026-000"),
    ("graph-hard", "graph-gp-nonham-22-s2026-000"),
]
MUTANTS = 10  # of each sort, per proof
SORTS = ("drop", "flip", "swap", "duplicate", "truncate", "byte")


@cache
def reference():
    """dratify's `check_proof` with its native engine registered."""
    dratify = pytest.importorskip("dratify")
    import cdclkit_native

    dratify.register_native(cdclkit_native)
    assert dratify.native_implementation() is cdclkit_native
    return dratify


@cache
def genuine(spec: str, name: str):
    """The CNF text, binary DRAT and kind of one refutation, as `sat` with `proof=true` logs it."""
    instance = next(i for i in sets.resolve(spec, None) if i.name == name)
    solver = registry.create("sat", proof="true")
    limits = Limits(time_s=60.0)
    outcome = solver.solve(instance.puzzle, limits, 0)
    if outcome.status == "sat":  # the uniqueness question: no second answer
        outcome = solver.solve(instance.puzzle, limits, 0, exclude=(outcome.solution,))
    assert outcome.status == "unsat"
    proof = outcome.stats["proof"]
    return proof.dimacs(), proof.drat, instance.kind


def ours(cnf_text: str, drat: bytes) -> dict[str, bool]:
    """Our verdicts, per engine: a proof that cannot be read is rejected by both."""
    cnf = read_cnf("m.cnf", cnf_text)
    try:
        steps = read_drat("m.drat", drat)
    except ProofFormatError:
        return {"minisat": False, "python": False}
    return {engine: check(cnf, steps, engine=engine).ok for engine in ("minisat", "python")}


def theirs(cnf_text: str, drat_text: str) -> bool:
    dratify = reference()
    try:
        return dratify.check_proof(dratify.parse_dimacs(cnf_text), drat_text, apply_deletions=False,
                                   engine="native").ok
    except ValueError:  # a proof dratify cannot read or interpret: rejected
        return False


def mutate(lines: list[str], sort: str, rng: random.Random) -> list[str]:
    """One mutant of a text proof (one step a line, the empty clause `0` among them)."""
    lemmas = [k for k, line in enumerate(lines) if not line.startswith("d ") and line != "0"]
    k = rng.choice(lemmas)
    out = list(lines)
    if sort == "drop":
        del out[k]
    elif sort == "flip":
        lits = out[k].split()
        j = rng.randrange(len(lits) - 1)
        lits[j] = str(-int(lits[j]))
        out[k] = " ".join(lits)
    elif sort == "swap":
        j = rng.choice([m for m in lemmas if m != k] or [k])
        out[k], out[j] = out[j], out[k]
    elif sort == "duplicate":
        out.insert(rng.randrange(len(out)), out[k])
    elif sort == "truncate":
        out = out[:k + 1]
    return out


@pytest.mark.parametrize("spec, name", CORPUS, ids=[name for _, name in CORPUS])
def test_ours_rejects_every_mutant_the_reference_rejects(spec, name):
    cnf_text, drat, kind = genuine(spec, name)
    text = binary_to_text(drat)
    assert ours(cnf_text, drat) == {"minisat": True, "python": True}, f"{kind} {name}: a genuine proof"
    assert theirs(cnf_text, text), f"{kind} {name}: the reference rejects the genuine proof"
    lines = text.splitlines()
    assert "0" in lines  # the empty clause (CaDiCaL may write deletions after it)
    rng = random.Random(f"mutants {name}")
    rejected, missed = 0, []
    for sort in SORTS:
        for n in range(MUTANTS):
            if sort == "byte":
                data = bytearray(drat)
                at = rng.randrange(len(data))
                data[at] ^= rng.randrange(1, 256)
                mutant = bytes(data)
                try:
                    mutant_text = binary_to_text(mutant)
                except ProofFormatError:
                    mutant_text = None  # unreadable: ours rejects it, whatever the reference would say
            else:
                mutant_text = "\n".join(mutate(lines, sort, rng)) + "\n"
                mutant = mutant_text.encode()
            verdicts = ours(cnf_text, mutant)
            if mutant_text is None:
                assert verdicts == {"minisat": False, "python": False}
                rejected += 1
                continue
            if not theirs(cnf_text, mutant_text):
                rejected += 1
                if any(verdicts.values()):
                    missed.append(f"{sort} #{n}: {verdicts}")
    assert not missed, f"{kind} {name}: accepted by ours, rejected by dratify: {missed}"
    # small proofs have few lemmas whose loss or change matters: half a sort's worth must be caught
    assert rejected >= MUTANTS // 2, f"{kind} {name}: only {rejected} mutants rejected"
