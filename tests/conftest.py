"""Fixtures shared by the test modules, and the test tiers: which tests are `unit`, `system`, `slow`.

Tiers (markers registered in pyproject.toml, where `--strict-markers` refuses any other):
- `unit`: in this process, on bundled or tiny inputs; every test that is not `system`.
- `system`: starts processes: the runner's workers (any sweep through `harness.run`), subprocesses,
  Dask, Slurm, Chromium, notebook kernels, `pip`.
- `slow`: besides its tier, long (whole sets, big graphs) or loading the CPU on purpose (CPU hogs).

`pytest` alone runs the fast tier, `unit and not slow`; `pytest --full` runs every test (what
.ci/run and the README run). Naming test files or folders, or giving `-m`, selects as asked with
no tier applied, so `pytest tests/test_dask.py` runs the Dask tests.

The tiers are given here, by test file, fixture and test, rather than by a decorator in each
file, so that a test file says what it tests and this file says how costly it is.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

# Where PYTHONDONTWRITEBYTECODE is set (this machine sets it), each run would rewrite every test
# module's asserts and compile every module it imports again, about half the CPU of collecting the
# tests. The compiled files are kept instead, outside the repository (nothing is written in it).
if sys.dont_write_bytecode and not sys.pycache_prefix:
    sys.pycache_prefix = str(Path(tempfile.gettempdir()) / f"loopbench-pycache-{os.getuid()}")
    sys.dont_write_bytecode = False

# The machine canary (harness.run.canary) costs each sweep's batch about a second of CPU: the suite's
# many small sweeps (and the subprocesses they start, which inherit this) go without it;
# tests/test_canary.py turns it on where it is the subject.
os.environ["LOOPBENCH_CANARY_EVERY"] = "0"

# Test files whose every test starts processes, and why.
SYSTEM_FILES = {
    "test_bench_fhcp_memory.py": "runs a benchmark script in a subprocess",
    "test_cgroup_versions.py": "cgroup probes in subprocesses",
    "test_child_cpu.py": "real workers",
    "test_compare.py": "real sweeps",
    "test_cpu_clock.py": "a subprocess under an armed CPU limit",
    "test_dask.py": "a Dask cluster",
    "test_deterministic.py": "CPU hogs",
    "test_fingerprint.py": "sweeps in subprocesses",
    "test_graph_report.py": "a real sweep",
    "test_harness_apart.py": "real workers",
    "test_isolation.py": "real workers",
    "test_notebooks.py": "notebook kernels",
    "test_one_folder.py": "a project installed and run in subprocesses",
    "test_packaging.py": "pip wheel",
    "test_pinning.py": "real workers",
    "test_plots.py": "real sweeps",
    "test_plugins.py": "plug-ins installed and swept in subprocesses",
    "test_portfolio.py": "the members' forked processes",
    "test_progress.py": "real workers",
    "test_published.py": "a real sweep",
    "test_report.py": "a real sweep, Chromium",
    "test_run.py": "real sweeps",
    "test_slurm.py": "a Slurm cluster",
    "test_sweep_kinds.py": "a real sweep",
    "test_unique_run.py": "real workers",
    "test_watch_stop.py": "solves in child processes",
}
# Fixtures that start processes: a test using one is `system` wherever it is.
SYSTEM_FIXTURES = {"supervisor", "smoke_db", "seeded_db"}  # seeded_db: test_tables' sweep
# Single tests that start processes in files that are otherwise `unit` (names without parameters).
SYSTEM_TESTS = {
    "test_auto.py::test_a_sweep_stores_the_features_and_the_choice_in_extra",
    "test_canary.py::test_a_real_sweep_reads_the_canary_and_its_table_says_so",
    # the `command` encoding's programs are subprocesses; its tests of reading their output are unit
    "test_command.py::test_every_form_of_answer_is_judged_solved_and_the_programs_cpu_counted",
    "test_command.py::test_the_dimacs_file_is_written_when_asked_and_a_tour_from_0_read_so",
    "test_command.py::test_a_wrong_tour_is_wrong_and_an_empty_sat_claim_too",
    "test_command.py::test_a_claim_of_no_cycle_is_an_unsat_answer",
    "test_command.py::test_a_program_that_crashes_raises_with_its_stderr_and_a_silent_one_is_unknown",
    "test_command.py::test_the_program_runs_where_the_harness_runs_so_a_relative_path_is_found",
    "test_command.py::test_a_program_that_waits_forever_is_stopped_by_the_wall_clock_guard",
    "test_command.py::test_the_harness_itself_as_a_program_answers_as_its_solver_does",
    "test_command.py::test_a_sweep_times_out_a_spinning_program_counts_its_cpu_and_records_a_crash",
    "test_command.py::test_a_sweep_without_a_command_line_is_refused_in_one_line_before_any_run",
    "test_export.py::test_a_wrong_answer_is_named_and_its_cell_is_not_a_time_and_two_limits_are_refused",
    "test_export.py::test_each_verified_cycle_is_written_as_a_tour_the_checker_accepts_with_a_manifest",
    "test_graph_check.py::test_known_answers_travel_to_the_workers",
    "test_graph_fhcp.py::test_a_broken_gzip_file_is_one_line_exit_2_and_an_error_row",
    "test_seed_solvers.py::test_a_sweep_keeps_steps_in_a_file_beside_the_database_and_replays_them",
    "test_select.py::test_a_run_at_a_shorter_limit_counts_only_for_a_configuration_whose_search_never_reads_its_limit",
    "test_tables.py::test_a_resumed_sweep_is_one_sweep_in_batches_and_another_plan_refused",  # kills a sweep
    "test_tables.py::test_the_study_scripts_refuse_to_continue_a_database_begun_at_another_commit",  # bash
    "test_bounded_input.py::test_a_sweep_stores_bad_files_as_error_rows_reports_repeats_and_resumes",
    "test_drat.py::test_a_header_past_what_the_files_can_use_is_unreadable_before_anything_is_allocated",
    "test_store.py::test_a_read_only_checkout_of_a_committed_wal_database_is_reported_and_compared",
    "test_store.py::test_commits_still_in_the_wal_of_a_read_only_folder_are_read_from_a_copy",
    "test_store.py::test_a_read_only_folder_refuses_the_writer_in_one_line",
    "test_store.py::test_a_full_disk_mid_sweep_is_one_line_keeps_what_was_stored_and_the_same_command_resumes",
}
# Long tests or whole files, and why (names without parameters, a file, or, with a `[`, the start of
# a test's name with its parameters: `…[dfs-` is every dfs case).
SLOW = {
    "test_deterministic.py": "beside two CPU hogs",
    "test_child_cpu.py": "CPU-bound children",
    "test_isolation.py::test_a_busy_run_starved_of_cpu_is_not_killed_at_the_wall_cap": "beside CPU hogs",
    "test_watch_stop.py": "FHCP graphs stopped at every point",
    "test_notebooks.py": "notebooks executed",
    "test_one_folder.py": "installs the project",
    "test_packaging.py": "builds a wheel",
    "test_plugins.py": "installs plug-ins",
    "test_slurm.py": "starts a Slurm cluster",
    "test_dask.py": "starts a Dask cluster",
    # the longest unit tests, each half a minute to two minutes on a loaded 2-core machine: whole
    # bundled sets, every option or restart policy over the smoke sets, brute-force enumerations
    "test_sets.py::test_every_known_solution_passes_the_checker": "every bundled set's known solutions",
    "test_sets.py::test_every_bundled_instance_parses": "every bundled instance",
    "test_sat_options.py::test_every_option_answers_the_smoke_sets_and_the_checker_accepts": "every option",
    "test_sat_options.py::test_restarts_keep_every_answer_of_the_smoke_sets": "every restart policy",
    "test_sat_options.py::test_restarts_after_the_faces_came_in_keep_them": "restarts past the faces",
    "test_sat_options.py::test_restarts_find_every_hamiltonian_cycle_and_log_a_proof_the_checker_certifies":
        "every cycle, with proofs",
    "test_janko_loop.py::test_each_smoke_puzzle_is_solved_as_janko_at_solved_it_and_only_so":
        "every encoding on every janko.at genre",
    "test_sat_encodings.py::test_the_propagator_solves_the_puzzles_cadicals_inprocessing_looped_on":
        "100x100 and 200x200 Masyu",
    "test_conformance.py::test_sat_or_unsat_as_brute_force_says": "brute force over random puzzles",
    "test_conformance_slitherlink.py::test_sat_or_unsat_as_brute_force_says": "brute force, random puzzles",
    "test_generate_walls_slitherlink.py::test_the_bundled_small_puzzles_come_again_from_their_seed":
        "regenerates bundled sets",
    "test_generate_walls_slitherlink.py::test_the_same_seed_gives_the_same_bytes": "generates twice",
    "test_generate_walls_slitherlink.py::test_every_puzzle_is_verified_and_unique": "uniqueness proofs",
    "test_disc_cuts.py::test_every_disc_cut_is_kept_by_every_answer": "enumerates every answer",
    "test_disc_cuts.py::test_disc_cuts_enumerate_exactly_the_brute_force_answers": "brute force",
    "test_seed_solvers.py::test_solve_cli_animates_prints_steps_and_draws_a_partial_grid": "draws a GIF",
    "test_seed_solvers.py::test_a_gif_of_the_solve_has_a_frame_per_step": "draws a GIF",
    "test_graph_loop.py::test_every_strategy_finds_every_hamiltonian_cycle": "enumerates every cycle",
    "test_graph_loop.py::test_unique_on_graphs": "uniqueness on graphs",
    "test_frontier.py::test_the_greedy_order_places_every_vertex_once_and_keeps_a_hub_s_frontier_narrow":
        "big graphs",
    "test_corpus.py::test_the_shared_corpus_has_the_counts_the_notes_give": "reads the raw corpus",
    "test_masyu_formats.py::test_every_tkoz0_block_agrees_with_the_normalized_corpus_and_janko_java":
        "reads the raw corpus",
    "test_eager.py::test_auto_takes_glucose_only_where_cadicals_formula_would_fill_half_the_memory":
        "builds big formulas",
    "test_nonloop_encodings.py::test_every_solution_of_tiny_puzzles_as_brute_force_says": "brute force",
    "test_graph_generate.py::test_small_non_hamiltonian_members_have_no_cycle": "exhaustive search",
    "test_proof_mutation.py::test_ours_rejects_every_mutant_the_reference_rejects": "every mutant, twice",
    "test_slitherlink_implied.py::test_each_backend_with_and_without_them_agrees_on_smoke_and_random_puzzles":
        "every backend on random puzzles",
    "test_conformance.py::test_thin_grids_and_puzzles_without_pearls_as_brute_force_says": "brute force",
    "test_conformance.py::test_solves_and_is_verified[dfs-": "dfs, a search without learning, on 10x10",
    "test_conformance_slitherlink.py::test_smoke_set_is_solved_verified_and_matches_janko": "the smoke set",
    "test_conformance_slitherlink.py::test_excluding_each_answer_found_enumerates_exactly_the_brute_force_answers":
        "brute force",
    "test_asp.py::test_slitherlink_excluding_each_answer_found_enumerates_exactly_the_brute_force_answers":
        "brute force",
    "test_graph_loop.py::test_graph_smoke_answers_agree_with_the_known_ones": "every strategy, the graph set",
    "test_colour.py::test_every_smoke_puzzle_is_answered_and_checked_with_the_faces": "the smoke sets",
    "test_sets.py::test_collections_hold_each_puzzle_once": "every collection",
    "test_connect.py::test_every_hamiltonian_cycle_of_small_graphs_once": "enumerates every cycle",
    "test_connect.py::test_bundled_graphs_agree_with_their_known_answers": "the bundled graphs",
    "test_split.py::test_split_solves_a_30_hub_fhcp_graph_passing_every_part_twice": "an FHCP graph",
    "test_certify.py::test_each_seeded_fault_is_visible_in_the_report": "every seeded fault",
    "test_certify.py::test_each_seeded_fault_is_caught_by_the_certificate_alone": "every seeded fault",
    "test_certify.py::test_each_seeded_fault_ends_suspect_in_the_analysis": "every seeded fault",
    "test_option_space.py::test_every_accepted_option_changes_the_run_on_its_kind":
        "every option of every encoding on the smoke sets",
    # CPU seconds measured in the default tier (load ~12): each of these took 6 to 9 s
    "test_mip.py::test_integral_separation_is_sat_or_unsat_on_masyu_as_brute_force_says": "brute force",
    "test_mip.py::test_integral_separation_is_sat_or_unsat_on_slitherlink_as_brute_force_says": "brute force",
    "test_mip.py::test_both_modes_enumerate_exactly_the_slitherlink_brute_force_answers": "brute force",
    "test_sat_encodings.py::test_excluding_each_answer_enumerates_exactly_the_brute_force_answers":
        "brute force",
    # every SAT variant on seven puzzles, about 2.4 s of CPU each: janko001 and janko080 stay in the default
    **{f"test_sat_encodings.py::test_instances_are_solved_and_verified_alike[{name}]": "every SAT variant"
       for name in ("janko002", "janko009", "janko012", "janko017", "janko033")},
}
# Seconds any one test may take (setup, call, teardown), beside load: a hang fails instead of
# stopping the run. `timeout` in pyproject.toml is the budget of the rest.
UNIT_TIMEOUT_S = 120


def pytest_configure(config):
    if not config.pluginmanager.hasplugin("timeout"):  # an environment made before the dev extra had it
        config.addinivalue_line("markers", "timeout(seconds): pytest-timeout's budget (not installed here)")


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true",
                     help="run every tier (unit, system, slow), as CI does; by default: `unit and not slow`")


def _keys(item) -> tuple[str, str]:
    """The item's file name and its `file::test` name without parameters."""
    name = Path(str(item.path)).name
    return name, f"{name}::{item.originalname}"


PREFIXES = tuple(k for k in SLOW if "[" in k)  # slow by a start of the name with its parameters


def _prefix(item) -> str | None:
    full = f"{Path(str(item.path)).name}::{item.name}"
    return next((k for k in PREFIXES if full.startswith(k)), None)


def pytest_collection_modifyitems(config, items):
    wanted_tier = not (config.getoption("--full") or config.getoption("-m")
                       or config.args_source != pytest.Config.ArgsSource.TESTPATHS)
    named = set(SYSTEM_TESTS) | {k for k in SLOW if "::" in k}  # prefixes count as seen when they match
    seen, keep, skipped = set(), [], []
    for item in items:
        name, test = _keys(item)
        seen.update((name, test))
        system = (name in SYSTEM_FILES or test in SYSTEM_TESTS
                  or bool(SYSTEM_FIXTURES & set(item.fixturenames)))
        item.add_marker(pytest.mark.system if system else pytest.mark.unit)
        prefix = _prefix(item)
        if prefix:
            seen.add(prefix)
        slow = name in SLOW or test in SLOW or prefix is not None
        if slow:
            item.add_marker(pytest.mark.slow)
        if not system and not slow and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(UNIT_TIMEOUT_S))
        (skipped if wanted_tier and (system or slow) else keep).append(item)
    if config.args_source == pytest.Config.ArgsSource.TESTPATHS:
        stale = sorted(named - seen) + sorted(set(SYSTEM_FILES) - seen)
        if stale:  # a test renamed or gone: its tier would be lost without a word
            raise pytest.UsageError(f"tests/conftest.py names tests that do not exist: {', '.join(stale)}")
    if skipped:
        config.hook.pytest_deselected(items=skipped)
        items[:] = keep
        config._tier_note = (f"default tier (unit, not slow): {len(skipped)} system/slow tests deselected; "
                             "`pytest --full` runs them")


def pytest_report_header(config):
    lines = ["tiers: --full, every test (unit, system, slow)"] if config.getoption("--full") else []
    if not config.pluginmanager.hasplugin("timeout"):
        lines.append("pytest-timeout is not installed: no per-test budget (pip install -e \".[dev]\")")
    return lines


def pytest_terminal_summary(terminalreporter, config):
    note = getattr(config, "_tier_note", None)
    if note:
        terminalreporter.write_line(note)


@pytest.fixture
def empty_2x2(tmp_path):
    """A 2x2 Masyu without pearls, read from a file: one loop, the smallest puzzle a worker can solve."""
    from harness.instances import load_file

    path = tmp_path / "empty2.txt"
    path.write_text("2 2\n- -\n- -\n")
    return load_file(str(path))


@pytest.fixture
def supervisor():
    """A supervisor with its worker, closed (worker and its cgroup removed) after the test."""
    from harness.run.supervise import Supervisor

    sup = Supervisor()
    yield sup
    sup.close()


SMOKE_ENCODINGS = ("circuit", "lazy", "sat")


@pytest.fixture(scope="session")
def smoke_db(tmp_path_factory) -> Path:
    """circuit, lazy and sat over the bundled smoke set (12 Masyu, 5x5 to 10x10) through `harness.run`,
    20 s limit: 36 verified runs in one sweep, built once per test session. Read-only: a test that
    adds rows works on its own copy (`smoke_copy`); one that changed it fails at the session's end."""
    from harness.run import cli as run_cli

    db = tmp_path_factory.mktemp("smoke") / "runs.sqlite"
    argv = ["--encoding", ",".join(SMOKE_ENCODINGS), "--instances", "masyu-smoke", "--db", str(db),
            "--time-limit", "20"]
    assert run_cli.main(argv) == 0
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    yield db
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before, "a test wrote into the shared smoke_db"


@pytest.fixture
def smoke_copy(smoke_db, tmp_path) -> Path:
    """A writable copy of the session's smoke database, in the test's own folder."""
    copy = tmp_path / "smoke" / "runs.sqlite"
    copy.parent.mkdir()
    shutil.copyfile(smoke_db, copy)
    return copy
