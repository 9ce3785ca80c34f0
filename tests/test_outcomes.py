"""One vocabulary for outcomes: each layer's words as the docs give them, composed once, read alike."""

from __future__ import annotations

import ast
import re
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from harness.analysis.summary import STATUS_COLUMNS, shown_status, summarize
from harness.outcomes import (
    LATE,
    PROOF_CERTIFIED,
    STOPS,
    Answer,
    Shown,
    Status,
    Verdict,
    judged,
    rejected,
    shown,
)
from harness.report.page import LEGEND
from harness.run.store import Store

ROOT = Path(__file__).resolve().parents[1]
FORMATS = (ROOT / "docs" / "FORMATS.md").read_text()
PLUGINS = (ROOT / "docs" / "PLUGINS.md").read_text()


VOCABULARY = {w.value for layer in (Answer, Status, Verdict, Shown) for w in layer}


def words(text: str) -> list[str]:
    """The outcome words a passage of the docs names, in its order."""
    return [w for w in re.findall(r"`([a-z-]+)`", text) if w in VOCABULARY]


def test_the_stored_statuses_are_the_table_of_formats_md():
    section = FORMATS.split("### Statuses, in layers")[1]
    table = next(part for part in section.split("\n\n") if part.startswith("| status |"))
    listed = [row.split("|")[1].strip().strip("`") for row in table.splitlines()[2:]]
    assert listed == [s.value for s in (Status.SOLVED, Status.WRONG, Status.UNSAT, Status.UNKNOWN,
                                        Status.TIMEOUT, Status.MEMOUT, Status.CRASH, Status.ERROR)]
    assert set(listed) == {s.value for s in Status}


def test_an_encodings_words_are_the_plugin_contracts():
    said = PLUGINS.split("is the solver's word only:")[1].split("The runner overlays")[0]
    assert words(said) == [a.value for a in Answer]
    overlaid = PLUGINS.split("The runner overlays what")[1].split("; an encoding")[0]
    assert words(overlaid) == [*(s.value for s in STOPS), Status.ERROR, Status.SOLVED, Status.WRONG]


def test_the_verdicts_are_formats_mds_in_their_order():
    judged_words = FORMATS.split("first match wins:")[1].split("A suspect claim is")[0]
    firsts = [w for w in words(judged_words) if w in {v.value for v in Verdict}]
    assert list(dict.fromkeys(firsts)) == [v.value for v in Verdict]  # `certified` comes twice


@pytest.mark.parametrize("verdict, expected", [
    (Verdict.REFUTED, Shown.WRONG), (Verdict.SUSPECT, Shown.SUSPECT), (Verdict.CERTIFIED, Shown.CERTIFIED),
    (Verdict.CONFIRMED, Shown.UNSAT), (Verdict.UNPROVEN, Shown.UNPROVEN), (None, Shown.UNSAT),
])
def test_an_unsat_claim_shows_as_its_verdict_says(verdict, expected):
    assert shown("unsat", verdict) is expected
    assert shown(Status.UNSAT, None if verdict is None else verdict.value) is expected


def test_every_other_status_shows_as_stored_whatever_the_verdict():
    for status in set(Status) - {Status.UNSAT}:
        for verdict in (None, *Verdict):
            assert shown(status, verdict).value == status.value
    with pytest.raises(ValueError, match="'solve'"):
        shown("solve")
    with pytest.raises(ValueError, match="'disproved'"):
        shown("unsat", "disproved")


def test_the_checker_judges_an_answer_and_the_runner_overlays_it():
    assert judged("sat", accepted=True) is Status.SOLVED
    assert judged(Answer.SAT, accepted=False) is Status.WRONG
    said = [judged(a) for a in ("unsat", "unknown", "unsupported")]
    assert said == [Status.UNSAT, Status.UNKNOWN, Status.ERROR]
    with pytest.raises(ValueError):
        judged("solved")  # a run's word, not an encoding's
    assert Status.WRONG not in LATE and set(LATE) | {Status.WRONG} <= set(Status)


def test_a_proof_word_is_a_rejection_unless_certified_or_unchecked():
    assert not rejected(PROOF_CERTIFIED) and not rejected("unchecked: check stopped at the time limit")
    assert rejected("proof rejected: proof line 3: lemma 1 2 0 is neither RUP nor RAT")
    assert not rejected(None) and not rejected(float("nan"))


def test_the_summary_has_a_column_per_shown_status_and_counts_a_refuted_claim_as_wrong():
    assert STATUS_COLUMNS == tuple(Shown)
    runs = pd.DataFrame({
        "encoding": ["a", "a", "b", "b"], "instance": ["p", "q", "p", "q"],
        "instance_sha256": ["p", "q", "p", "q"],
        "status": ["unsat", "unsat", "solved", "timeout"], "verified": [None, None, 1, None],
        "solve_s": [0.1, 0.2, 0.3, 2.0], "solve_cpu_s": [0.1, 0.2, 0.3, 2.0], "time_limit_s": [1.0] * 4,
        "options": ["{}"] * 4, "solution": ["", "", "x", ""],
    })
    assert list(shown_status(runs)) == ["wrong", "unproven", "solved", "timeout"]
    table = summarize(runs)
    assert list(table.columns[2:2 + len(Shown)]) == [s.value for s in Shown]
    assert (table.loc["a", "wrong"], table.loc["a", "unproven"], table.loc["b", "solved"]) == (1, 1, 1)


def test_the_report_explains_every_shown_status():
    assert [name for name, _ in LEGEND if name not in set(Shown)] == []
    assert {Shown(name) for name, _ in LEGEND} == set(Shown)
    assert all(text.startswith(f"{name}: ") for name, text in LEGEND)
    css = (ROOT / "harness" / "report" / "report.css").read_text()
    assert all(f".st-{name}" in css for name in Shown)


def test_the_database_stores_the_plain_words(tmp_path):
    db = tmp_path / "runs.sqlite"
    with Store(db) as store:
        store.insert({"run_key": "k", "status": Status.SOLVED, "verified": 1, "extra": {"said": Answer.SAT}})
        with pytest.raises(ValueError, match="'solve'"):
            store.insert({"run_key": "j", "status": "solve"})
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT status, typeof(status), extra FROM runs").fetchall() == [
            ("solved", "text", '{"said": "sat"}')]


def _status_words(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [w for e in node.elts for w in _status_words(e)]
    return []


def _reads_status(node: ast.AST) -> bool:
    subscript = isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
    attribute = isinstance(node, ast.Attribute) and node.attr == "status"
    return (subscript and node.slice.value == "status") or attribute


def spelled_out(path: Path, root: Path = ROOT) -> list[str]:
    """Where a module compares a status with a literal word, or makes a row or Outcome with one."""
    tree = ast.parse(path.read_text())
    defaults = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "defaults" for t in n.targets)}  # options
    found = []
    for node in ast.walk(tree):
        said: list[str] = []
        if isinstance(node, ast.Compare) and any(map(_reads_status, [node.left, *node.comparators])):
            said = [w for side in [node.left, *node.comparators] for w in _status_words(side)]
        elif isinstance(node, ast.Dict) and id(node) not in defaults:
            said = [w for k, v in zip(node.keys, node.values, strict=True)
                    if isinstance(k, ast.Constant) and k.value == "status" for w in _status_words(v)]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Outcome" and node.args:
            said = _status_words(node.args[0])
        found += [f"{path.relative_to(root)}:{node.lineno}: {w!r}" for w in said if w in VOCABULARY]
    return found


def test_no_reader_spells_a_status_out():
    found = [hit for folder in ("harness", "encodings") for path in sorted((ROOT / folder).rglob("*.py"))
             for hit in spelled_out(path)]
    assert found == [], "name the word by its harness.outcomes member: " + "; ".join(found)


def test_the_scan_finds_a_spelled_status(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('ok = row["status"] in ("solved", "x")\nrow = {"status": "timeout"}\nOutcome("sat")\n'
                     'defaults = {"status": "unknown"}\n')
    expected = ["probe.py:1: 'solved'", "probe.py:2: 'timeout'", "probe.py:3: 'sat'"]
    assert spelled_out(probe, tmp_path) == expected
