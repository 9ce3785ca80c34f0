"""The bundled instance sets: every instance parses, every known solution is right, and the CLI works."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import bundles, kinds, sets
from harness.kinds import read_text
from harness.sets import resolve


def test_every_bundled_instance_parses():
    for name in sets.names():
        found = sets.instances(name)
        errors = [inst.error for inst in found if inst.puzzle is None]
        assert errors == [], name
        assert len(found) == sets.describe(name)["count"] > 0, name
        assert len({inst.name for inst in found}) == len(found), f"{name} repeats a name"
        assert all(inst.kind == sets.spec_of(name).puzzle for inst in found)


def test_every_known_solution_passes_the_checker():
    seen = set()  # janko-java's solutions are janko-at's: judge each (puzzle, solution) once
    judged = {kind: 0 for kind in kinds.names()}
    for name in sets.names():
        for inst in sets.instances(name):
            key = (inst.content_hash, inst.known_solution)
            if inst.known_solution and key not in seen:
                seen.add(key)
                judged[inst.kind] += 1
                assert kinds.check(inst.puzzle, inst.known_solution) == [], inst.source
    assert judged["masyu"] > 3900 and judged["slitherlink"] == 1148 + 18 + 3  # janko.at + generated + large


SMOKE_SETS = [name for name in sets.names() if name.endswith("-smoke")]


@pytest.mark.parametrize("name", SMOKE_SETS)
def test_smoke_sets_are_small_and_answered(name):
    smoke = resolve(name)
    assert 7 <= len(smoke) <= 14  # a few of each size, quick enough for every test that runs them
    if sets.spec_of(name).puzzle == "graph":  # graphs: both answers, known by theorem or a cycle
        assert all(inst.known_solution or inst.known_answer for inst in smoke)
        assert all(4 <= inst.puzzle.n <= 60 for inst in smoke)
    else:
        assert all(inst.known_solution for inst in smoke)
        assert all(5 <= inst.puzzle.rows <= 12 and 5 <= inst.puzzle.cols <= 12 for inst in smoke)
    assert {inst.kind for inst in smoke} == {sets.spec_of(name).puzzle}


def test_every_kind_with_a_collection_has_a_smoke_set():
    kinds_with_data = {spec.puzzle for spec in sets.specs().values() if spec.data}
    assert {sets.spec_of(name).puzzle for name in SMOKE_SETS} == kinds_with_data >= {"masyu", "slitherlink"}


def test_collections_hold_each_puzzle_once():
    for name, spec in sets.specs().items():
        if spec.data:
            contents = [inst.content_hash for inst in sets.instances(name)]
            assert len(set(contents)) == len(contents), name


def test_resolve_names_a_set():
    smoke = resolve("masyu-smoke")
    assert {inst.source.split("/")[0] for inst in smoke} >= {"masyu-pm", "masyu-janko-java"}
    assert [inst.name for inst in resolve("masyu-seed")] == ["janko001", "janko080"]
    # an instance reached through two sets keeps one source
    assert resolve("masyu-seed")[0].source == "masyu-janko-java/janko001" == smoke[0].source


def test_resolve_still_reads_paths_and_reports_nothing_found(tmp_path):
    path = tmp_path / "masyu-smoke"  # a file of a set's name, given as a path, is the file
    path.write_text("2 2\n- -\n- -\n")
    assert [inst.source for inst in resolve(str(path))] == [str(path)]
    with pytest.raises(FileNotFoundError):
        resolve("masyu-no-such-set")


def test_a_folder_without_puzzles_is_reported_as_such(tmp_path):
    (tmp_path / "notes.md").write_text("no puzzles here\n")
    with pytest.raises(FileNotFoundError, match="the folder holds no puzzle files") as caught:
        resolve(str(tmp_path))
    assert "no such" not in str(caught.value)
    with pytest.raises(FileNotFoundError, match="no such instance set, file or directory"):
        resolve(str(tmp_path / "missing"))


def test_curated_sets_fit_their_descriptions():
    default = [inst.puzzle for inst in sets.instances("masyu-default")]
    assert 20 <= len(default) <= 40 and max(p.rows * p.cols for p in default) <= 20 * 20
    hard = sets.describe("masyu-hard")
    assert hard["min_cells"] >= 15 * 15 and hard["max_cells"] == 40 * 58
    assert {r["difficulty"] for _, r in sets.rows("masyu-pm-hard")} == {"hard"}


def test_slitherlink_sets_fit_their_descriptions():
    janko = sets.describe("slither-janko")
    assert (janko["count"], janko["solutions"]) == (1148, 1148)
    assert (janko["smallest"], janko["largest"]) == ("4x4", "31x45")
    hard = sets.describe("slither-hard")
    assert (hard["count"], hard["min_cells"], hard["max_cells"]) == (25, 1200, 31 * 45)
    # slither-hard is every grid of 1,200 cells or more, and nothing else
    big = {r["name"] for _, r in sets.rows("slither-janko") if int(r["rows"]) * int(r["cols"]) >= 1200}
    assert {r["name"] for _, r in sets.rows("slither-hard")} == big
    row = next(r for _, r in sets.rows("slither-janko") if r["name"] == "janko-sl-0254")
    assert row["aliases"] == "janko-sl-0961 janko-sl-961"  # janko.at shows this grid on three pages


def test_slither_loopy_is_the_loopy_command_s_list_and_reads_as_loopy_ids():
    from harness.kinds.slitherlink.formats import read_loopy, write_loopy
    from harness.kinds.slitherlink.loopy import main, random_seed_ids

    rows = [r for _, r in sets.rows("slither-loopy")]
    assert [(r["name"], r["difficulty"], r["tatham"]) for r in rows] == random_seed_ids()
    assert all(r["solution"] == "" for r in rows)  # Loopy prints none, and none is made up here
    for inst in sets.instances("slither-loopy"):
        assert read_loopy(write_loopy(inst.puzzle)) == inst.puzzle  # a Loopy id again, as Loopy made it
    with pytest.raises(SystemExit):  # no such program: a clean usage error, not a traceback
        main(["--out", "unused.tsv.gz", "--program", "/nonexistent/sgt-loopy"])


def test_subsets_partition_puzzle_masyu():
    total = sets.describe("masyu-pm")["count"]
    sizes = ["6x6", "8x8", "10x10", "15x15", "20x20", "25x25"]
    assert sum(sets.describe(f"masyu-pm-{s}")["count"] for s in [*sizes, "special"]) == total
    assert sum(sets.describe(f"masyu-pm-{d}")["count"] for d in ["easy", "medium", "hard"]) == total


def test_janko_java_numeric_files_carry_janko_at_solutions():
    # the 1/2-coded files read as 1 = white, 2 = black equal janko.at's puzzles of the same number
    rows = [r for _, r in sets.rows("masyu-janko-java") if r["encoding"] in ("numeric", "mixed")]
    assert len(rows) == 112
    assert all(r["solution_from"] == "janko-at-" + r["name"].removeprefix("janko") for r in rows)


def test_the_broken_puzzle_masyu_solution_is_dropped_and_noted():
    [(_, row)] = [pair for pair in sets.rows("masyu-pm") if pair[1]["name"] == "pm-15x15-hard-3118955"]
    assert row["solution"] == "" and "white pearl" in row["note"]


def test_matches():
    row = {"name": "x", "rows": "10", "cols": "12", "solution": "", "difficulty": "hard"}
    assert sets.matches(row, {"size": "10x12", "difficulty": "hard"})
    assert sets.matches(row, {"size": ["8x8", "10x12"], "min_cells": 120, "max_cells": 120})
    assert not sets.matches(row, {"size": "12x10"})
    assert not sets.matches(row, {"solution": True}) and sets.matches(row, {"solution": False})
    assert not sets.matches(row, {"min_cells": 121})


def test_cli_json_lists_every_set_with_its_fields(capsys):
    assert sets.main(["--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in records] == sets.names()
    for r in records:
        assert {"name", "puzzle", "count", "min_cells", "max_cells", "source", "solutions"} <= set(r)
        assert r["count"] > 0 and r["min_cells"] <= r["max_cells"] and r["solutions"] <= r["count"]
    by_name = {r["name"]: r for r in records}
    assert by_name["masyu-janko-java"]["count"] == 820 and by_name["masyu-janko-java"]["solutions"] == 766


def test_cli_table(capsys):
    assert sets.main([]) == 0
    out = capsys.readouterr().out
    header = ["set", "puzzle", "count", "sizes", "solutions", "source", "licence"]
    assert out.splitlines()[0].split() == header
    assert all(name in out for name in sets.names())


def test_show_prints_the_provenance(capsys):
    for name, spec in sets.specs().items():
        assert spec.provenance and (sets.INSTANCES_DIR / spec.provenance).is_file(), name
    assert sets.main(["show", "masyu-pm-hard"]) == 0
    out = capsys.readouterr().out
    assert "subset of masyu-pm" in out and "3,118,955" in out and "MIT" in out
    assert sets.main(["show", "masyu-nope"]) == 2


@pytest.mark.parametrize("name", SMOKE_SETS)
def test_export_writes_plain_text_that_reads_back(name, tmp_path, capsys):
    assert sets.main(["export", name, str(tmp_path)]) == 0
    original = sets.instances(name)
    again = resolve(str(tmp_path))  # the files' kind lines say what they are
    assert sorted((i.name, i.puzzle) for i in again) == sorted((i.name, i.puzzle) for i in original)
    assert [i.known_answer for i in sorted(again, key=lambda i: i.name)] == \
        [i.known_answer for i in sorted(original, key=lambda i: i.name)]  # `# known:` lines
    lines = (tmp_path / "solutions.tsv").read_text().splitlines()
    assert len(lines) == sum(1 for i in original if i.known_solution) + 1
    assert name in (tmp_path / "PROVENANCE.md").read_text()


def test_bundles_round_trip(tmp_path):
    from harness.bundles import Entry

    puzzle = read_text("2 3\n- w -\n- - -\n")
    entries = [Entry("a", puzzle, "95c/356", {"note": "x"}), Entry("b", puzzle)]
    path = tmp_path / "b.tsv.gz"
    bundles.write_bundle(path, entries)
    first = path.read_bytes()
    bundles.write_bundle(path, entries)
    assert path.read_bytes() == first
    rows = bundles.read_bundle(path)
    assert [r["name"] for r in rows] == ["a", "b"]
    assert rows[0] == {"name": "a", "rows": "2", "cols": "3", "puzzle": "3x2:aWd", "solution": "95c/356",
                       "note": "x"}
    with pytest.raises(ValueError, match="tab"):
        bundles.write_bundle(path, [Entry("a\tb", puzzle)])


def test_bundle_files_stay_small():
    # The puzzle bundles within 2 MB as before; the FHCP sample (100 graphs of up to 9,528 vertices,
    # the set the field measures on) within 1.2 MB of its own, in the graph kind's gap form
    # (`formats.write_compact`: 1.16 MB, where `u-v` pairs took 2.69 MB).
    fhcp = Path(sets.INSTANCES_DIR, "graph", "fhcp-sample.tsv.gz")
    total = sum(p.stat().st_size for p in Path(sets.INSTANCES_DIR).rglob("*.gz") if p != fhcp)
    assert total < 2_000_000
    assert fhcp.stat().st_size < 1_200_000
