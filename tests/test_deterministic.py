"""sat's search is the same on any load: conflict budgets are counts, CaDiCaL's seed is the run's.

The same run twice, once beside two CPU-hog processes, must give the same rounds, cuts per round,
conflicts and solve calls. The chunks are made small here so that rounds span several of them: the
time-sized chunks this replaced ended wherever the clock said, so under load they split the search
elsewhere and CaDiCaL, which starts its schedules again at each call, took another path.
"""

from __future__ import annotations

import multiprocessing
import time

import pytest
from helpers import bundled

from harness import registry
from harness.encoding import Limits
from loopbench_encodings import _plain_sat

LIMITS = Limits(time_s=60.0)


def _spin(until: float) -> None:
    while time.time() < until:
        pass


def search(encoding: str, instance, seed: int, **options) -> tuple:
    """What a run decided: its answer, rounds (cuts each), conflicts and solve calls."""
    outcome = registry.create(encoding, **options).solve(instance.puzzle, LIMITS, seed)
    stats = outcome.stats
    return (outcome.status, outcome.solution, stats["iterations"], stats["cuts"], stats["conflicts"],
            stats.get("chunks"), [cuts for _, _, cuts in stats.get("rounds", [])])


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of 50 conflicts doubling to 200, so a round of this small graph spans several."""
    monkeypatch.setattr(_plain_sat, "CHUNK_FIRST", 50)
    monkeypatch.setattr(_plain_sat, "CHUNK_MAX", 200)


@pytest.mark.parametrize("encoding, options", [("sat", {}), ("sat", {"cuts": "cutset"}),
                                               ("propagator", {})])
def test_the_same_seed_makes_the_same_search_beside_two_cpu_hogs(encoding, options, small_chunks):
    instance = bundled("graph-gp-nonham-106-s2026-000", "graph-hard")
    quiet = search(encoding, instance, 3, **options)
    hogs = [multiprocessing.Process(target=_spin, args=(time.time() + 60,)) for _ in range(2)]
    for hog in hogs:
        hog.start()
    try:
        loaded = search(encoding, instance, 3, **options)
    finally:
        for hog in hogs:
            hog.kill()
            hog.join()
    assert quiet[0] == "unsat" and quiet[4] > 1000
    if encoding == "sat":
        assert quiet[5] > quiet[2]  # some round took more than one call
    assert loaded == quiet


def test_the_run_seed_is_cadicals_and_is_recorded():
    instance = bundled("graph-gp-nonham-58-s2026-000", "graph-hard")
    seeded = registry.create("sat").solve(instance.puzzle, LIMITS, 7)
    assert seeded.stats["cadical_seed"] == 7
    given = registry.create("sat", cadical="seed=11").solve(instance.puzzle, LIMITS, 7)
    assert given.stats["cadical_seed"] == 11


def test_a_chunk_budget_is_a_count_that_doubles_to_a_cap():
    budgets = [_plain_sat.chunk_budget(k) for k in range(6)]
    assert budgets == [10_000, 20_000, 40_000, 40_000, 40_000, 40_000]
    assert _plain_sat.chunk_budget(10**6) == 40_000


@pytest.mark.parametrize("text, message", [
    ("vivfy=0", "CaDiCaL 1.9.5 has no option 'vivfy'.*vivify"),
    ("inprocessing=2", "outside CaDiCaL's range 0..1"),
    ("seed", "not KEY=INTEGER"),
])
def test_unknown_cadical_options_are_refused_with_the_valid_names(text, message):
    with pytest.raises(ValueError, match=message):
        registry.create("sat", cadical=text)
    assert registry.create("sat", cadical="inprocessing=0, rephase=0").cadical_options == {
        "inprocessing": 0, "rephase": 0}
