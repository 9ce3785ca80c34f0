"""The janko.at loop genres (found by kind, not listed): bundles, scrape files, checkers, drawings, and
every loop strategy solving each smoke puzzle to janko.at's own answer, the only one."""

from __future__ import annotations

import bz2
import json
from pathlib import Path

import pytest

from harness import fingerprint, kinds, registry, sets, solve
from harness.encoding import Limits
from harness.kinds.janko_loop import GenreKind
from harness.run.execute import execute

GENRES = [name for name, kind in kinds.kinds().items() if isinstance(kind, GenreKind)]
LOOP_STRATEGIES = ("sat", "circuit", "asp", "lazy", "propagator", "mip")
CORPUS = Path("/work/shared/corpus/janko-loop")  # the raw files, where this machine has them


def test_the_five_genres_are_kinds():
    assert set(GENRES) >= {"geradeweg", "country", "moonsun", "castlewall", "yajilin"}


@pytest.mark.parametrize("genre", GENRES)
def test_every_loop_strategy_serves_the_genre_from_its_own_folder(genre):
    assert all(registry.encodings()[e].serves(genre) for e in LOOP_STRATEGIES)
    rules = kinds.get(genre).rules()
    assert rules.__name__ == f"harness.kinds.{genre}.rules"
    assert f"harness.kinds.{genre}.rules" in fingerprint.scope("sat").modules  # changed rules, new runs


@pytest.mark.parametrize("genre", GENRES)
def test_the_bundle_reads_back_and_its_solutions_pass_the_checker(genre):
    found = sets.instances(f"{genre}-janko")
    assert len(found) >= 12 and not [i.error for i in found if i.error]
    for inst in found:
        assert inst.known_solution and kinds.check(inst.puzzle, inst.known_solution) == [], inst.name
        text = kinds.write_text(inst.puzzle)
        assert kinds.read_text(text) == inst.puzzle
        kind = kinds.of(inst.puzzle)
        assert kind.read_compact(kind.write_compact(inst.puzzle), inst.puzzle.rows, inst.puzzle.cols, "x") \
            == inst.puzzle


@pytest.mark.parametrize("genre", GENRES)
@pytest.mark.parametrize("encoding", LOOP_STRATEGIES)
def test_each_smoke_puzzle_is_solved_as_janko_at_solved_it_and_only_so(genre, encoding):
    for inst in sets.instances(f"{genre}-smoke"):
        row = execute(inst, encoding, {}, 0, Limits(time_s=60), unique=True)
        assert (row["status"], row["matches_known"], row["unique"]) == ("solved", 1, 1), (inst.name, row)


@pytest.mark.parametrize("genre", GENRES)
def test_the_checker_rejects_broken_answers(genre):
    inst = sets.instances(f"{genre}-smoke")[0]
    puzzle, known = inst.puzzle, inst.known_solution
    rows = known.split("/")
    assert kinds.check(puzzle, "") and kinds.check(puzzle, "/".join("0" * len(r) for r in rows))
    assert kinds.check(puzzle, known + "/0")  # the wrong shape: a violation, never an exception
    # turn the loop at its first cell back on itself: a dead end, so no longer one loop
    first = next(k for k, ch in enumerate(known) if ch not in "0/")
    assert kinds.check(puzzle, known[:first] + "0" + known[first + 1:])


def test_the_checkers_rules_bite():
    """A change to one clue makes janko.at's solution wrong, in each genre's own words."""
    def changed(genre: str, old: str, new: str) -> list[str]:
        inst = sets.instances(f"{genre}-smoke")[0]
        kind = kinds.of(inst.puzzle)
        body = [line.replace(old, new, 1) if old in line else line for line in kind.body_lines(inst.puzzle)]
        edited = kinds.read_text("\n".join([f"{genre} {inst.puzzle.rows} {inst.puzzle.cols}", *body]))
        assert edited != inst.puzzle
        return kinds.check(edited, inst.known_solution)

    assert "straight run" in " ".join(changed("geradeweg", "3", "4"))
    assert "counts" in " ".join(changed("yajilin", "1w", "2w"))
    assert "inside" in " ".join(changed("castlewall", "x", "o")) or "outside" in " ".join(
        changed("castlewall", "x", "o"))
    assert changed("moonsun", "x", "o")


def scrape_line(genre: str = "geradeweg", **change) -> str:
    inst = sets.instances(f"{genre}-smoke")[0]
    data = {"puzzle": genre, "size": inst.puzzle.rows, "problem": [list(r) for r in inst.puzzle.problem],
            "solution": [["ns" if ch == "a" else "ew" if ch == "5" else "-" for ch in row]
                         for row in inst.known_solution.split("/")]}
    data.update(change)
    return json.dumps({"file": "/Geradeweg/900.a.x-janko", "data": data})


def test_a_scrape_file_reads_every_line_and_a_bad_one_is_one_error_line(tmp_path):
    good = json.loads(scrape_line())
    good["file"] = "/Geradeweg/001.a.x-janko"
    wrong_row = scrape_line(problem=[["-"] * 3])
    bad_token = scrape_line(problem=[["z"] * 5] * 5, size=5)
    lines = [json.dumps(good), "{not json", json.dumps({"file": "/Q/1.a", "data": {"puzzle": "nurikabe"}}),
             wrong_row, bad_token]
    path = tmp_path / "Geradeweg.jsonl.bz2"
    path.write_bytes(bz2.compress("\n".join(lines).encode()))
    found = sets.resolve(str(path))
    assert [i.name for i in found][:1] == ["Geradeweg-001"] and found[0].puzzle is not None
    errors = [i.error for i in found[1:]]
    assert len(errors) == 4 and all(e and "\n" not in e for e in errors)
    assert [e.split(": ")[0] for e in errors] == [f"{path}:{n}" for n in (2, 3, 4, 5)]
    assert "not a JSON line" in errors[0] and "nurikabe" in errors[1] and "'z'" in errors[3]


def test_harness_solve_takes_a_scrape_file_and_a_name(tmp_path, capsys):
    path = tmp_path / "Geradeweg.jsonl"
    path.write_text(scrape_line() + "\n" + "{broken\n")
    assert solve.main([f"{path}#900", "-e", "sat"]) == 0
    assert solve.main([f"{path}#nope"]) == 2
    assert solve.main([f"{path}#line-2"]) == 2
    err = capsys.readouterr().err
    assert "no puzzle named 'nope'" in err and f"{path}:2: not a JSON line" in err


@pytest.mark.skipif(not (CORPUS / "Geradeweg.jsonl.bz2").is_file(), reason="the raw corpus is not here")
def test_the_raw_geradeweg_file_is_read_as_it_is(capsys):
    found = sets.resolve(str(CORPUS / "Geradeweg.jsonl.bz2"))
    assert len(found) == 68 and all(i.puzzle is not None and i.known_solution for i in found)
    assert solve.main([str(CORPUS / "Geradeweg.jsonl.bz2"), "-e", "sat", "--json"]) == 0
    out = capsys.readouterr()
    assert "holds 68 puzzles; solving the first, Geradeweg-001" in out.err
    assert json.loads(out.out)["matches_known"] == 1


@pytest.mark.parametrize("genre", GENRES)
def test_drawings_with_and_without_an_answer(genre, tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    inst = sets.instances(f"{genre}-smoke")[0]
    kind = kinds.of(inst.puzzle)
    bare, solved = kind.render_text(inst.puzzle), kind.render_text(inst.puzzle, inst.known_solution)
    assert bare != solved and "│" in solved
    assert "|" in kind.render_text(inst.puzzle, inst.known_solution, ascii=True)
    assert kinds.save_image(inst.puzzle, tmp_path / "p.png", inst.known_solution).stat().st_size > 0
    assert kinds.save_image(inst.puzzle, tmp_path / "q.png").stat().st_size > 0
