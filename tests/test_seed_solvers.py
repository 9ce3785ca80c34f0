"""The seeds' other solvers: dfs and inference on the smoke set, inference's replayable steps, and the replay.

Every answer goes through execute() and the independent checker; the replay must rebuild exactly the
loop (or the partial grid) the encoding returned, from the steps alone, also from a sweep's database.
"""

from __future__ import annotations

import json
from functools import cache

import matplotlib
import pytest
from PIL import Image

from harness import replay
from harness.analysis import results
from harness.encoding import Limits
from harness.grid import solution_edges
from harness.run import steps as step_files
from harness.run.cli import main as run_main
from harness.run.execute import execute
from harness.sets import resolve
from harness.solve import EXIT_SOLVED, EXIT_UNSOLVED
from harness.solve import main as solve_main

matplotlib.use("Agg")

SMOKE = {instance.name: instance for instance in resolve("masyu-smoke")}
# Where deduction with one level of hypotheses runs out (measured, not wished): a hard 10x10.
STUCK = {"pm-10x10-hard-7520147"}


@cache
def solve(encoding: str, name: str, time_s: float = 30.0) -> dict:
    return execute(SMOKE[name], encoding, {}, seed=0, limits=Limits(time_s=time_s))


def extra(row: dict) -> dict:
    return json.loads(row["extra"])


@pytest.mark.parametrize("name", sorted(SMOKE))
def test_inference_solves_the_smoke_set_but_one_and_its_steps_replay_to_its_answer(name):
    row, instance = solve("inference", name), SMOKE[name]
    steps = extra(row)["steps"]
    if name in STUCK:
        assert row["status"] == "unknown" and "stuck" in row["detail"]
        partial = extra(row)["partial"]
        assert replay.final(instance.puzzle, steps) == partial
        grid = instance.puzzle.grid
        assert solution_edges(grid, partial) < solution_edges(grid, instance.known_solution)
        return
    assert (row["status"], row["verified"], row["matches_known"]) == ("solved", 1, 1), row["detail"]
    assert replay.final(instance.puzzle, steps) == row["solution"]
    assert all(rule != "rollback" or hypothesis for rule, _, _, hypothesis in steps)
    assert sum(extra(row)["rules"].values()) == sum(1 for step in steps if not step[3])


@pytest.mark.parametrize("name", sorted(n for n, i in SMOKE.items() if i.puzzle.grid.num_cells <= 64))
def test_dfs_solves_the_small_smoke_puzzles(name):
    row = solve("dfs", name)
    assert (row["status"], row["verified"], row["matches_known"]) == ("solved", 1, 1), row["detail"]
    assert extra(row)["nodes"] > 0


def test_dfs_stops_at_a_short_time_limit_with_its_path_so_far():
    instance = next(i for i in resolve("masyu-seed") if i.name == "janko080")  # 16x16: far beyond dfs
    row = execute(instance, "dfs", {}, seed=0, limits=Limits(time_s=0.5))
    assert row["status"] == "unknown" and "time limit" in row["detail"]
    assert not row.get("solution")
    assert extra(row)["nodes"] > 0 and extra(row)["partial"]


def test_a_gif_of_the_solve_has_a_frame_per_step(tmp_path):
    name = "janko001"
    steps = extra(solve("inference", name))["steps"]
    out = replay.animate(SMOKE[name].puzzle, steps, tmp_path / "solve.gif", title=name)
    with Image.open(out) as gif:
        assert gif.n_frames >= len(steps) > 30


def test_hypotheses_and_their_rollbacks_are_in_the_text(tmp_path):
    lines = replay.text(SMOKE["janko-at-123"].puzzle, extra(solve("inference", "janko-at-123"))["steps"])
    assert any(" assume " in line for line in lines) and any("undo the trial" in line for line in lines)
    assert any(line.lstrip().startswith("1 ") for line in lines)


def test_solve_cli_animates_prints_steps_and_draws_a_partial_grid(tmp_path, capsys):
    folder = tmp_path / "puzzles"
    folder.mkdir()
    for name in ("janko001", "pm-10x10-hard-7520147"):
        (folder / f"{name}.txt").write_text(SMOKE[name].text)
    gif = tmp_path / "janko001.gif"
    code = solve_main([str(folder / "janko001.txt"), "-e", "inference", "--steps", "--animate", str(gif)])
    assert code == EXIT_SOLVED and gif.stat().st_size > 0
    assert "white-straight" in capsys.readouterr().out
    assert solve_main([str(folder / "pm-10x10-hard-7520147.txt"), "-e", "inference"]) == EXIT_UNSOLVED
    head, *drawing = capsys.readouterr().out.splitlines()
    assert "unknown (partial" in head and any("─" in line for line in drawing)


def test_solve_json_gives_the_step_count_and_the_steps_only_when_asked(tmp_path, capsys):
    path = tmp_path / "janko001.txt"
    path.write_text(SMOKE["janko001"].text)
    assert solve_main([str(path), "-e", "inference", "--json"]) == EXIT_SOLVED
    short = json.loads(capsys.readouterr().out)["extra"]
    assert "steps" not in short and short["step_count"] > 30
    assert solve_main([str(path), "-e", "inference", "--json", "--steps"]) == EXIT_SOLVED
    full = json.loads(capsys.readouterr().out)["extra"]  # one JSON document: no step text after it
    assert len(full["steps"]) == short["step_count"] and "step_count" not in full


def test_a_sweep_keeps_steps_in_a_file_beside_the_database_and_replays_them(tmp_path, capsys):
    folder = tmp_path / "puzzles"
    folder.mkdir()
    (folder / "janko001.txt").write_text(SMOKE["janko001"].text)
    db = tmp_path / "results" / "runs.sqlite"
    argv = ["--encoding", "inference", "--instances", str(folder), "--db", str(db), "--jobs", "1"]
    assert run_main(argv) == 0
    (run,) = results.load(db).to_dict("records")
    stats = json.loads(run["extra"])
    assert "steps" not in stats and (db.parent / stats["steps_file"]).is_file()
    capsys.readouterr()
    gif = tmp_path / "replay.gif"
    assert replay.main(["--db", str(db), run["run_key"][:12], "--steps", "--out", str(gif)]) == 0
    _, puzzle, steps = step_files.load(db, run["run_key"])
    assert len(capsys.readouterr().out.splitlines()) == len(steps) and gif.is_file()
    assert replay.final(puzzle, steps) == run["solution"]
