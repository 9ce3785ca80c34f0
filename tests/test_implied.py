"""One model for all: Masyu's implied pearl constraints, offered to CP-SAT, CNF and ASP alike with the same
default, change no answer (solutions checked, unsat puzzles still unsat) whichever backend takes them."""

from __future__ import annotations

import pytest
from helpers import bundled

from harness import kinds, registry
from harness.encoding import Limits
from harness.kinds import read_text

LOOP_STRATEGIES = ("circuit", "lazy", "asp", "sat", "propagator")
PUZZLES = ("janko001", "janko012", "janko080")
# A white pearl in a corner fits no axis, a black one in the middle of a 3x3 cannot go straight on: no answer.
UNSAT = ("2 2\nw -\n- -\n", "3 3\n- - -\n- b -\n- - -\n")


@pytest.mark.parametrize("encoding", LOOP_STRATEGIES)
def test_every_loop_strategy_takes_the_implied_constraints_by_default(encoding):
    assert registry.create(encoding).options["implied"] == "true"


@pytest.mark.parametrize("implied", ["true", "false"])
@pytest.mark.parametrize("encoding", ["circuit", "lazy", "asp"])
def test_the_implied_constraints_change_no_answer(encoding, implied):
    solver = registry.create(encoding, implied=implied)
    solver.prepare()
    for name in PUZZLES:
        puzzle = bundled(name).puzzle
        outcome = solver.solve(puzzle, Limits(time_s=30), 0)
        assert outcome.status == "sat" and kinds.check(puzzle, outcome.solution) == [], (name, outcome)
    for text in UNSAT:
        assert solver.solve(read_text(text), Limits(time_s=30), 0).status == "unsat", text


def test_the_propagators_cadical_settings_are_an_option_so_the_options_column_shows_them():
    made = registry.create("propagator")
    assert made.options["cadical"] == "vivify=0,probe=0" and made.cadical_options == {"vivify": 0, "probe": 0}
    assert registry.create("propagator", cadical="").cadical_options == {}  # CaDiCaL's own defaults
    with pytest.raises(ValueError, match="KEY=INTEGER"):
        registry.create("propagator", cadical="vivify")


def test_sat_takes_cadical_settings_too_and_solves_with_them():
    assert registry.create("sat").cadical_options == {}  # CaDiCaL's own by default
    made = registry.create("sat", cadical="inprocessing=0, rephase=0")
    assert made.cadical_options == {"inprocessing": 0, "rephase": 0}
    puzzle = bundled("janko001").puzzle
    outcome = made.solve(puzzle, Limits(time_s=30), 0)
    assert outcome.status == "sat" and kinds.check(puzzle, outcome.solution) == []
    with pytest.raises(ValueError, match="KEY=INTEGER"):
        registry.create("sat", cadical="rephase=off")
