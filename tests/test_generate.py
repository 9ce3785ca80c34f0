"""Generators: every puzzle has exactly one solution, the same seed gives the same puzzles (the bundled
ones included), and the command line writes files or says why it cannot."""

from __future__ import annotations

import pytest

from harness import generate, kinds, sets
from harness.kinds import read_text
from harness.kinds.janko_loop import GenreKind
from harness.unique import is_unique


def test_the_same_seed_gives_the_bundled_puzzles_again():
    # instances/marupeke/generated.tsv.gz came from seed 2026 (its PROVENANCE note has the command)
    again = generate.generate("marupeke", [(6, 6), (8, 8)], 2, seed=2026)
    bundled = {inst.name: inst for inst in sets.instances("marupeke-generated")}
    for entry in again:
        assert entry.puzzle == bundled[entry.name].puzzle, entry.name
        assert entry.solution == bundled[entry.name].known_solution, entry.name


def test_another_seed_gives_other_puzzles_each_with_one_solution():
    first = generate.generate("marupeke", [(7, 9)], 3, seed=11)
    assert [e.name for e in first] == [f"marupeke-7x9-s11-00{i}" for i in range(3)]
    assert len({e.puzzle for e in first}) == 3
    assert [e.puzzle for e in generate.generate("marupeke", [(7, 9)], 1, seed=12)] != [first[0].puzzle]
    for entry in first:
        assert (entry.puzzle.rows, entry.puzzle.cols) == (7, 9)
        assert kinds.check(entry.puzzle, entry.solution) == []
        assert is_unique(entry.puzzle, entry.solution).unique == 1
        # no given can go: without any one of them a second solution appears
        for cell in entry.puzzle.given:
            fewer = type(entry.puzzle)(entry.puzzle.grid, entry.puzzle.blocks,
                                       {k: m for k, m in entry.puzzle.given.items() if k != cell})
            assert is_unique(fewer, entry.solution).unique == 0


def test_the_command_writes_plain_text_files_and_a_bundle(tmp_path, capsys):
    out, bundle = tmp_path / "out", tmp_path / "b.tsv.gz"
    argv = ["marupeke", "--size", "6x6", "5x8", "--count", "2", "--seed", "4", "--out", str(out)]
    assert generate.main([*argv, "--bundle", str(bundle)]) == 0
    files = sorted(p.name for p in out.iterdir())
    assert files == ["marupeke-5x8-s4-000.txt", "marupeke-5x8-s4-001.txt", "marupeke-6x6-s4-000.txt",
                     "marupeke-6x6-s4-001.txt", "solutions.tsv"]
    solutions = dict(line.split("\t") for line in (out / "solutions.tsv").read_text().splitlines()[1:])
    for name, solution in solutions.items():
        assert kinds.check(read_text((out / f"{name}.txt").read_text()), solution) == []
    first = {p.name: p.read_bytes() for p in out.iterdir()} | {"bundle": bundle.read_bytes()}
    assert generate.main([*argv, "--bundle", str(bundle)]) == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} | {"bundle": bundle.read_bytes()} == first
    assert "6x6: 2 puzzles" in capsys.readouterr().out


def test_kinds_without_a_generator_and_bad_sizes_are_refused(tmp_path, capsys):
    # the kinds from janko.at's loop genres have no generator (docs/ADDING-A-KIND.md); the rest have one
    janko = {name for name, kind in kinds.kinds().items() if isinstance(kind, GenreKind)}  # found, not listed
    assert janko >= {"castlewall", "country", "geradeweg", "moonsun", "yajilin"}
    assert generate.with_generator() == [k for k in kinds.names() if k not in janko]
    with pytest.raises(ValueError, match="no generator for yajilin puzzles"):
        generate.generator("yajilin")
    with pytest.raises(SystemExit):
        generate.main(["marupeke", "--size", "5by5", "--out", str(tmp_path)])
    with pytest.raises(ValueError, match="unknown puzzle kind"):
        generate.generator("sudoku")
