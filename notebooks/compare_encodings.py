# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Comparing encodings
#
# Every run in the results database, compared per encoding configuration: the summary table,
# a cactus plot with the virtual best, pairwise scatter plots, and a paired statistical
# comparison of two configurations on the instances both solved. Only solutions the
# independent checker accepted count as solved. The figures are the ones `python -m harness.plot`
# writes, drawn by the same functions.
#
# Configurations are compared on one instance set at a time (the sweep's `--instances`), never
# across sets, and only the newest code's runs count (per encoding and options; older runs stay in
# the database as history), and only the runs of the newest sweep that ran every configuration of
# the set (one machine, one load); the stamp under each figure names that sweep and its load, or
# says ACROSS SWEEPS with each configuration's. Times are CPU time of the encoding's own work
# (`solve_cpu_s`; older rows fall back to wall time and the stamp says how many). Set `LOOPBENCH_DB`
# to read another database (default `results/runs.sqlite`), and `SET` / `ALL_FINGERPRINTS` /
# `ACROSS_SWEEPS` / `CLOCK` below to choose otherwise.

# %%
# %matplotlib inline

# %% tags=["parameters"]
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import display

from harness.analysis import plots, sweeps
from harness.analysis.summary import with_clock

DB = Path(os.environ.get("LOOPBENCH_DB", "results/runs.sqlite"))
if not DB.is_absolute() and not DB.exists() and (Path("..") / DB).exists():
    DB = Path("..") / DB  # the notebook runs from notebooks/; the default path is the project's
SET = None  # the instance set to compare, as `python -m harness.plot` names it (None: the one with most runs)
ALL_FINGERPRINTS = False  # True: runs of every code version, each labelled config@fingerprint
BASELINE = None  # config for the speed-up column and the x axis of the scatter plots (None: circuit)
COMPARE = None  # two configs for the paired comparison, e.g. ("circuit", "sat"); None: baseline vs best
ACROSS_SWEEPS = False  # True: every sweep's runs together (the stamp then says ACROSS SWEEPS, with each load)
CLOCK = "cpu"  # "cpu": solve_cpu_s, the clock the limit is judged on; "wall": solve_s

# %%
loaded = with_clock(plots.load(DB, ALL_FINGERPRINTS), CLOCK)
parts = {group: part if ACROSS_SWEEPS else sweeps.one_sweep(part)
         for (_, group), part in plots.by_instance_set(loaded)}
print("instance sets:", ", ".join(f"{group} ({len(part)} runs)" for group, part in parts.items()))
chosen = SET if SET is not None else max(parts, key=lambda group: len(parts[group]))
runs = parts[chosen]
print(f"{len(runs)} runs in {DB}, instance set {chosen}")
print(plots.stamp(runs))

# %% [markdown]
# ## Summary per configuration
# Counts are runs (every seed); PAR-2 charges an unsolved run twice its time limit; the speed-up
# is the geometric mean of baseline time / config time on the instances both solved.

# %%
table = plots.table(runs, BASELINE)
display(table)

# %% [markdown]
# ## Cactus plot
# Each curve is one configuration's verified solve times in increasing order: the further right
# and the lower, the better. The dashed line is the virtual best (per instance, the fastest
# configuration).

# %%
fig = plots.cactus(runs)

# %% [markdown]
# ## Pairwise scatter plots
# One point per instance. Below the diagonal the configuration on the y axis was faster;
# instances one side did not solve sit on the time-limit lines.

# %%
for a, b in plots.pairs(runs, BASELINE):
    fig = plots.scatter(runs, a, b)
    plt.show()

# %% [markdown]
# ## Paired comparison
# On the instances both configurations solved, the ratio time(a) / time(b) per instance. Its
# geometric mean is the typical factor between them; the interval is a percentile bootstrap over
# instances (10,000 resamples). A ratio above 1 means b is faster. Instances that only one of them
# solved are left out, so read this together with the solved counts in the table.

# %%
configs = list(table.index)
if COMPARE is not None:
    a, b = COMPARE
elif len(configs) >= 2:
    a = plots.resolve_baseline(configs, BASELINE)
    b = min((c for c in configs if c != a), key=lambda c: table.loc[c, "par2_s"])
else:
    a = b = None

if a is None:
    print("only one configuration in the database: nothing to compare")
else:
    ratios = plots.paired_ratios(runs, a, b)
    estimate = plots.bootstrap_geomean(ratios["ratio"])
    faster = int((ratios["ratio"] > 1).sum())
    print(f"{a} / {b}: {estimate}")
    print(f"{b} is faster on {faster} of {len(ratios)} instances both solved; "
          f"solved: {a} {int(table.loc[a, 'solved'])}, {b} {int(table.loc[b, 'solved'])} runs")
    if len(ratios):
        fig, ax = plt.subplots(figsize=(6.5, 3.2))
        ax.hist(np.log2(ratios["ratio"]), bins=min(30, max(5, len(ratios) // 2)), color="#1f77b4", alpha=0.8)
        ax.axvline(np.log2(estimate.geomean), color="black", label="geometric mean")
        ax.axvspan(np.log2(estimate.low), np.log2(estimate.high), color="0.6", alpha=0.3,
                   label=f"{estimate.level:.0%} bootstrap interval")
        ax.axvline(0, color="0.4", ls=":")
        ax.set_xlabel(f"log2( time {a} / time {b} )   (> 0: {b} faster)")
        ax.set_ylabel("instances")
        ax.legend(fontsize=8)
        fig.tight_layout()

# %% [markdown]
# Every pair at once: the geometric-mean ratio time(a) / time(b) with its bootstrap interval.

# %%
estimates = {(x, y): plots.bootstrap_geomean(plots.paired_ratios(runs, x, y)["ratio"])
             for x, y in plots.pairs(runs, BASELINE)}
display(pd.DataFrame(
    [{"a": x, "b": y, "instances": e.n, "ratio": e.geomean, "low": e.low, "high": e.high}
     for (x, y), e in estimates.items()]
).round(3))
