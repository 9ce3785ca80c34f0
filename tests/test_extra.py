"""The one reader and writer of runs' `extra` JSON, on hand-made blobs and on a real run through the store."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from helpers import bundled

from harness.analysis import results
from harness.analysis.machines import cpu_models
from harness.analysis.plots.data import extra_stat
from harness.encoding import Limits
from harness.extra import extra_column, merge_extra, read_extra, row_extra, write_extra
from harness.run.execute import execute
from harness.run.store import Store


def test_unreadable_extra_reads_as_an_empty_dict_and_a_dict_is_copied():
    for blob in (None, "", "not json", "[1, 2]", "3", 4.5, float("nan")):
        assert read_extra(blob) == {}
    given = {"a": 1}
    copy = read_extra(given)
    copy["b"] = 2
    assert given == {"a": 1}
    assert read_extra('{"rounds": 3, "partial": "0101"}') == {"rounds": 3, "partial": "0101"}
    assert row_extra({"extra": '{"x": [1, 2]}'}) == {"x": [1, 2]}
    assert row_extra({}) == {}


def test_written_extra_sorts_keys_and_stringifies_what_json_cannot_hold():
    assert write_extra({"b": 1, "a": Path("p/q")}) == '{"a": "p/q", "b": 1}'
    assert merge_extra('{"a": 1, "b": 2}', {"b": 3, "c": 4}) == '{"a": 1, "b": 3, "c": 4}'
    assert merge_extra(None, {"z": 0}) == '{"z": 0}'
    assert merge_extra("garbage", {}) == "{}"


def test_a_column_of_one_field_ignores_the_key_where_it_is_only_a_value():
    runs = pd.DataFrame({"extra": ['{"rounds": 4}', '{"note": "rounds"}', None, "{bad", '{"rounds": null}']})
    assert extra_column(runs, "rounds").tolist() == [4, None, None, None, None]
    assert extra_column(pd.DataFrame(index=[7, 8]), "rounds").tolist() == [None, None]
    assert extra_column(pd.DataFrame(index=[7, 8]), "rounds").index.tolist() == [7, 8]


def test_a_real_runs_extra_survives_the_store_and_every_reader_sees_it(tmp_path):
    row = execute(bundled("janko071"), "sat", {}, 0, Limits(time_s=30.0))
    assert (row["status"], row["verified"]) == ("solved", 1)
    said = row_extra(row)
    assert said["clauses"] > 0  # the encoding's own statistics
    db = tmp_path / "runs.sqlite"
    with Store(db) as store:
        store.insert({**row, "cpu_model": "a CPU", "not_a_column": "kept"})  # not columns: into extra
    runs = results.load(db)
    stored = read_extra(runs.loc[0, "extra"])
    assert stored == {**said, "cpu_model": "a CPU", "not_a_column": "kept"}
    assert extra_column(runs, "not_a_column").tolist() == ["kept"]
    assert cpu_models(runs).tolist() == ["a CPU"]
    numeric = next(k for k, v in said.items() if isinstance(v, (int, float)) and not isinstance(v, bool))
    assert extra_stat(runs, numeric).tolist() == [float(said[numeric])]
    assert extra_stat(runs, "not_a_column").isna().all()  # a string is no statistic
