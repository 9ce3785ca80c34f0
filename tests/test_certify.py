"""Seeded faults in a proof-logging run (a wrong cut, base clause or exclusion) end as `suspect`.

Each fault is put into `sat`'s own code for one run (monkeypatch), so the DRAT refutation the
solver writes is genuine; the run goes through the real pipeline (execute, SQLite, the analysis,
the report), and only the certificate's judging of the CNF can tell.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from helpers import bundled

import loopbench_encodings.cegar.model as model_module
import loopbench_encodings.sat as sat_module
from harness.analysis import results
from harness.analysis.summary import summarize
from harness.analysis.verdicts import disagreements
from harness.encoding import Limits
from harness.proof.certify import CERTIFIED, cnf_of, write
from harness.proof.cuts import check_cuts
from harness.prooflog import Proof
from harness.report import __main__ as report_cli
from harness.report import data
from harness.run.execute import execute
from harness.run.store import Store
from loopbench_encodings import loop
from loopbench_encodings.loop.arrays import LoopArrays

LIMITS = Limits(time_s=30.0)
OPTIONS = {"proof": "true"}
LABEL = "sat[proof=true]"  # the analysis's name for these runs: sat, and how they differ from its defaults


def answer_of(instance) -> str:
    row = execute(instance, "sat", {}, 0, LIMITS)
    assert (row["status"], row["verified"]) == ("solved", 1)
    return row["solution"]


def cut_the_answer(monkeypatch) -> None:
    """The cut code's fault: a complete loop, the answer, is cut as if it were a wrong sub-loop."""
    real = LoopArrays.split

    def split(self, chosen, family, components="array"):
        cuts, whole = real(self, chosen, family, components)
        return ([[-i - 1 for i in chosen]], []) if not cuts and chosen else (cuts, whole)

    monkeypatch.setattr(LoopArrays, "split", split)


def forbid_an_edge(monkeypatch, answer: str) -> None:
    """The base clauses' fault: one more clause, forbidding an edge the answer uses."""
    real = model_module.loop_clause_parts

    def loop_clause_parts(puzzle, problem, implied=False, keep=True, free_only=False):
        degree, rest = real(puzzle, problem, implied, keep, free_only)
        return degree, [*rest, [-problem.edge_ids(answer)[0] - 1]]

    monkeypatch.setattr(model_module, "loop_clause_parts", loop_clause_parts)


def exclude_too_much(monkeypatch) -> None:
    """The exclusion's fault: one literal short, so it rules out every answer sharing the rest."""
    real = model_module.exclusion
    monkeypatch.setattr(model_module, "exclusion", lambda problem, solution: real(problem, solution)[1:])


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    """A database of the three seeded runs, and an honest certified uniqueness run beside them."""
    # without their stored solutions, so a wrong unsat is not caught at run time but left to the analysis
    cut, base, excluded, honest = (replace(bundled(n), known_solution="")
                                   for n in ("janko071", "janko001", "janko002", "janko003"))
    rows = {}
    with pytest.MonkeyPatch.context() as mp:
        cut_the_answer(mp)
        rows["cut"] = execute(cut, "sat", OPTIONS, 0, LIMITS)
    answer = answer_of(base)
    with pytest.MonkeyPatch.context() as mp:
        forbid_an_edge(mp, answer)
        rows["base"] = execute(base, "sat", OPTIONS, 0, LIMITS)
    with pytest.MonkeyPatch.context() as mp:
        exclude_too_much(mp)
        rows["exclude"] = execute(excluded, "sat", OPTIONS, 0, LIMITS, unique=True)
    rows["honest"] = execute(honest, "sat", OPTIONS, 0, LIMITS, unique=True)
    db = tmp_path_factory.mktemp("seeded") / "runs.sqlite"
    with Store(db) as store:
        for row in rows.values():
            assert store.insert(row)
    return rows, db


def test_each_seeded_fault_is_caught_by_the_certificate_alone(seeded):
    rows, _ = seeded
    for name in ("cut", "base"):
        extra = json.loads(rows[name]["extra"])
        assert rows[name]["status"] == "unsat", name  # the fault made the puzzle look unsat...
        assert extra["proof_lemmas"] >= 0 and extra["proof"].startswith("invalid CNF"), name  # ...DRAT held
    assert "forbids a loop the checker accepts as an answer" in json.loads(rows["cut"]["extra"])["proof"]
    assert "base clauses the encoding's code does not make" in json.loads(rows["base"]["extra"])["proof"]
    unique = json.loads(rows["exclude"]["extra"])
    assert rows["exclude"]["unique"] == 1
    assert "not the negation of the reported answer" in unique["unique_proof"]
    assert json.loads(rows["honest"]["extra"])["unique_proof"] == CERTIFIED


def test_each_seeded_fault_ends_suspect_in_the_analysis(seeded):
    _, db = seeded
    runs = results.load(db).set_index("instance")
    assert runs.loc["janko071", "unsat_verdict"] == "suspect"
    assert runs.loc["janko001", "unsat_verdict"] == "suspect"
    assert runs.loc["janko002", "unique_verdict"] == "suspect"
    assert runs.loc["janko003", "unique_verdict"] == "certified"
    assert summarize(results.load(db)).loc["sat", "suspect"] == 2  # the two unsat claims; none unproven
    assert summarize(results.load(db)).loc["sat", "unproven"] == 0
    found = disagreements(results.load(db)).set_index("instance")
    assert sorted(found.index) == ["janko001", "janko002", "janko071"]
    assert "uniqueness proof invalid CNF" in found.loc["janko002", "suspect"]
    assert "unsat proof invalid CNF" in found.loc["janko071", "suspect"]


def test_each_seeded_fault_is_visible_in_the_report(seeded, tmp_path):
    _, db = seeded
    (part,) = data.sets(str(db))
    assert part.summary.loc[LABEL, "suspect"] == 2
    assert sorted(part.disagreements["instance"]) == ["janko001", "janko002", "janko071"]
    shown = {row.name: row for row in part.rows}
    assert shown["janko071"].by_config[LABEL].status == "suspect" and shown["janko071"].flagged
    assert shown["janko002"].flagged and not shown["janko003"].flagged
    assert report_cli.main(["--db", str(db), "--out", str(tmp_path), "--draw", "0"]) == 0
    page = (tmp_path / "index.html").read_text()
    assert "st-suspect" in page and "not the negation of the reported answer" in page


def test_a_cut_is_judged_on_the_kinds_demands_not_the_encodings_loop_problem(monkeypatch):
    """A loop problem demanding a cell no pearl is on would make "visit it" look valid: not to the checker."""
    instance = bundled("janko071")
    puzzle = instance.puzzle
    real = loop.problem
    problem = real(puzzle)
    free = next(v for v in range(problem.graph.num_vertices) if v not in problem.required)
    pearl = problem.required[0]
    monkeypatch.setattr(loop, "problem", lambda p: type(problem)(problem.graph, (pearl, free), problem.hits))
    solver = sat_module.Sat(proof="true")
    answer = execute(instance, "sat", {}, 0, LIMITS)["solution"]
    proof = solver.solve(puzzle, LIMITS, 0, exclude=(answer,)).stats["proof"]
    visit = [e + 1 for e in problem.graph.incident[free]]  # some edge at the free cell: a demand only there
    marks = {**proof.marks, len(proof.clauses): "cut"}
    seeded = Proof([*proof.clauses, visit], marks, proof.edges, proof.drat)
    problems = check_cuts(cnf_of(seeded), puzzle).problems
    assert len(problems) == 1 and "does not separate two demands" in problems[0]


def test_without_the_puzzle_a_refutation_is_no_certificate_and_says_what_went_unjudged(tmp_path, capsys):
    """Two `c cut` clauses that contradict each other are refuted by `0`: only judging them catches it."""
    from harness import kinds
    from harness.proof.__main__ import EXIT_REJECTED, EXIT_UNJUDGED, main

    instance = bundled("janko071")
    first = execute(instance, "sat", {}, 0, LIMITS)["solution"]
    proof = sat_module.Sat(proof="true").solve(instance.puzzle, LIMITS, 0, exclude=(first,)).stats["proof"]
    seeded = Proof([*proof.clauses, [1], [-1]], {k: m for k, m in proof.marks.items() if m != "exclude"}
                   | {len(proof.clauses): "cut", len(proof.clauses) + 1: "cut"}, proof.edges, b"0\n")
    cnf, drat = write(seeded, tmp_path, "two-cuts")
    assert main([str(cnf), str(drat)]) == EXIT_UNJUDGED == 3
    out = capsys.readouterr().out
    assert f"{len(seeded.clauses)} clauses unjudged" in out and "not a certificate" in out
    (tmp_path / "p.txt").write_text(kinds.write_text(instance.puzzle))
    assert main([str(cnf), str(drat), "--puzzle", str(tmp_path / "p.txt")]) == EXIT_REJECTED
    assert "invalid CNF" in capsys.readouterr().out
