"""Bad input never costs a sweep: bounded readers, values the store holds, JSONL line by line, none dropped.

Each case of issue 46 (items 1, 2, 3, 7) as it was reproduced: one line naming the file, line and
limit (exit 2 from harness.solve), or an `error` row in a sweep that goes on and resumes.
"""

from __future__ import annotations

import bz2
import gzip
import json
import sqlite3

import pytest
from test_janko_loop import scrape_line

from harness import scrape, sets, solve
from harness.errors import InstanceError
from harness.kinds import bounds, read_spec
from harness.run import fits
from harness.run.cli import main as run_main
from harness.run.cli import parser

HCP = "NAME : g\nTYPE : HCP\nDIMENSION : {n}\nEDGE_DATA_SECTION\n1 2\n2 3\n3 4\n4 1\n-1\nEOF\n"


def refused(path, *words):
    with pytest.raises(InstanceError) as info:
        read_spec(str(path))
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path)), message
    for word in words:
        assert word in message, message
    return message


def test_a_gzip_bomb_is_refused_after_the_byte_limit_not_decompressed_whole(tmp_path, monkeypatch):
    monkeypatch.setenv("LOOPBENCH_READ_BYTES", str(1 << 20))
    path = tmp_path / "bomb.hcp.gz"
    with gzip.open(path, "wb") as out:  # 64 MiB of blank-separated numbers in 64 KiB
        out.write(HCP.format(n=4).encode()[:50])
        for _ in range(64):
            out.write(b"1 2\n" * (1 << 18))
    message = refused(path, "past the limit of 1,048,576 decompressed bytes", "LOOPBENCH_READ_BYTES")
    assert message.startswith(f"{path}:")  # and the line where the limit was passed


def test_a_bz2_file_is_read_by_its_first_bytes_and_bounded_too(tmp_path, monkeypatch):
    path = tmp_path / "g.hcp.bz2"
    path.write_bytes(bz2.compress(HCP.format(n=4).encode()))
    assert read_spec(str(path)).n == 4
    monkeypatch.setenv("LOOPBENCH_READ_LINES", "3")
    refused(path, "past the limit of 3 lines", "LOOPBENCH_READ_LINES")


def test_a_50_mb_token_is_refused_without_being_echoed(tmp_path):
    path = tmp_path / "token.txt"
    path.write_text("graph 4 4\n1 2\n2 3\n3 4\n4 " + "1" * (50 << 20) + "\n")
    message = refused(path, "a token too long", "LOOPBENCH_READ_TOKEN")
    assert message.startswith(f"{path}:5:") and len(message) < 300


@pytest.mark.parametrize("text, words", [
    (HCP.format(n="99999999999999999999"), "DIMENSION is 99999999999999999999: past the limit of 1,000,000"),
    (HCP.format(n=4).replace("DIMENSION : 4", "DIMENSION : 4\nDIMENSION : 9999999"),
     "a second DIMENSION line (the first is line 3)"),
    ("p edge 9223372036854775808 1\ne 1 2\n", "vertex count is 9223372036854775808: past the limit"),
    ("graph 9223372036854775808 1\n1 2\n", "the number of vertices is 9223372036854775808: past the limit"),
    (HCP.format(n=4).replace("1 2\n", "1 " + "9" * 5000 + "\n"), "is outside 1..4"),
    ("masyu 30000 30000\n", "30000x30000: past the limit of 1,000,000"),
    ("begin\npuzzle masyu\nsize 5\nsize 9\nproblem\nend\n", "a second `size` line (the first is line 3)"),
])
def test_numbers_past_the_limits_and_repeated_headers_are_one_line(tmp_path, text, words):
    path = tmp_path / "g.txt"
    path.write_text(text)
    refused(path, words)


def test_ids_and_urls_are_bounded_before_their_cells_are_made():
    with pytest.raises(InstanceError, match="past the limit of 1,000,000 cells"):
        read_spec("https://puzz.link/p?mashu/100000/100000/0")
    with pytest.raises(InstanceError, match="string too long"):  # stops at the grid's cells, not 26 x 10^6
        read_spec("3x3:" + "z" * 1_000_000)
    with pytest.raises(InstanceError, match="past the limit of 1,000,000 cells"):
        read_spec("5000x5000t0:a")


def test_a_limit_is_overridable_and_a_bad_override_says_so(tmp_path, monkeypatch):
    path = tmp_path / "g.hcp"
    path.write_text(HCP.format(n=2_000_000))
    refused(path, "LOOPBENCH_READ_COUNT")
    monkeypatch.setenv("LOOPBENCH_READ_COUNT", "3")
    monkeypatch.setenv("LOOPBENCH_READ_SIZE", "3")
    assert "past the limit of 3" in refused(tmp_path / "g.hcp")
    monkeypatch.setenv("LOOPBENCH_READ_COUNT", "lots")
    with pytest.raises(ValueError, match="LOOPBENCH_READ_COUNT='lots' is not a whole number"):
        bounds.limits()


def test_the_report_reads_a_source_through_the_same_bounds(tmp_path, monkeypatch):
    from harness.report.figures import puzzle_of

    monkeypatch.setenv("LOOPBENCH_READ_BYTES", "100")
    path = tmp_path / "g.hcp"
    path.write_text(HCP.format(n=4) + "COMMENT : x\n" * 20)
    puzzle, why = puzzle_of(str(path), "0" * 64)
    assert puzzle is None and "past the limit of 100 decompressed bytes" in why


def test_every_bad_jsonl_line_is_one_error_and_the_rest_are_read(tmp_path):
    good = scrape_line()
    lines = [good, scrape_line(size=1e20), scrape_line(size=1e400), scrape_line(solution=5),
             json.dumps({**json.loads(good), "file": 7}),
             json.dumps({"file": "/Geradeweg/9.a", "data": {"puzzle": "geradeweg", "size": 30000}}),
             scrape_line(problem=[[{"a": 1}] * 5] * 5), "[" * 100_000, '{"file": 1' + "1" * 5000 + "}",
             good.replace("900", "901")]
    path = tmp_path / "Geradeweg.jsonl"
    path.write_text("\n".join(lines) + "\n")
    records = scrape.read(path)
    assert [r.puzzle is not None for r in records] == [True] + [False] * 8 + [True]
    errors = [r.error for r in records[1:-1]]
    assert [e.split(": ")[0] for e in errors] == [f"{path}:{n}" for n in range(2, 10)]
    assert all("\n" not in e and len(e) < 300 for e in errors)
    assert "must be a whole number" in errors[0] and "not a 5x5 grid" in errors[2]
    assert "`file` is not a string" in errors[3] and "past the limit of 1,000,000 cells" in errors[4]


def test_seed_past_the_store_is_refused_at_the_command_line(capsys):
    with pytest.raises(SystemExit) as info:
        parser().parse_args(["--encoding", "dummy", "--seed", "99999999999999999999"])
    assert info.value.code == 2
    assert "does not fit the results database's signed 64-bit INTEGER" in capsys.readouterr().err


def test_a_row_that_cannot_be_stored_becomes_an_error_row():
    row = {"run_key": "k", "seed": 1 << 70, "rows": 3, "status": "sat", "detail": ""}
    out = fits.storable(row)
    assert out["status"] == "error" and out["seed"] is None and out["rows"] == 3
    assert "seed 1180591620717411303424 does not fit" in out["detail"]
    huge = fits.storable({"conflicts": 10 ** 5000})
    assert huge["detail"].startswith("cannot be stored: conflicts (a number")
    assert fits.storable(row := {"seed": (1 << 63) - 1}) is row


def test_a_sweep_stores_bad_files_as_error_rows_reports_repeats_and_resumes(tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("graph 4 4\n1 2\n2 3\n3 4\n4 1\n")
    (folder / "b.txt").write_text("graph 4 4\n\n1 2\n2 3\n3 4\n4 1\n")  # the same puzzle
    (folder / "big.hcp").write_text(HCP.format(n="99999999999999999999"))
    (folder / "twice.hcp").write_text(HCP.format(n=4).replace("TYPE : HCP", "TYPE : HCP\nDIMENSION : 4"))
    with gzip.open(folder / "bomb.hcp.gz", "wb") as out:
        out.write(b"0" * (80 << 20))
    db = tmp_path / "r.sqlite"
    argv = ["--encoding", "dummy", "--instances", str(folder), "--db", str(db)]
    assert run_main(argv) == 0
    captured = capsys.readouterr()
    assert f"{folder}/b.txt repeats the puzzle of {folder}/a.txt: run once, as a" in captured.err
    assert "4 runs planned (1 instances repeat another's puzzle" in captured.out
    rows = dict(sqlite3.connect(db).execute("select instance, status from runs"))
    assert rows == {"a": "unknown", "big": "error", "twice": "error", "bomb": "error"}
    assert run_main(argv) == 0  # the same command resumes: nothing runs again
    assert "4 already stored, 0 recorded" in capsys.readouterr().out


def test_a_sweep_with_a_seed_past_the_store_records_an_error_row(tmp_path):
    from harness.run import sweep

    db = tmp_path / "r.sqlite"
    plan = sweep.Sweep(instances=sets.resolve("masyu-seed")[:1], encodings=["dummy"], seeds=[1 << 64], db=db)
    report = sweep.run(plan, progress=False)
    assert report.recorded == 1 and report.failed == 0
    status, seed, detail = sqlite3.connect(db).execute("select status, seed, detail from runs").fetchone()
    assert (status, seed) == ("error", None) and "seed 18446744073709551616 does not fit" in detail
    assert sweep.run(plan, progress=False).skipped == 1


def test_harness_solve_says_one_line_and_exits_2(tmp_path, capsys):
    path = tmp_path / "g.hcp"
    path.write_text(HCP.format(n=4).replace("DIMENSION : 4", "DIMENSION : 4\nDIMENSION : 5"))
    assert solve.main([str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "a second DIMENSION line" in err
