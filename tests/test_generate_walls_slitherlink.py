"""The Walls and Slitherlink generators: same seed same bytes, each puzzle unique (asked of another
encoding too) and verified, the bundled puzzles made again, and the region rules that make one loop."""

from __future__ import annotations

import faulthandler
import os
import random

import pytest

from harness import generate, kinds, sets, unique
from harness.bundles import write_bundle
from harness.grid import Grid
from harness.kinds.slitherlink import generate as slither_generate
from harness.kinds.slitherlink.model import Slitherlink
from harness.unique import is_unique, is_unique_apart


@pytest.mark.parametrize("kind", ["walls", "slitherlink"])
def test_the_same_seed_gives_the_same_bytes(tmp_path, kind):
    argv = [kind, "--size", "5x5", "6x7", "--count", "2", "--seed", "9"]
    files = []
    for run in ("a", "b"):
        out, bundle = tmp_path / run, tmp_path / f"{run}.tsv.gz"
        assert generate.main([*argv, "--out", str(out), "--bundle", str(bundle)]) == 0
        files.append({p.name: p.read_bytes() for p in out.iterdir()} | {"bundle": bundle.read_bytes()})
    assert files[0] == files[1]
    assert f"{kind}-6x7-s9-001.txt" in files[0]
    other = generate.generate(kind, [(5, 5)], 1, seed=10)
    assert kinds.write_text(other[0].puzzle).encode() != files[0][f"{kind}-5x5-s9-000.txt"]


@pytest.mark.parametrize(("kind", "other"), [("walls", "sat"), ("slitherlink", "circuit")])
def test_every_puzzle_is_verified_and_unique(kind, other):
    for entry in generate.generate(kind, [(6, 6), (7, 5)], 2, seed=3):
        assert kinds.check(entry.puzzle, entry.solution) == []
        # the generator asked its own encoding; another one finds no second solution either
        assert is_unique(entry.puzzle, entry.solution, other).unique == 1


def test_walls_numbers_cannot_be_dropped_further():
    (entry,) = generate.generate("walls", [(6, 6)], 1, seed=4)
    puzzle = entry.puzzle
    for cell in puzzle.clues:
        fewer = type(puzzle)(puzzle.grid, {**puzzle.black, cell: None}, puzzle.given)
        assert is_unique(fewer, entry.solution).unique == 0


@pytest.mark.parametrize("name", ["walls-generated", "slither-generated"])
def test_the_bundled_small_puzzles_come_again_from_their_seed(tmp_path, name):
    bundled = {i.name: i for i in sets.instances(name)}
    kind = "walls" if name.startswith("walls") else "slitherlink"
    again = generate.generate(kind, [(5, 5), (10, 10)], 3, seed=2026)
    for entry in again:
        assert entry.puzzle == bundled[entry.name].puzzle, entry.name
        assert entry.solution == bundled[entry.name].known_solution, entry.name
    write_bundle(tmp_path / "b.tsv.gz", again)  # a bundle of them reads back
    assert all(kinds.check(i.puzzle, i.known_solution) == [] for i in bundled.values())


def test_a_random_region_has_one_loop_for_a_rim():
    rng = random.Random(1)
    grid = Grid(9, 11)
    for _ in range(20):
        region = slither_generate.random_region(grid, rng, share=rng.uniform(0.1, 0.7))
        solution = slither_generate.rim(grid, region)
        clues = {cell: slither_generate.count_sides(grid, region, cell) for cell in grid.cells}
        assert kinds.check(Slitherlink(grid, clues), solution) == []


def test_a_check_that_dies_in_its_child_gives_no_verdict(monkeypatch):
    (entry,) = generate.generate("slitherlink", [(5, 5)], 1, seed=3)
    apart = is_unique_apart(entry.puzzle, entry.solution, "propagator")
    assert (apart.unique, apart.second) == (1, "")
    no_clue = Slitherlink(entry.puzzle.grid, {})  # another loop exists
    assert is_unique_apart(no_clue, entry.solution, "propagator").unique == 0
    with pytest.raises(ValueError, match="no option nonexistent"):  # the child's error, raised again here
        is_unique_apart(entry.puzzle, entry.solution, "propagator", {"nonexistent": "1"})
    def abort(*args):  # as CaDiCaL's uncaught std::bad_alloc does
        faulthandler.disable()  # pytest's handler would print the child's stack
        os.abort()

    monkeypatch.setattr(unique, "is_unique", abort)
    died = is_unique_apart(entry.puzzle, entry.solution, "propagator")
    assert died.unique is None and "died (signal 6" in died.detail
