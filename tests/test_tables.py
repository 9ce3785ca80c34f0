"""The figure tables: made from one sweep's database, ties within the seeds' spread, and every marked
block of the README and the results READMEs equal to what the committed databases give."""

from __future__ import annotations

import shutil
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
def test_committed_tables_are_what_the_committed_databases_give(path, tmp_path):
    # read from copies laid out as in the repository: SQLite reading a WAL-mode file in place leaves
    # its -shm and -wal beside it, and a test writes nothing into the repository
    for db in {tables.parser().parse_args(block.args).db for block in tables.blocks(path)}:
        (tmp_path / db).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / db, tmp_path / db)
    assert tables.regenerate(path, tmp_path) == path.read_text(encoding="utf-8"), \
        f"{path} is stale: run `python -m harness.tables` from the repository root"
