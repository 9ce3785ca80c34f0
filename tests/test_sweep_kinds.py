"""One sweep over several puzzle kinds: each encoding runs only on the kinds it serves, the pairs left
out are counted (not stored as errors), and `--unique` fills the `unique` column through the workers."""

from __future__ import annotations

import sqlite3

from helpers import write_instances

from harness import registry, sets
from harness.analysis import results
from harness.run.cli import main


def test_a_sweep_over_three_kinds_runs_each_encoding_on_its_own_kinds(tmp_path, capsys):
    masyu = write_instances(tmp_path / "masyu", [(2, 2), (2, 3)])  # one loop each
    specs = [str(masyu), "walls-smoke", "marupeke-smoke"]
    encodings = ["cpsat", "sat"]
    db = tmp_path / "runs.sqlite"
    argv = ["--encoding", ",".join(encodings), "--db", str(db), "--jobs", "2", "--time-limit", "20",
            "--unique"]
    argv += ["--instances", *specs]  # several specs after one flag
    assert main(argv) == 0

    found = [inst for spec in specs for inst in sets.resolve(spec)]
    served = [(inst.name, e) for inst in found for e in encodings
              if registry.encodings()[e].serves(inst.kind)]
    skipped = len(found) * len(encodings) - len(served)
    runs = results.load(db)
    assert sorted(zip(runs["instance"], runs["encoding"], strict=True)) == sorted(served)
    assert set(runs["status"]) == {"solved"} and (runs["verified"] == 1).all()
    assert set(runs["puzzle"]) == {"masyu", "walls", "marupeke"}
    # every bundled Walls and Marupeke puzzle has one solution; the sat encoding cannot exclude yet on masyu
    by_kind = runs[runs["encoding"] == "cpsat"]
    assert set(by_kind["puzzle"]) == {"walls", "marupeke"} and (by_kind["unique"] == 1).all()
    assert (by_kind["matches_known"] == 1).all()
    out = capsys.readouterr().out
    assert f"{len(served)} runs planned ({skipped} instance x encoding pairs skipped" in out
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT planned, unsupported FROM sweeps").fetchall() == [(len(served), skipped)]

    # the same sweep without --unique is another set of runs (other keys), nothing is reused
    assert main([a for a in argv if a != "--unique"]) == 0
    assert f"{len(served)} runs planned" in capsys.readouterr().out
    again = results.load(db)
    assert len(again) == 2 * len(served) and again["unique"].isna().sum() >= len(served)
