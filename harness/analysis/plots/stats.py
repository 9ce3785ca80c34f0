"""Paired comparison of two configs: per-instance time ratios, bootstrap interval of their geometric mean."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from harness.analysis import ranking
from harness.analysis.plots.data import per_instance


def paired_ratios(runs: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """Instances both configs solved: their times (seeds aggregated) and `ratio` = time of a / time of b."""
    inst = per_instance(runs)
    times = inst[inst["solved"] & inst["config"].isin([a, b])].pivot_table(
        index=["instance_set", "instance"], columns="config", values="time_s", aggfunc="first"
    )
    if a not in times or b not in times:
        return pd.DataFrame(columns=[a, b, "ratio"])
    pairs = ranking.paired(times, b, a)  # ratio = b's time / a's: the other way round from here
    both = pairs[["config_s", "base_s"]].set_axis([a, b], axis=1)
    return both.assign(ratio=both[a] / both[b])


@dataclass(frozen=True)
class RatioEstimate:
    """The geometric mean of paired ratios with a percentile bootstrap interval."""

    n: int
    geomean: float
    low: float
    high: float
    level: float

    def __str__(self) -> str:
        if self.n == 0:
            return "no instance solved by both"
        return (f"geometric-mean ratio {self.geomean:.3g} over {self.n} instances, "
                f"{self.level:.0%} bootstrap interval [{self.low:.3g}, {self.high:.3g}]")


def bootstrap_geomean(ratios: pd.Series | np.ndarray, level: float = 0.95, resamples: int = 10_000,
                      seed: int = 0) -> RatioEstimate:
    """Resample instances with replacement; the interval: percentiles of the resampled geometric means."""
    logs = np.log(np.asarray(ratios, dtype=float))
    if len(logs) == 0:
        return RatioEstimate(0, np.nan, np.nan, np.nan, level)
    rng = np.random.default_rng(seed)
    means = logs[rng.integers(0, len(logs), size=(resamples, len(logs)))].mean(axis=1)
    tail = (1 - level) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    return RatioEstimate(len(logs), ranking.geomean(np.exp(logs)), float(np.exp(low)), float(np.exp(high)),
                         level)
