"""Comparison plots, the results table and paired statistics, for `harness.plot` and the notebooks."""

from harness.analysis.plots.data import (
    load,
    markdown,
    per_instance,
    resolve_baseline,
    speedups,
    stamp,
    table,
    virtual_best,
    with_config,
    with_sweep_specs,
)
from harness.analysis.plots.figures import (
    cactus,
    cells_axis,
    growth_exponent,
    lazy_configs,
    lazy_loop,
    log_axis,
    pairs,
    palette,
    scaling,
    scatter,
)
from harness.analysis.plots.stats import RatioEstimate, bootstrap_geomean, paired_ratios

__all__ = [
    "RatioEstimate",
    "bootstrap_geomean",
    "cactus",
    "cells_axis",
    "growth_exponent",
    "lazy_configs",
    "lazy_loop",
    "load",
    "log_axis",
    "markdown",
    "pairs",
    "palette",
    "paired_ratios",
    "per_instance",
    "resolve_baseline",
    "scaling",
    "scatter",
    "speedups",
    "stamp",
    "table",
    "virtual_best",
    "with_config",
    "with_sweep_specs",
]
