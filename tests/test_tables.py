"""The figure tables: made from one sweep's database, ties within the seeds' spread, and every marked
block of the README and the results READMEs equal to what the committed databases give."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pandas as pd
import pytest

from harness import sets
from harness import tables as command
from harness.analysis import batches, tables
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


def test_a_table_of_runs_from_two_cpu_models_says_so_in_its_stamp(seeded_db, tmp_path):
    db, page = tmp_path / "runs.sqlite", tmp_path / "page.md"
    shutil.copyfile(seeded_db, db)
    page.write_text(block(db, "--configs sat,circuit "))
    assert command.main([str(page)]) == 0
    assert "MIXED MACHINES" not in page.read_text()  # one sweep on this machine: nothing to say
    with closing(sqlite3.connect(db)) as conn, conn:  # half its runs as if a later batch ran elsewhere
        conn.execute("UPDATE runs SET extra = json_set(extra, '$.cpu_model', 'Another CPU') "
                     "WHERE rowid % 2 = 0")
    assert command.main([str(page)]) == 0
    text = page.read_text()
    assert "MIXED MACHINES: these runs come from 2 CPU models (" in text and "Another CPU: " in text


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
    # (every file a block names: its database, a CSV, a published-results file)
    for name in {arg for block in tables.blocks(path) for arg in block.args if (ROOT / arg).is_file()}:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, tmp_path / name)
    assert tables.regenerate(path, tmp_path) == path.read_text(encoding="utf-8"), \
        f"{path} is stale: run `python -m harness.tables` from the repository root"


def test_a_csv_block_renders_the_committed_file_and_refuses_a_bad_one(tmp_path, capsys):
    (tmp_path / "figures.csv").write_text("case,inputs,note\ndimacs,\"5,000\",none\ntext|walls,2033,crash\n")
    page = tmp_path / "page.md"
    page.write_text("<!-- table: --kind csv --csv figures.csv --columns case,inputs -->\nold\n"
                    "<!-- /table -->\n")
    assert command.main(["--root", str(tmp_path), str(page)]) == 0
    lines = page.read_text().splitlines()
    assert lines[1:5] == ["| case | inputs |", "|---|---:|", "| dimacs | 5,000 |", "| text\\|walls | 2033 |"]
    assert "made from `figures.csv`" in page.read_text() and "none" not in page.read_text()
    assert command.main(["--root", str(tmp_path), "--check", str(page)]) == 0
    (tmp_path / "figures.csv").write_text("case,inputs\ndimacs,5000\ntext-walls\n")  # a row short of a field
    assert command.main(["--root", str(tmp_path), str(page)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"error: {page}:1: figures.csv:3: 1 fields, the header has 2"
    page.write_text("<!-- table: --kind csv --csv gone.csv -->\n<!-- /table -->\n")
    assert command.main(["--root", str(tmp_path), str(page)]) == 2
    assert capsys.readouterr().err.strip() == f"error: {page}:1: gone.csv: no such file"
    (tmp_path / "figures.csv").write_text("case,inputs\ndimacs,5000\n")
    page.write_text("<!-- table: --kind csv --csv figures.csv --columns case,hangs -->\n<!-- /table -->\n")
    assert command.main(["--root", str(tmp_path), str(page)]) == 2
    assert "no column hangs (columns: case, inputs)" in capsys.readouterr().err


@pytest.mark.parametrize("args, said", [
    ("--kind csv --csv figures.csv --db runs.sqlite", "--kind csv reads no database (--db)"),
    ("--kind csv", "--kind csv needs --csv FILE"),
    ("--csv figures.csv", "--kind headline needs --db"),  # a file alone is no database table
    ("--kind cost", "--kind cost needs --db"),
])
def test_each_kind_is_given_its_input_and_no_other(tmp_path, capsys, args, said):
    # the csv kind is a KINDS entry like the others, read by the same parser: `--db` is for the kinds
    # that read a database, `--csv` for the one that reads a file
    assert tables.KINDS["csv"] == "harness.analysis.csvtable" and not tables.reads_database("csv")
    assert all(tables.reads_database(kind) for kind in tables.KINDS if kind != "csv")
    (tmp_path / "figures.csv").write_text("case,inputs\ndimacs,5000\n")
    page = tmp_path / "page.md"
    page.write_text(f"<!-- table: {args} -->\n<!-- /table -->\n")
    assert command.main(["--root", str(tmp_path), str(page)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {page}:1: ") and err.endswith(said) and "\n" not in err


# --- batches: one sweep command interrupted and resumed is one sweep; another plan is not -------------

BATCHED = ["--encoding", "dummy:behave=sleep:seconds=0.2", "--instances", "masyu-smoke", "--time-limit", "20",
           "--jobs", "1"]


@pytest.fixture(scope="module")
def batched_db(tmp_path_factory) -> Path:
    """One sweep command killed (SIGKILL, its workers with it) after its first runs, then run again: two
    batches of one sweep; then another plan (another encoding) at the same commit on the same host."""
    db = tmp_path_factory.mktemp("batches") / "runs.sqlite"
    argv = [*BATCHED, "--db", str(db)]
    first = subprocess.Popen([sys.executable, "-m", "harness.run", *argv], cwd=ROOT, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    try:
        while _stored(db) < 2:
            assert first.poll() is None, "the sweep ended before it could be interrupted"
            assert time.monotonic() < deadline, "no run stored within 120 s"
            time.sleep(0.05)
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    assert _stored(db) < 12  # interrupted: runs left for the second batch
    assert run_main(argv) == 0  # the same command resumes
    assert run_main(["--encoding", "dummy:behave=ok", *BATCHED[2:], "--db", str(db)]) == 0
    return db


def _stored(db: Path) -> int:
    if not db.exists():
        return 0
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        try:
            return conn.execute("SELECT count(*) FROM runs").fetchone()[0]
        except sqlite3.OperationalError:  # the tables are not made yet
            return 0


def test_a_resumed_sweep_is_one_sweep_in_batches_and_another_plan_refused(batched_db, tmp_path, capsys):
    with closing(sqlite3.connect(batched_db)) as conn:
        ids = [r[0] for r in conn.execute("SELECT sweep_id FROM sweeps ORDER BY started_at")]
        per_sweep = dict(conn.execute("SELECT sweep_id, count(*) FROM runs GROUP BY sweep_id").fetchall())
    assert len(ids) == 3 and per_sweep[ids[0]] + per_sweep[ids[1]] == 12  # 12 runs, in two batches
    assert set(batches.groups(batches.read(batched_db))) == {ids[0], ids[2]}
    page = tmp_path / "page.md"
    page.write_text(block(batched_db, f"--sweep {ids[0]} --kind cutoffs --cutoffs 1,20 "))
    assert command.main([str(page)]) == 0, capsys.readouterr().err
    text = page.read_text()
    assert f"sweep `{ids[0]}` (one sweep in 2 batches)" in text
    # all twelve runs counted, none solved (the dummy says unknown): PAR-2 is twice the 20 s limit
    assert "| dummy[behave=sleep,seconds=0.2] | measured | CPU | 1 | 12 | 0 | 0 | 40 |" in text
    page.write_text(block(batched_db, f"--sweep {ids[0]} --kind cost "))
    assert command.main([str(page)]) == 0
    with closing(sqlite3.connect(batched_db)) as conn:
        cpu = conn.execute("SELECT sum(cpu_s) FROM runs WHERE sweep_id IN (?, ?)", ids[:2]).fetchone()[0]
    text = page.read_text()
    assert f"| dummy[behave=sleep,seconds=0.2] | 12 | {cpu / 3600:.3g} |" in text
    assert "2 batches, " in text and "of the 1 that ended" in text  # the killed one has no end
    assert "all 12 planned runs stored" in text
    page.write_text(block(batched_db, f"--sweep {ids[1]} "))  # the second batch names its sweep
    assert command.main([str(page)]) == 0 and f"sweep `{ids[0]}` (one sweep in 2 batches)" in page.read_text()
    page.write_text(block(batched_db, f"--sweep {ids[2]} "))
    assert command.main([str(page)]) == 0 and "one sweep in" not in page.read_text()
    page.write_text(block(batched_db))  # both plans: the same commit and host, not the same sweep
    assert command.main([str(page)]) == 2
    assert "2 sweeps" in capsys.readouterr().err


def test_sweeps_join_only_with_the_same_plan_commit_and_host():
    plan = '{"encodings": ["sat"], "seeds": [0], "jobs": 1}'
    sweeps = pd.DataFrame([
        ("a", "1", plan, "c1", 0, "h1"), ("b", "2", plan.replace('"jobs": 1', '"jobs": 2'), "c1", 0, "h1"),
        ("c", "3", plan, "c2", 0, "h1"), ("d", "4", plan, "c1", 0, "h2"), ("e", "5", plan, "c1", 1, "h1"),
        ("f", "6", plan.replace("[0]", "[1]"), "c1", 0, "h1"), ("g", "7", None, "c1", 0, "h1"),
        ("h", "8", plan, None, None, "h1")],
        columns=["sweep_id", "started_at", "config", "commit", "dirty", "host"])
    # b: the same plan executed with other jobs; c: another commit; d: another host; e: a dirty tree;
    # f: other seeds; g: no plan recorded; h: no commit recorded
    assert batches.groups(sweeps).to_dict() == {"a": "a", "b": "a", "c": "c", "d": "d", "e": "e", "f": "f",
                                                "g": "g", "h": "h"}



def test_a_batch_on_part_of_a_sweeps_instances_joins_it_and_nothing_else_does():
    def plan(instances, seeds=(0,)):
        return json.dumps({"encodings": ["sat"], "instances": instances, "seeds": list(seeds), "jobs": 1})
    whole = ["g/a.hcp", "g/b.hcp", "g/c.hcp"]
    sweeps = pd.DataFrame([
        ("p", "0", plan(["g/a.hcp"])), ("w", "1", plan(whole)), ("x", "2", plan(["./g/b.hcp"])),
        ("y", "3", plan(["g/d.hcp"])), ("z", "4", plan(whole[:2], (1,))), ("e", "5", plan([])),
        ("f", "6", plan([]))], columns=["sweep_id", "started_at", "config"])
    sweeps = sweeps.assign(commit="c1", dirty=0, host="h1")
    # p: part of w's instances, begun first (it names the sweep); x: part of them, spelt another way;
    # y: an instance w has not; z: other seeds; e, f: no instances recorded, so only each other's like
    assert batches.groups(sweeps).to_dict() == {"p": "p", "w": "p", "x": "p", "y": "y", "z": "z", "e": "e",
                                                "f": "e"}

# --- the cutoffs kind: solved within each cutoff beside published columns with their clocks -----------

def test_cutoffs_count_within_each_cutoff_beside_published_columns_with_their_clocks(seeded_db, tmp_path):
    names = [i.name for i in sets.instances("masyu-smoke")]
    tsv = tmp_path / "published.tsv"
    times = {"fast": ["0.5", "5", "TO"], "slow": ["30", "", "2"]}  # the rest of the set: TO / not run
    lines = ["# limit_s: 100", "# columns fast: clock=cpu; machine=M1; program=P1",
             "# columns slow: clock=wall; machine=M2; program=P2", "instance\tfast\tslow"]
    lines += [f"{n}\t{times['fast'][i] if i < 3 else 'TO'}\t{times['slow'][i] if i < 3 else ''}"
              for i, n in enumerate(names)]
    tsv.write_text("\n".join(lines) + "\n")
    page = tmp_path / "page.md"
    page.write_text(block(seeded_db, f"--configs sat,circuit --kind cutoffs --cutoffs 1,10,20 --published "
                                     f"{tsv} --published-configs fast,slow --published-best '*' "))
    assert command.main([str(page)]) == 0
    text = page.read_text()
    rows = {line.split(" | ")[0].strip("|` "): line.split(" | ") for line in text.splitlines()
            if line.startswith("| ") and "side" not in line}
    par2 = (0.5 + 5 + 10 * 2 * 20) / 12  # two solved within the 20 s limit, ten TO at twice it
    assert rows["fast"][1:] == ["published", "CPU", "–", "12", "1", "2", "2", f"{par2:.3g} |"]
    assert rows["slow"][1:3] == ["published", "WALL"] and rows["slow"][4:8] == ["2", "0", "1", "1"]
    assert rows["published virtual best of * (2 columns)"][2] == "mixed"  # over a CPU and a WALL column
    assert rows["published virtual best of * (2 columns)"][5:8] == ["1", "3", "3"]
    assert "- `fast`: CPU time; machine: M1; program: P1" in text and "machine: M2; program: P2" in text
    assert "MIXED CLOCKS: `published virtual best of * (2 columns)`, `slow` not on CPU time" in text
    # the measured side: within the limit, the headline table's solved counts
    head = tables.headline(tables.with_config(_smoke_runs(seeded_db)))
    for config in ("sat", "circuit"):
        assert rows[config][1:4] == ["measured", "CPU", "3"]
        assert rows[config][7] == f"{head.loc[config, 'solved']:g}" + (
            "" if head.loc[config, "solved_min"] == head.loc[config, "solved_max"] else
            f" ({head.loc[config, 'solved_min']:g}-{head.loc[config, 'solved_max']:g})")


def _smoke_runs(db: Path) -> pd.DataFrame:
    from harness.analysis import plots
    from harness.analysis.sweeps import one_sweep

    runs = tables.with_config(plots.load(db))
    return one_sweep(runs[runs["config"].isin(["sat", "circuit"])], ["sat", "circuit"])


def test_cutoffs_refuse_a_cutoff_past_the_limit_and_an_unknown_published_column(seeded_db, tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text(block(seeded_db, "--configs sat --kind cutoffs --cutoffs 1,30 "))
    assert command.main([str(page)]) == 2 and "none above the runs' 20 s limit" in capsys.readouterr().err
    page.write_text(block(seeded_db, "--configs sat --kind cutoffs --published "
                                     "results/fhcp/published-times.tsv --published-configs nothing* "))
    assert command.main(["--root", str(ROOT), str(page)]) == 2
    assert "'nothing*' matches no configuration column" in capsys.readouterr().err
    short = tmp_path / "short.tsv"  # a publisher who stopped at 5 s cannot say what solved within 10
    short.write_text("# limit_s: 5\n# columns a: clock=cpu; machine=M; program=P\ninstance\ta\njanko001\t1\n")
    page.write_text(block(seeded_db, f"--configs sat --kind cutoffs --cutoffs 1,10 --published {short} "
                                     "--published-configs a "))
    assert command.main([str(page)]) == 2
    assert "above" in (err := capsys.readouterr().err) and "own 5 s limit" in err


@pytest.mark.parametrize("script", [["fhcp/regenerate.sh"], ["mip/regenerate.sh", "graph-hard"],
                                    ["mip/regenerate.sh", "fhcp-sample"], ["selector/regenerate.sh"],
                                    ["fhcp/long.sh"]],
                         ids=" ".join)
def test_the_study_scripts_refuse_to_continue_a_database_begun_at_another_commit(tmp_path, script):
    db = tmp_path / "headline.sqlite"
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute('CREATE TABLE sweeps (sweep_id TEXT, started_at TEXT, "commit" TEXT)')
        conn.execute("INSERT INTO sweeps VALUES ('s1', '2026-01-01T00:00:00', 'abc1234deadbeef')")
    path, *arguments = script
    done = subprocess.run(["bash", str(ROOT / "results" / path), *arguments], capture_output=True,
                          text=True, env={**os.environ, "DB": str(db), "PYTHON": sys.executable}, timeout=120)
    assert done.returncode != 0
    assert "was begun at commit abc1234" in done.stderr and "check that commit out" in done.stderr
    with closing(sqlite3.connect(db)) as conn:  # refused before any sweep: nothing added
        assert conn.execute("SELECT count(*) FROM sweeps").fetchone()[0] == 1
