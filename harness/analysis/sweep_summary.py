"""What the sweep command line shows after a sweep: its runs' summary, their clock and the disagreements.

The runner (`harness.run.sweep.run`) returns what it planned and stored; the command line asks
this module to read those runs back and summarize them, so the runner imports no analysis.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from harness.analysis import results
from harness.analysis.configs import with_config
from harness.analysis.summary import clock_note, summarize
from harness.analysis.verdicts import disagreements


@dataclass
class SweepSummary:
    summary: pd.DataFrame  # one row per configuration (`summary.summarize` by `config`)
    # Puzzles of the sweep on which some run said unsat and another found a verified solution.
    disagreements: pd.DataFrame = field(default_factory=pd.DataFrame)
    clock: str = ""  # which clock the summary's times are on (`summary.clock_note`)


def of(db: str | Path, keys: Collection[str]) -> SweepSummary:
    """The runs with these `run_key`s summarized per configuration (`sat` and `sat[cuts=cutset]` apart),
    and the disagreements on their puzzles judged against every run of the database."""
    runs = results.load(db)
    mine = runs["run_key"].isin(set(keys))
    contested = disagreements(runs[runs["instance_sha256"].isin(runs.loc[mine, "instance_sha256"])])
    return SweepSummary(summarize(with_config(runs[mine]), by="config"), contested, clock_note(runs[mine]))
