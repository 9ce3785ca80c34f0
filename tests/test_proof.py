"""Proofs (harness.proof): CaDiCaL's DRAT verified by our checker, broken proofs and wrong cuts caught."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from helpers import bundled

from harness import kinds, registry
from harness.analysis.verdicts import unsat_verdicts
from harness.encoding import Limits
from harness.instances import Instance
from harness.proof.__main__ import main
from harness.proof.certify import CERTIFIED, certify, cnf_of, write
from harness.proof.cuts import check_cuts
from harness.proof.drat import Cnf, ProofFormatError, binary_to_text, check, read_cnf, read_drat
from harness.prooflog import Proof, trace
from harness.run.execute import execute

LIMITS = Limits(time_s=30.0)


@pytest.fixture(scope="module")
def pigeons():
    """PHP(5 pigeons, 4 holes) and CaDiCaL 1.9.5's DRAT refutation of it, as text lines."""
    from pysat.examples.genhard import PHP
    from pysat.solvers import Solver

    cnf = PHP(4)
    with Solver(name="cadical195", bootstrap_with=cnf.clauses, with_proof=True) as solver:
        assert solver.solve() is False
        data = trace(solver)
    return Cnf(cnf.nv, cnf.clauses), binary_to_text(data).splitlines()


def steps(lines: list[str]):
    return read_drat("proof.drat", ("\n".join(lines) + "\n").encode())


def test_cadicals_pigeonhole_proof_is_verified_by_rup_alone(pigeons):
    cnf, lines = pigeons
    result = check(cnf, steps(lines), rat=False, deletions="honour")
    assert result.ok, result.reason
    assert result.lemmas > 10 and result.rat == 0


def test_a_truncated_proof_is_rejected(pigeons):
    cnf, lines = pigeons
    assert lines[-1] == "0"
    result = check(cnf, steps(lines[: len(lines) // 2]))
    assert not result.ok and result.reason.startswith("no empty clause")


def test_an_emptied_proof_is_rejected(pigeons):
    cnf, _ = pigeons
    result = check(cnf, steps([]))
    assert not result.ok and result.reason.startswith("no empty clause")


def test_a_corrupted_lemma_is_rejected_with_its_line(pigeons):
    cnf, lines = pigeons
    first = next(k for k, line in enumerate(lines) if not line.startswith("d"))
    bad = [*lines[:first], "1 0", *lines[first:]]  # pigeon 1 in hole 1: nothing at the root implies it
    result = check(cnf, steps(bad))
    assert not result.ok
    assert result.reason.startswith(f"proof line {first + 1}: lemma `1 0` is neither RUP nor RAT")


def test_the_empty_clause_alone_does_not_refute_a_formula_propagation_cannot(pigeons):
    cnf, _ = pigeons
    assert not check(cnf, steps(["0"])).ok
    assert check(Cnf(1, [[1], [-1]]), steps(["0"])).ok


def test_a_rat_lemma_is_accepted_and_refused_without_rat():
    # x1 v x2 with no clause holding -3: `3 0` is RAT on 3 (no resolvent to check), not RUP.
    cnf = Cnf(3, [[1, 2], [-1, 2], [1, -2], [-1, -2]])
    proof = steps(["3 0", "1 0", "0"])
    assert check(cnf, proof).ok and check(cnf, proof).rat == 1
    assert "RAT not allowed" in check(cnf, proof, rat=False).reason


def test_bad_files_are_one_line_naming_file_and_line(tmp_path, capsys):
    (tmp_path / "f.cnf").write_text("p cnf 2 1\n1 3 0\n")
    (tmp_path / "p.drat").write_text("0\n")
    assert main([str(tmp_path / "f.cnf"), str(tmp_path / "p.drat")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "f.cnf:2: literal 3 beyond" in err
    with pytest.raises(ProofFormatError, match=r"p.drat:1: not a DRAT line"):
        read_drat(tmp_path / "p.drat", b"1 x 0\n")
    with pytest.raises(ProofFormatError, match="no terminating 0"):
        read_drat(tmp_path / "p.drat", b"1 2 0\n-1 2")


def unique_proof(instance, **options):
    """The unsat second solve of `instance` with its answer excluded: its logged proof, answer and options."""
    solver = registry.create("sat", proof="true", **options)
    first = solver.solve(instance.puzzle, LIMITS, 0)
    again = solver.solve(instance.puzzle, LIMITS, 0, exclude=(first.solution,))
    assert again.status == "unsat"
    return again.stats["proof"], first.solution, solver.options


@pytest.mark.parametrize("name, collection, options", [
    ("janko071", "masyu-janko-java", {}),  # two sub-loop cuts in its second solve
    ("janko-at-123", "masyu-janko-at", {"cuts": "cutset"}),
    ("janko-at-001", "walls-janko", {}),
])
def test_a_real_proof_of_no_second_answer_is_certified_and_checks(name, collection, options, tmp_path):
    instance = bundled(name, collection)
    proof, answer, chosen = unique_proof(instance, **options)
    assert certify(proof, instance.puzzle, options=chosen, answer=answer)["verdict"] == CERTIFIED
    cnf_path, drat_path = write(proof, tmp_path, name)
    cnf = read_cnf(cnf_path)
    direct = cnf_of(proof)  # what a check in the solving process reads, without the text
    assert (cnf.num_vars, cnf.clauses, cnf.lines, cnf.notes, cnf.comments) == (
        direct.num_vars, direct.clauses, direct.lines, direct.notes, direct.comments)
    assert cnf.num_vars == max(abs(lit) for clause in cnf.clauses for lit in clause)
    assert sum("c exclude" in notes for notes in cnf.notes) == 1
    (tmp_path / "p.txt").write_text(kinds.write_text(instance.puzzle))
    puzzle = ["--puzzle", str(tmp_path / "p.txt")]
    assert main([str(cnf_path), str(drat_path), *puzzle, "--answer", answer]) == 0
    assert main([str(cnf_path), str(drat_path), *puzzle]) == 1  # an exclusion in a proof of unsat
    assert main([str(cnf_path), str(drat_path)]) == 3  # refuted, but nothing of the CNF judged
    lines = drat_path.read_text().splitlines(keepends=True)
    drat_path.write_text("".join(lines[: lines.index("0\n")]))  # cut before the empty clause
    assert main([str(cnf_path), str(drat_path)]) == 1


def test_a_cut_that_removes_the_only_answer_is_caught():
    instance = bundled("janko071")
    proof, answer, _ = unique_proof(instance)
    cnf = read_cnf("u.cnf", proof.dimacs())
    assert check(cnf, read_drat("u.drat", proof.drat)).ok  # the refutation itself is fine...
    wrong = read_cnf("w.cnf", proof.dimacs().replace("c exclude", "c cut"))
    result = check_cuts(wrong, instance.puzzle)  # ...but passed off as a cut, the answer's exclusion is wrong
    assert not result.ok
    assert "forbids a loop the checker accepts as an answer" in result.problems[0]
    passed_off = Proof(proof.clauses, {k: "cut" for k in proof.marks}, proof.edges, proof.drat)
    verdict = certify(passed_off, instance.puzzle)["verdict"]
    assert verdict.startswith("invalid CNF") and "forbids a loop the checker accepts" in verdict


def test_cut_clauses_that_are_not_valid_for_every_answer_are_named():
    instance = bundled("janko001")
    text = unique_proof(instance)[0].dimacs()
    cnf = read_cnf("u.cnf", text)
    edges = {lit for clause in cnf.clauses for lit in clause if lit > 0}
    lines = [line for line in text.splitlines() if not line.startswith("p ")]
    extra = ["c cut", "1 0", "c cut", "-1 -2 0", "c cut", "1 -2 0"]
    text = "\n".join([*lines[:1], f"p cnf {max(edges)} {len(cnf.clauses) + 3}", *lines[1:], *extra]) + "\n"
    problems = check_cuts(read_cnf("x.cnf", text), instance.puzzle).problems
    assert len(problems) == 3
    assert "does not separate two demands" in problems[0]
    assert "not one cycle" in problems[1]
    assert "mixes" in problems[2]


def test_execute_records_a_certified_uniqueness_proof_and_writes_its_files(tmp_path):
    instance = bundled("janko071")
    row = execute(instance, "sat", {"proof": "true"}, 0, LIMITS, unique=True, proof_dir=str(tmp_path))
    extra = json.loads(row["extra"])
    assert row["unique"] == 1 and extra["unique_proof"] == CERTIFIED
    assert extra["unique_proof_lemmas"] > 0 and extra["unique_proof_check_cpu_s"] >= 0
    assert (tmp_path / "janko071.unique.cnf").is_file() and (tmp_path / "janko071.unique.drat").is_file()


def test_an_unsat_run_logs_a_certified_proof(tmp_path):
    # a black pearl in the middle of 3x3 needs two cells straight on each of its legs: no answer
    puzzle = kinds.read_text("3 3\n- - -\n- b -\n- - -\n", kind="masyu")
    row = execute(Instance(name="none", source="crafted", puzzle=puzzle), "sat", {"proof": "true"}, 0, LIMITS,
                  proof_dir=str(tmp_path))
    assert row["status"] == "unsat"
    assert json.loads(row["extra"])["proof"] == CERTIFIED
    assert (tmp_path / "none.cnf").is_file() and (tmp_path / "none.drat").read_text().endswith("0\n")


def test_proof_is_refused_where_the_solver_cannot_log_one():
    with pytest.raises(ValueError, match="proof=true needs solver=cadical195, not solver=glucose4"):
        registry.create("sat", proof="true", solver="glucose4")
    with pytest.raises(ValueError, match="has no option proof"):  # its helper's clauses are not recorded
        registry.create("propagator", proof="true")


def test_a_certified_claim_is_counted_apart_and_a_rejected_proof_is_suspect_never_confirmed():
    runs = pd.DataFrame({
        "instance": ["q1", "q2", "q2", "q3", "q3", "q4"],
        "encoding": ["sat", "sat", "inference", "sat", "inference", "sat"],
        "status": ["unsat"] * 6,
        "extra": [json.dumps({"proof": CERTIFIED}), "{}", "{}", json.dumps({"proof": "proof rejected: x"}),
                  "{}", json.dumps({"proof": "unchecked: check stopped at the time limit"})],
    })
    # q3: another family agrees, yet sat's proof was rejected: suspect, and it confirms nothing
    assert list(unsat_verdicts(runs)) == ["certified", "confirmed", "confirmed", "suspect", "unproven",
                                          "unproven"]


def test_a_check_past_its_deadline_stops_unverified(pigeons):
    cnf, lines = pigeons
    result = check(cnf, steps(lines), deadline=0.0)
    assert not result.ok and result.reason.startswith("check stopped at the time limit at proof line 1")
    instance = bundled("janko071")
    proof, answer, _ = unique_proof(instance)
    verdict = certify(proof, instance.puzzle, deadline=0.0, answer=answer)["verdict"]
    assert verdict.startswith("unchecked: check stopped")


def test_deleted_clauses_are_kept_where_a_lemma_needs_them():
    # CaDiCaL 1.9.5 restores clauses it deleted, unlogged, when a clause arrives after a solve: a proof
    # that uses a clause after deleting it fails with deletions honoured, and passes with every clause kept.
    text = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\nc cut\n-1 -2 0\n"
    proof = steps(["d 1 2 0", "2 0", "0"])
    auto = check(read_cnf("i.cnf", text), proof, engine="python")
    assert auto.ok and auto.restored_at == 2 and auto.kept_all
    assert check(read_cnf("i.cnf", text), proof).kept_all  # the minisat engine keeps every clause
    honoured = check(read_cnf("i.cnf", text), proof, deletions="honour")
    assert not honoured.ok and honoured.reason.startswith("proof line 2: lemma `2 0`")
    # every clause kept is sound with RAT lemmas too (here `3`, a new variable): RAT only gets stricter
    for engine in ("minisat", "python"):
        result = check(read_cnf("i.cnf", text), steps(["3 0", "d 1 2 0", "2 0", "0"]), engine=engine)
        assert result.ok and result.rat == 1 and result.kept_all
