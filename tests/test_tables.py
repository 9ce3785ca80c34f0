"""The figure tables: made from one sweep's database, ties within the seeds' spread, and every marked
block of the README and the results READMEs equal to what the committed databases give."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from harness import tables as command
from harness.analysis import tables
from harness.run.cli import main as run_main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def seeded_db(tmp_path_factory) -> Path:
    """One real sweep: sat and circuit, three seeds each, on the Masyu smoke set; then lazy in another."""
    db = tmp_path_factory.mktemp("tables") / "runs.sqlite"
    common = ["--instances", "masyu-smoke", "--db", str(db), "--time-limit", "20", "--jobs", "1"]
    assert run_main(["--encoding", "sat,circuit", "--seed", "0", "1", "2", *common]) == 0
    assert run_main(["--encoding", "lazy", *common]) == 0
    return db


def block(db: Path, extra: str = "") -> str:
    return f"intro\n<!-- table: --db {db} --set masyu-smoke {extra}-->\nold\n<!-- /table -->\nend\n"


def test_a_block_is_made_from_one_sweep_with_seeds_as_spread(seeded_db, tmp_path):
    page = tmp_path / "page.md"
    page.write_text(block(seeded_db, "--configs sat,circuit --baseline circuit "))
    assert command.main([str(page)]) == 0
    text = page.read_text()
    assert text.startswith("intro\n<!-- table:") and text.endswith("<!-- /table -->\nend\n")
    rows = {line.split(" | ")[1]: line for line in text.splitlines()
            if line.startswith("| ") and "config" not in line}
    assert set(rows) == {"sat", "circuit"}
    assert rows["sat"].split(" | ")[2] == "3"  # three seeds, one row
    assert rows["circuit"].rstrip(" |").endswith("| 1")  # the baseline against itself
    assert "seeds 0, 1, 2" in text and "old" not in text
    assert command.main(["--check", str(page)]) == 0  # made again from the same database: the same bytes


def test_a_stale_block_is_found_and_a_mixed_one_refused(seeded_db, tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text(block(seeded_db, "--configs sat,circuit "))
    assert command.main(["--check", str(page)]) == 1
    assert "stale" in capsys.readouterr().out
    page.write_text(block(seeded_db, "--configs sat,lazy "))  # lazy ran in another sweep
    assert command.main([str(page)]) == 2
    err = capsys.readouterr().err
    assert f"{page}:2:" in err and "2 sweeps" in err
    page.write_text(block(seeded_db, "--configs sat,lazy --across-sweeps "))
    assert command.main([str(page)]) == 0
    assert "ACROSS: 2 sweeps" in page.read_text()


def test_rows_whose_spreads_overlap_share_a_rank():
    table = pd.DataFrame({
        "wrong": [0, 0, 0, 1], "solved": [10, 9, 7, 10], "solved_min": [9, 8, 7, 10],
        "solved_max": [10, 10, 7, 10], "par2_s": [1.0, 1.2, 3.0, 0.5], "par2_min_s": [0.9, 1.0, 3.0, 0.5],
        "par2_max_s": [1.1, 1.3, 3.0, 0.5]}, index=["a", "b", "c", "d"])
    assert tables._tied_ranks(table) == [1, 1, 3, 4]  # b ties a; c is apart; d has a wrong answer


MADE = [p for p in command.default_files(ROOT) if tables.blocks(p)]


def test_the_readme_headline_table_is_made():
    assert ROOT / "README.md" in MADE


@pytest.mark.parametrize("path", MADE, ids=lambda p: str(p.relative_to(ROOT)))
def test_committed_tables_are_what_the_committed_databases_give(path):
    assert tables.regenerate(path, ROOT) == path.read_text(encoding="utf-8"), \
        f"{path} is stale: run `python -m harness.tables` from the repository root"


def test_a_csv_block_renders_the_committed_file_and_refuses_a_bad_one(tmp_path, capsys):
    (tmp_path / "figures.csv").write_text("case,inputs,note\ndimacs,\"5,000\",none\ntext|walls,2033,crash\n")
    page = tmp_path / "page.md"
    page.write_text("<!-- table: --csv figures.csv --columns case,inputs -->\nold\n<!-- /table -->\n")
    assert command.main(["--root", str(tmp_path), str(page)]) == 0
    lines = page.read_text().splitlines()
    assert lines[1:5] == ["| case | inputs |", "|---|---:|", "| dimacs | 5,000 |", "| text\\|walls | 2033 |"]
    assert "made from `figures.csv`" in page.read_text() and "none" not in page.read_text()
    assert command.main(["--root", str(tmp_path), "--check", str(page)]) == 0
    (tmp_path / "figures.csv").write_text("case,inputs\ndimacs,5000\ntext-walls\n")  # a row short of a field
    assert command.main(["--root", str(tmp_path), str(page)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"error: {page}:1: figures.csv:3: 1 fields, the header has 2"
    page.write_text("<!-- table: --csv gone.csv -->\n<!-- /table -->\n")
    assert command.main(["--root", str(tmp_path), str(page)]) == 2
    assert capsys.readouterr().err.strip() == f"error: {page}:1: gone.csv: no such file"
    (tmp_path / "figures.csv").write_text("case,inputs\ndimacs,5000\n")
    page.write_text("<!-- table: --csv figures.csv --columns case,hangs -->\n<!-- /table -->\n")
    assert command.main(["--root", str(tmp_path), str(page)]) == 2
    assert "no column hangs (columns: case, inputs)" in capsys.readouterr().err
