"""Paired times of two configs from runs: per-instance ratios, what `ranking.bootstrap_geomean` summarises."""

from __future__ import annotations

import pandas as pd

from harness.analysis import ranking
from harness.analysis.plots.data import per_instance, solved_times


def paired_ratios(runs: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """Instances both configs solved: their times (seeds aggregated) and `ratio` = time of a / time of b."""
    inst = per_instance(runs)
    times = solved_times(inst[inst["config"].isin([a, b])])
    if a not in times or b not in times:
        return pd.DataFrame(columns=[a, b, "ratio"])
    pairs = ranking.paired(times, b, a)  # ratio = b's time / a's: the other way round from here
    both = pairs[["config_s", "base_s"]].set_axis([a, b], axis=1)
    return both.assign(ratio=both[a] / both[b])
