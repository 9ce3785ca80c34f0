"""The per-encoding summary: status counts, PAR-2 over the runs an encoding really ran, medians,
and unsat claims judged across runs (refuted, confirmed, unproven)."""

import json
import math

import pandas as pd

from harness.analysis.summary import clock_axis, clock_note, par2, summarize, with_clock
from harness.analysis.verdicts import disagreements, unsat_verdicts


def runs() -> pd.DataFrame:
    return pd.DataFrame({
        "instance": ["p1", "p2", "p3", "p4", "p5", "p1"],
        "encoding": ["a", "a", "a", "a", "a", "b"],
        "status": ["solved", "timeout", "unsat", "error", "solved", "wrong"],
        "verified": [1, None, None, None, 0, 0],  # a solved row the checker did not accept is not solved
        "solve_s": [1.0, 10.0, 2.0, None, 3.0, 0.5],
        "time_limit_s": [10.0] * 6,
    })


def test_par2_scores_each_run():
    scores = par2(runs())
    assert list(scores[:3]) == [1.0, 20.0, 20.0]  # p3's unsat: one encoding's word, not an answer
    assert math.isnan(scores[3])  # bad input: no encoding ran, so it does not count
    assert list(scores[4:]) == [20.0, 20.0]


def test_summarize_counts_statuses_and_means_par2():
    table = summarize(runs())
    a, b = table.loc["a"], table.loc["b"]
    assert (a["runs"], a["solved"], a["timeout"], a["unsat"], a["unproven"], a["error"]) == (5, 2, 1, 0, 1, 1)
    assert a["par2_s"] == (1.0 + 20.0 + 20.0 + 20.0) / 4
    assert a["median_s"] == 1.0  # only the verified solve counts
    assert (b["wrong"], b["par2_s"]) == (1, 20.0) and math.isnan(b["median_s"])


def test_times_are_cpu_by_default_falling_back_to_wall_for_old_rows_and_saying_so():
    mixed = runs().assign(solve_cpu_s=[0.5, 9.0, 1.0, None, 2.0, None])  # b's row predates the column
    assert list(par2(mixed)[:1]) == [0.5] and summarize(mixed).loc["a", "median_s"] == 0.5
    assert "CPU time" in clock_note(mixed) and "1 of 6 runs predate solve_cpu_s" in clock_note(mixed)
    assert clock_axis(mixed) == "solve time (CPU; wall for old runs)"
    wall = with_clock(mixed, "wall")
    assert list(par2(wall)[:1]) == [1.0] and clock_note(wall).startswith("times: wall time")
    assert clock_axis(runs()) == "solve time (CPU; wall for old runs)"  # no CPU column at all


def claims() -> pd.DataFrame:
    """q1: a and b say unsat (confirmed); q2: a says unsat, b solves it (refuted); q3: a alone (unproven)."""
    return pd.DataFrame({
        "instance": ["q1", "q1", "q2", "q2", "q3", "q3"],
        "source": ["s/q1", "s/q1", "s/q2", "s/q2", "s/q3", "s/q3"],
        "instance_sha256": ["h1", "h1", "h2", "h2", "h3", "h3"],
        "encoding": ["a", "b", "a", "b", "a", "a"],
        "options": ["{}"] * 6,
        "seed": [0, 0, 0, 0, 0, 1],
        "status": ["unsat", "unsat", "unsat", "solved", "unsat", "unsat"],
        "verified": [None, None, None, 1, None, None],
        "solve_s": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        "time_limit_s": [10.0] * 6,
        "detail": [""] * 6,
    })


def test_unsat_is_confirmed_by_a_second_encoding_refuted_by_a_solution_else_unproven():
    verdicts = unsat_verdicts(claims())
    assert list(verdicts) == ["confirmed", "confirmed", "refuted", pd.NA, "unproven", "unproven"]
    table = summarize(claims())
    assert (table.loc["a", "unsat"], table.loc["a", "unproven"], table.loc["a", "wrong"]) == (1, 2, 1)
    assert list(par2(claims())) == [1.0, 2.0, 20.0, 4.0, 20.0, 20.0]  # the same encoding twice proves nothing


def test_a_verdict_judged_over_the_whole_database_survives_selection():
    judged = claims().assign(unsat_verdict=unsat_verdicts(claims()))
    only_a = judged[judged["encoding"] == "a"]
    assert list(summarize(only_a)["unsat"]) == [1]  # b's claim, left out here, still confirms q1
    assert list(summarize(claims()[claims()["encoding"] == "a"])["unsat"]) == [0]  # judged alone: not


def test_disagreements_list_unsat_claims_against_verified_solutions():
    found = disagreements(claims())
    assert list(found["instance"]) == ["q2"]
    assert (found["unsat_by"].iloc[0], found["solved_by"].iloc[0]) == ("a", "b")
    known = claims().iloc[:1].assign(status="wrong", detail="claimed unsat, but a known solution exists")
    assert list(disagreements(known)["solved_by"]) == ["the known solution"]
    assert disagreements(claims().iloc[:2]).empty


def test_families_follow_the_code_the_encodings_share():
    from harness.analysis.verdicts import families

    found = families()
    assert found["circuit"] == found["lazy"] and found["sat"] == found["propagator"]
    # the shared cut code (loop.arrays, loop.cuts) is model code: every loop encoding takes it
    assert len({found[e] for e in ("circuit", "sat", "asp", "dfs")}) == 1
    assert found["inference"] == "inference" and found["sat"] != found["inference"]


def test_the_shared_implied_clauses_and_cut_code_count_as_model_code():
    from harness.analysis.verdicts import IMPLIED, _model_modules

    for name in ("sat", "circuit", "asp", "lazy"):  # each calls loop.implied_clauses
        assert IMPLIED in _model_modules(name), name
    assert IMPLIED not in _model_modules("cpsat") and IMPLIED not in _model_modules("inference")
    assert {"loopbench_encodings.loop.cuts", "loopbench_encodings.loop.arrays"} <= _model_modules("sat")
    assert "loopbench_encodings.loop.graph" not in _model_modules("sat")  # numbering, not a model


def test_only_the_newest_code_of_an_encoding_confirms():
    both = claims().iloc[:2].assign(encoding=["sat", "inference"], fingerprint=["new", "old"],
                                    started_at=["2026-01-02", "2025-01-01"])
    later = pd.DataFrame({**{c: [both[c].iloc[1]] for c in both}, "instance_sha256": ["other"],
                          "fingerprint": ["fixed"], "started_at": ["2026-02-01"], "status": ["solved"]})
    assert list(unsat_verdicts(both)) == ["confirmed", "confirmed"]  # inference's newest code is "old"
    judged = unsat_verdicts(pd.concat([both, later], ignore_index=True))
    # inference ran since under new code: its old claim confirms nothing, yet is itself confirmed by sat's
    assert list(judged[:2]) == ["unproven", "confirmed"]


def test_two_encodings_of_one_model_confirm_nothing_and_a_checked_proof_certifies():
    same = claims().iloc[:2].assign(encoding=["sat", "propagator"])
    assert list(unsat_verdicts(same)) == ["unproven", "unproven"]
    apart = claims().iloc[:2].assign(encoding=["sat", "inference"])
    assert list(unsat_verdicts(apart)) == ["confirmed", "confirmed"]
    shared = claims().iloc[:2].assign(encoding=["sat", "circuit"])  # one cut code, one implied clauses
    assert list(unsat_verdicts(shared)) == ["unproven", "unproven"]
    proof = same.assign(extra=['{"certified": 1}', "{}"])
    assert list(unsat_verdicts(proof)) == ["certified", "unproven"]
    table = summarize(proof)
    sat, propagator = table.loc["sat"], table.loc["propagator"]
    assert (sat["certified"], sat["unsat"], propagator["unproven"]) == (1, 0, 1)
    assert list(par2(proof)) == [1.0, 20.0]  # a certified claim is an answer


def test_a_program_the_harness_runs_confirms_no_claim_but_its_own_may_be_confirmed():
    beside = claims().iloc[:2].assign(encoding=["sat", "command"])  # command: a program of one's own
    assert list(unsat_verdicts(beside)) == ["unproven", "confirmed"]
    two = claims().iloc[:2].assign(encoding=["inference", "sat"])
    assert list(unsat_verdicts(two)) == ["confirmed", "confirmed"]  # what the program's absence leaves


def test_a_uniqueness_claim_beside_a_different_verified_solution_is_refuted_and_listed():
    runs = claims().iloc[2:4].assign(status="solved", verified=1, unique=[1, None], solution=["x", "y"],
                                     encoding=["sat", "inference"])
    from harness.analysis.verdicts import unique_verdicts

    assert list(unique_verdicts(runs)) == ["refuted", pd.NA]
    found = disagreements(runs)
    assert list(found["instance"]) == ["q2"]
    assert "says unique, yet a verified solution differs" in found["suspect"][0]
    same = runs.assign(solution=["x", "x"])  # the same answer found twice refutes nothing
    assert list(unique_verdicts(same)) == ["unproven", pd.NA] and disagreements(same).empty
    proven = same.assign(extra=[json.dumps({"unique_proof": "certified"}), "{}"])
    assert list(unique_verdicts(proven))[0] == "certified"
