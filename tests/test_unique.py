"""Uniqueness as a harness feature: one mechanism (`harness.unique.ask_again`) behind `--unique` runs and
the generators; the second answer is judged by the checker, and has a time budget of its own."""

from __future__ import annotations

import json
from typing import ClassVar

import pytest

from harness import kinds
from harness.encoding import Encoding, Limits, Outcome
from harness.instances import Instance
from harness.kinds import read_text
from harness.run.execute import execute
from harness.solve import main as solve_main
from harness.unique import ask_again, is_unique

LIMITS = Limits(time_s=30.0)
# Two solutions each: the 1 sees either the segment to its right or the one below it.
WALLS_TWO = "walls 2 2\n1 .\n. #\n"
WALLS_TWO_SOLUTIONS = {"#-/-#", "#|/|#"}
MARUPEKE_TWO = "marupeke 1 3\nO . X\n"  # the middle cell may be either mark
WALLS_ONE = "walls 1 3\n1 . .\n"


def instance(text: str, name: str = "crafted") -> Instance:
    return Instance(name, f"<{name}>", read_text(text, name))


@pytest.mark.parametrize(("text", "solutions"),
                         [(WALLS_TWO, WALLS_TWO_SOLUTIONS), (MARUPEKE_TWO, {"OOX", "OXX"})])
def test_a_two_solution_puzzle_is_found_not_unique(text, solutions):
    row = execute(instance(text), "cpsat", {}, seed=0, limits=LIMITS, unique=True)
    assert row["status"] == "solved" and row["unique"] == 0
    second = row["detail"].removeprefix("second solution (checked): ")
    assert {row["solution"], second} == solutions
    assert row["unique_s"] > 0 and json.loads(row["extra"])["unique_wall_s"] > 0


def test_a_unique_puzzle_is_found_unique_and_not_asking_leaves_no_column():
    asked = execute(instance(WALLS_ONE), "cpsat", {}, seed=0, limits=LIMITS, unique=True)
    assert (asked["status"], asked["solution"], asked["unique"], asked["detail"]) == ("solved", "#-|", 1, "")
    plain = execute(instance(WALLS_ONE), "cpsat", {}, seed=0, limits=LIMITS)
    assert "unique" not in plain and plain["solution"] == asked["solution"]
    assert plain["run_key"] != asked["run_key"]  # asking is another run


def test_unsolved_runs_are_not_asked():
    row = execute(instance("walls 1 2\n2 .\n"), "cpsat", {}, seed=0, limits=LIMITS, unique=True)
    assert row["status"] == "unsat" and "unique" not in row


def test_an_encoding_that_cannot_exclude_is_not_asked():
    options = {"status": "sat", "solution": "#-|"}
    row = execute(instance(WALLS_ONE), "dummy", options, seed=0, limits=LIMITS, unique=True)
    assert row["status"] == "solved" and row["unique"] is None and "cannot exclude" in row["detail"]
    with pytest.raises(ValueError, match="cannot exclude"):
        is_unique(read_text(WALLS_ONE), "#-|", "dummy")
    with pytest.raises(ValueError, match="does not support masyu"):
        is_unique(read_text("2 2\n- -\n- -\n"), "9c/36", "cpsat")


class Scripted(Encoding):
    """Answers the second solve with a configured outcome (not in the registry: defined in a test)."""

    name = "scripted"
    puzzles = None
    excludes: ClassVar[bool] = True

    def __init__(self, second: Outcome) -> None:
        super().__init__()
        self.second = second

    def solve(self, puzzle, limits, seed, exclude=()):
        return self.second


@pytest.mark.parametrize(("second", "unique", "says"), [
    (Outcome("sat", "#-#|"), None, "the checker rejects the second solution"),
    (Outcome("sat", "#|/|#"), None, "returned the excluded solution"),
    (Outcome("unknown", stats={"reason": "time limit 1 s reached"}), None, "time limit 1 s reached"),
    (Outcome("sat", "#-/-#"), 0, "second solution (checked): #-/-#"),
    (Outcome("unsat"), 1, ""),
])
def test_the_second_answer_is_judged(second, unique, says):
    puzzle = read_text(WALLS_TWO)
    verdict = ask_again(Scripted(second), puzzle, "#|/|#", LIMITS, 0)
    assert verdict.unique == unique and says in verdict.detail


def test_no_time_left_means_no_verdict():
    verdict = ask_again(Scripted(Outcome("unsat")), read_text(WALLS_TWO), "#|/|#", Limits(time_s=-0.1), 0)
    assert verdict.unique is None and "no time left" in verdict.detail


def test_the_second_solve_gets_the_limit_from_its_own_start():
    seen = []

    class Recorder(Scripted):
        def solve(self, puzzle, limits, seed, exclude=()):
            seen.append((limits.time_s, limits.cpu_origin, exclude))
            return Outcome("unsat")

    import time

    before = time.process_time()
    spent = Limits(time_s=2.5, cpu_origin=before - 100)  # an origin long past: the first solve's budget
    ask_again(Recorder(Outcome("unsat")), read_text(WALLS_ONE), "#-|", spent, 0)
    [(time_s, origin, exclude)] = seen
    assert time_s == 2.5 and origin >= before and exclude == ("#-|",)


def test_solve_command_says_whether_the_solution_is_the_only_one(tmp_path, capsys):
    path = tmp_path / "two.txt"
    path.write_text(WALLS_TWO)
    assert solve_main([str(path), "-e", "cpsat", "--unique"]) == 0
    out = capsys.readouterr().out
    assert "solved" in out and "not the only solution" in out and "second solution (checked)" in out
    assert solve_main([str(path), "-e", "cpsat", "--unique", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unique"] == 0
    assert kinds.check(read_text(WALLS_TWO), "#-/-#") == []
