"""The single-puzzle CLI: a file, a puzz.link URL and a Tatham id solve; bad input is one line, exit 2."""

from __future__ import annotations

import json

import matplotlib
import pytest

from harness import kinds
from harness.kinds import read_spec as read_puzzle
from harness.kinds.masyu.draw import render_text
from harness.solve import EXIT_BAD_INPUT, EXIT_SOLVED, EXIT_UNSOLVED, main

matplotlib.use("Agg")

FIXTURE = "6 6\n- - w - - -\n- b - - w -\n- - - - - -\n- - - b - -\n- w - - - -\n- - - - - -\n"
URL = "https://puzz.link/p?mashu/6/6/1063000i3000"
TATHAM = "6x6:bWdBbWjBcWj"


@pytest.fixture
def fixture_file(tmp_path):
    path = tmp_path / "fixture.txt"
    path.write_text(FIXTURE)
    return path


@pytest.mark.parametrize("encoding", ["circuit", "lazy", "sat"])
def test_file_solves_and_draws_the_loop(fixture_file, capsys, encoding):
    assert main([str(fixture_file), "--encoding", encoding]) == EXIT_SOLVED
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith(f"fixture: masyu 6x6, 5 pearls; {encoding}: solved")
    assert "─" in out and "●" in out and "○" in out


@pytest.mark.parametrize("spec", [URL, TATHAM])
def test_url_and_tatham_id_give_the_same_checked_loop(spec, fixture_file, capsys):
    assert main([spec, "-e", "sat", "--json"]) == EXIT_SOLVED
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "solved" and result["verified"] == 1 and result["source"] == spec
    puzzle = read_puzzle(str(fixture_file))
    assert kinds.check(puzzle, result["solution"]) == []  # the URL and the id are this very puzzle
    assert {"solve_s", "iterations", "cuts", "extra", "options"} <= set(result)
    assert isinstance(result["extra"], dict)


def test_text_output_is_the_render_of_the_solution(fixture_file, capsys):
    assert main([str(fixture_file), "-e", "sat", "--ascii"]) == EXIT_SOLVED
    out = capsys.readouterr().out
    main([str(fixture_file), "-e", "sat", "--json"])
    solution = json.loads(capsys.readouterr().out)["solution"]
    assert render_text(read_puzzle(str(fixture_file)), solution, ascii=True) in out


def test_options_seed_and_limit_reach_the_encoding(fixture_file, capsys):
    argv = [str(fixture_file), "-e", "sat", "-o", "cuts=cutset", "--seed", "3", "--time-limit", "5", "--json"]
    assert main(argv) == EXIT_SOLVED
    result = json.loads(capsys.readouterr().out)
    assert result["options"]["cuts"] == "cutset" and result["seed"] == 3


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_png_option_draws_a_file(fixture_file, tmp_path, capsys, suffix):
    image = tmp_path / f"out{suffix}"
    assert main([str(fixture_file), "-e", "sat", "--png", str(image)]) == EXIT_SOLVED
    assert image.stat().st_size > 1000


def test_unsolvable_puzzle_exits_1(tmp_path, capsys):
    path = tmp_path / "black2x2.txt"
    path.write_text("2 2\nb -\n- -\n")  # a black pearl needs two cells straight on from its turn
    assert main([str(path), "-e", "sat"]) == EXIT_UNSOLVED
    assert ": unsat" in capsys.readouterr().out.splitlines()[0]


def test_wrong_answer_exits_1_and_shows_the_complaint(fixture_file, capsys):
    empty = "/".join(["000000"] * 6)
    argv = [str(fixture_file), "-e", "dummy", "-o", "status=sat", "-o", f"solution={empty}"]
    assert main(argv) == EXIT_UNSOLVED
    out = capsys.readouterr().out
    assert "dummy: wrong" in out.splitlines()[0] and len(out.splitlines()) > 3


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["/nonexistent/puzzle.txt"], "/nonexistent/puzzle.txt"),
        (["https://puzz.link/p?mashu/6/6/10630!0i3000"], "base-27"),
        (["6x6:bWdBbWjBcWjzz"], "6x6:bWdBbWjBcWjzz"),
        ([URL, "--encoding", "no-such-encoding"], "no-such-encoding"),
        ([URL, "-e", "sat", "-o", "nonsense=1"], "nonsense"),
        ([URL, "-e", "sat", "-o", "novalue"], "novalue"),
    ],
)
def test_bad_input_is_one_line_on_stderr(argv, needle, capsys):
    assert main(argv) == EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and needle in captured.err and "Traceback" not in captured.err


def test_bad_file_content_names_file_and_line(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("2 2\nb x\n- -\n")
    assert main([str(path)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}:2:") and err.count("\n") == 1


def test_help_states_the_exit_codes(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "0 solved" in out and "1 not solved" in out


@pytest.mark.parametrize("value, words", [("nan", "must be a number"), ("inf", "must be finite"),
                                          ("-1", "must be positive"), ("1e15", "past the largest")])
def test_a_time_limit_that_is_no_number_is_refused_in_one_line(fixture_file, capsys, value, words):
    assert main([str(fixture_file), "--time-limit", value]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    said = f"--time-limit {'1e+15 is ' if value == '1e15' else ''}"
    assert err.count("\n") == 1 and said in err and words in err
