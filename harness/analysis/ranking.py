"""Speed-ups, the virtual best and competition ranking, once for plots, report, compare and benchmarks.

Most functions take a wide table of times: one row per instance, one column per configuration,
the time where the configuration solved the instance (verified; a published table's number) and
NaN where it did not. Measured runs become one with `plots.data.solved_times`, a published table
with `harness.published`, so both sides are scored by the same code.

Ranking is the SAT Competition's: a configuration with a wrong answer is ranked after every
configuration without one (it is disqualified, not timed out); then more instances solved first;
then the lower PAR-2 (an unsolved instance scores twice the time limit). A speed-up is the
geometric mean of per-instance time ratios over the instances both solved, and always travels
with that count and each side's solved count, since a configuration that misses the hard
instances looks fast on the ones it solves; `bootstrap_geomean` gives it a percentile interval.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from harness.outcomes import Shown

FLOOR_S = 1e-6  # times are clipped here before a ratio: a 0 s time would make the logarithm blow up
THRESHOLDS_S = (1.0, 10.0, 60.0, 300.0, 1800.0, 3600.0)  # "solved within" columns, up to the limit


def geomean(values: Iterable[float]) -> float:
    """The geometric mean of the positive, finite values (NaN if there are none)."""
    x = np.asarray(list(values) if not isinstance(values, (np.ndarray, pd.Series)) else values, dtype=float)
    x = x[np.isfinite(x) & (x > 0)]
    return float(np.exp(np.log(x).mean())) if len(x) else float("nan")


@dataclass(frozen=True)
class Speedup:
    """How much faster `config` is than `base` (>1: faster), and what that figure covers."""

    base: str
    config: str
    geomean: float  # of base time / config time over the instances both solved
    both_solved: int  # how many instances the geometric mean is over
    base_solved: int
    config_solved: int
    instances: int  # rows of the table both were scored on

    def __str__(self) -> str:
        if not self.both_solved:
            return (f"{self.config} vs {self.base}: no instance solved by both ({self.config} solved "
                    f"{self.config_solved}, {self.base} {self.base_solved} of {self.instances})")
        return (f"{self.config} vs {self.base}: {self.geomean:.3g}x over the {self.both_solved} "
                f"instances both solved ({self.config} solved {self.config_solved}, {self.base} "
                f"{self.base_solved} of {self.instances})")


def paired(times: pd.DataFrame, base: str, config: str) -> pd.DataFrame:
    """The instances both solved: `base_s`, `config_s` (clipped at FLOOR_S) and `ratio` base / config."""
    both = times[[base, config]].dropna().clip(lower=FLOOR_S) if base != config else \
        pd.concat([times[base], times[base]], axis=1).dropna().clip(lower=FLOOR_S)
    both.columns = ["base_s", "config_s"]
    return both.assign(ratio=both["base_s"] / both["config_s"])


def speedup(times: pd.DataFrame, base: str, config: str) -> Speedup:
    """`config`'s speed-up over `base` on `times` (see `Speedup`)."""
    pairs = paired(times, base, config)
    return Speedup(base, config, geomean(pairs["ratio"]), len(pairs), int(times[base].notna().sum()),
                   int(times[config].notna().sum()), len(times))


def paired_speedup(base_s: Iterable[float], config_s: Iterable[float]) -> float:
    """`speedup`'s geometric mean for two equally long lists of times, paired by position (NaN: unsolved)."""
    base, config = list(base_s), list(config_s)
    if len(base) != len(config):
        raise ValueError(f"paired times differ in length: {len(base)} base, {len(config)} config")
    return speedup(pd.DataFrame({"base": base, "config": config}, dtype=float), "base", "config").geomean


def speedups(times: pd.DataFrame, base: str) -> pd.DataFrame:
    """Per config: `speedup` over `base`, `both_solved` (what it covers), `solved` and `instances`."""
    rows = {}
    for config in times.columns:
        if base not in times:
            rows[config] = (np.nan, 0, int(times[config].notna().sum()), len(times))
            continue
        s = speedup(times, base, config)
        rows[config] = (s.geomean, s.both_solved, s.config_solved, s.instances)
    return pd.DataFrame.from_dict(rows, orient="index",
                                  columns=["speedup", "both_solved", "solved", "instances"])


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


def bootstrap_geomean(ratios: pd.Series | np.ndarray | Iterable[float], level: float = 0.95,
                      resamples: int = 10_000, seed: int = 0) -> RatioEstimate:
    """Resample instances with replacement; the interval: percentiles of the resampled geometric means."""
    values = ratios if isinstance(ratios, (np.ndarray, pd.Series)) else list(ratios)
    logs = np.log(np.asarray(values, dtype=float))
    if len(logs) == 0:
        return RatioEstimate(0, np.nan, np.nan, np.nan, level)
    rng = np.random.default_rng(seed)
    means = logs[rng.integers(0, len(logs), size=(resamples, len(logs)))].mean(axis=1)
    tail = (1 - level) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    return RatioEstimate(len(logs), geomean(np.exp(logs)), float(np.exp(low)), float(np.exp(high)), level)


def virtual_best(times: pd.DataFrame) -> pd.Series:
    """Per instance, the least time of any config (NaN where none solved it)."""
    return times.min(axis=1) if times.shape[1] else pd.Series(np.nan, index=times.index)


def par2(times: pd.DataFrame | pd.Series, limit_s: float) -> pd.Series | float:
    """The mean PAR-2 score: the time where solved within `limit_s`, else twice the limit; per column."""
    scored = times.where(times <= limit_s, 2 * limit_s)
    return scored.mean()


def solved_within(times: pd.DataFrame, limit_s: float,
                  thresholds: Iterable[float] = THRESHOLDS_S) -> pd.DataFrame:
    """Per config, how many instances it solved within each threshold below `limit_s` and within the limit."""
    cuts = sorted({*(t for t in thresholds if t < limit_s), float(limit_s)})
    return pd.DataFrame({f"≤{t:g} s": (times <= t).sum() for t in cuts}, index=times.columns)


def contributions(times: pd.DataFrame, limit_s: float) -> pd.DataFrame:
    """Each config's marginal contribution to the virtual best of all of them.

    `only_solved`: the instances it alone solved within the limit; `par2_lost_s`: how much the
    virtual best's PAR-2 rises without it (0 when another config is always as fast).
    """
    within = times.where(times <= limit_s)
    solvers = within.notna().sum(axis=1)
    best = par2(virtual_best(within), limit_s)
    rows = {}
    for config in within.columns:
        rest = within.drop(columns=[config])
        rows[config] = (int((within[config].notna() & (solvers == 1)).sum()),
                        float(par2(virtual_best(rest), limit_s) - best))
    return pd.DataFrame.from_dict(rows, orient="index", columns=["only_solved", "par2_lost_s"])


def rank(table: pd.DataFrame, solved: str = Shown.SOLVED, par2_s: str = "par2_s",
         wrong: str = Shown.WRONG) -> pd.Series:
    """Competition rank per row (1 best): wrong answers last, then most solved, then least PAR-2.

    Rows equal on all three share a rank. A table without a `wrong` column has no one disqualified.
    """
    bad = (table[wrong].fillna(0) > 0) if wrong in table else pd.Series(False, index=table.index)
    key = pd.DataFrame({"bad": bad.astype(int), "solved": -table[solved].astype(float),
                        "par2": table[par2_s].astype(float).fillna(np.inf)}, index=table.index)
    order = key.sort_values(["bad", "solved", "par2"], kind="stable")
    ranks, last, place = {}, None, 0
    for i, (index, row) in enumerate(order.iterrows(), start=1):
        current = tuple(row)
        if current != last:
            place, last = i, current
        ranks[index] = place
    return pd.Series(ranks, dtype=int).reindex(table.index)


def ranked(table: pd.DataFrame, **columns: str) -> pd.DataFrame:
    """The table with a `rank` column first, its rows in rank order (see `rank`)."""
    if table.empty:
        return table.assign(rank=pd.Series(dtype=int))[["rank", *table.columns]]
    out = table.assign(rank=rank(table, **columns))
    return out[["rank", *table.columns]].sort_values("rank", kind="stable")
