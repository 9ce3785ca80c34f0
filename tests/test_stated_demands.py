"""Each janko.at genre (found by its base class) states its own demands (`Kind.stated`): its real
`sat` uniqueness proofs are certified, and a seeded bad cut in them is still caught."""

from __future__ import annotations

import json

import pytest

from harness import kinds, sets
from harness.encoding import Limits
from harness.kinds.demands import stated
from harness.kinds.janko_loop import GenreKind
from harness.proof.certify import CERTIFIED, cnf_of
from harness.proof.cuts import check_cuts
from harness.prooflog import Proof
from harness.run.execute import execute
from loopbench_encodings import loop
from loopbench_encodings.sat import Sat

LIMITS = Limits(time_s=60.0)
GENRES = [name for name, kind in kinds.kinds().items() if isinstance(kind, GenreKind)]  # found, not listed


def with_cuts(kind: str):
    """The genre's smallest smoke puzzle whose `sat` uniqueness proof holds `c cut` clauses (the
    clauses judged by the demands), its answer, and that proof."""
    by_size = sorted(sets.instances(f"{kind}-smoke"), key=lambda i: (i.puzzle.rows * i.puzzle.cols, i.name))
    for instance in by_size:
        answer = execute(instance, "sat", {}, 0, LIMITS)["solution"]
        proof = Sat(proof="true").solve(instance.puzzle, LIMITS, 0, exclude=(answer,)).stats["proof"]
        if "cut" in proof.marks.values():
            return instance, answer, proof
    raise AssertionError(f"no {kind}-smoke puzzle's uniqueness proof has a cut")


@pytest.mark.parametrize("kind", GENRES)
def test_every_known_answer_meets_every_stated_demand(kind):
    for instance in sets.instances(f"{kind}-janko"):
        demands = stated(instance.puzzle)
        used = demands.read(instance.known_solution)
        passed = {v for edge in used for v in edge}
        assert demands.demands and used <= demands.edges, instance.name
        for demand in demands.demands:
            assert any(p in used if len(p) == 2 else p[0] in passed for p in demand), (instance.name, demand)


@pytest.mark.parametrize("kind", GENRES)
def test_a_real_uniqueness_proof_is_certified_and_a_seeded_bad_cut_is_caught(kind):
    instance, answer, proof = with_cuts(kind)
    assert kinds.get(kind).stated(instance.puzzle) is not None
    judged = check_cuts(cnf_of(proof), instance.puzzle)
    assert judged.cuts > 0 and judged.problems == []
    row = execute(instance, "sat", {"proof": "true"}, 0, LIMITS, unique=True)
    extra = json.loads(row["extra"])
    assert (row["status"], row["verified"], row["unique"], row["solution"]) == ("solved", 1, 1, answer)
    assert extra["unique_proof"] == CERTIFIED, extra["unique_proof"]
    # The same proof with one more `c cut`: the answer itself, forbidden as if it were a sub-loop.
    cut = [-e - 1 for e in loop.problem(instance.puzzle).edge_ids(answer)]
    seeded = Proof([*proof.clauses, cut], {**proof.marks, len(proof.clauses): "cut"}, proof.edges, proof.drat)
    problems = check_cuts(cnf_of(seeded), instance.puzzle).problems
    assert len(problems) == 1 and "forbids a loop the checker accepts as an answer" in problems[0]


def test_the_five_genres_state_demands():
    assert set(GENRES) >= {"geradeweg", "country", "moonsun", "castlewall", "yajilin"}
