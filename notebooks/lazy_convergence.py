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
# # How lazy loops converge
#
# The lazy strategies (`lazy` on CP-SAT, `sat` incremental on PySAT) ask the solver for a set of
# edges where every cell has degree 0 or 2, look for sub-loops, add cuts against them and solve
# again. This notebook shows, against puzzle size: how many rounds they need, how many cuts they
# add, and how much of the solve time is spent outside the solver (finding components, building
# cuts; the `outside_cpu_s` statistic, stored in the `extra` column). Any configuration that ever
# needed more than one round is included.
#
# Set `LOOPBENCH_DB` to read another database (default `results/runs.sqlite`).

# %%
# %matplotlib inline

# %% tags=["parameters"]
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from IPython.display import display

from harness.analysis import plots, sweeps

DB = Path(os.environ.get("LOOPBENCH_DB", "results/runs.sqlite"))
if not DB.is_absolute() and not DB.exists() and (Path("..") / DB).exists():
    DB = Path("..") / DB  # the notebook runs from notebooks/; the default path is the project's

# %%
ACROSS_SWEEPS = False  # True: every sweep's runs together (the stamp then says ACROSS SWEEPS, with each load)
runs = plots.load(DB, all_fingerprints=False)  # the newest code's runs (per encoding and options)
runs = runs if ACROSS_SWEEPS else sweeps.one_sweep(runs)  # the newest sweep that ran every configuration
inst = plots.per_instance(runs)
lazy = plots.lazy_configs(inst)
print(f"{len(runs)} runs in {DB}; lazy configurations: {', '.join(lazy) or 'none'}")
print(plots.stamp(runs))

# %% [markdown]
# ## Per size
# Medians over the instances of each size (seeds aggregated first): solve rounds, cuts added,
# solve time, and the time spent outside the solver, in seconds and as a share of the solve time.
# These times are CPU time (`solve_cpu_s` and the phase statistic `outside_cpu_s`), the clock the
# rankings use too; older rows recorded their phase times on the wall clock and show none here.

# %%
sized = inst[inst["config"].isin(lazy)].assign(outside_share=lambda d: d["outside_cpu_s"] / d["solve_cpu_s"])
per_size = sized.groupby(["config", "cells"]).agg(
    instances=("instance", "size"),
    solved=("solved", "sum"),
    rounds=("iterations", "median"),
    cuts=("cuts", "median"),
    solve_cpu_s=("solve_cpu_s", "median"),
    outside_cpu_s=("outside_cpu_s", "median"),
    outside_share=("outside_share", "median"),
)
display(per_size)

# %% [markdown]
# ## Rounds, cuts and time outside the solver against size
# Dots are instances; lines join the medians per size.

# %%
fig = plots.lazy_loop(runs)
if fig is None:
    print("no configuration needed more than one round: nothing to show")

# %% [markdown]
# ## Where the time goes
# Time inside the solver (`solver_cpu_s`, summed over rounds) and outside it (`outside_cpu_s`) per
# instance, on log scales; both are CPU time. A growing gap means the lazy loop's own bookkeeping, not the
# solver, dominates.

# %%
if lazy:
    fig, axes = plt.subplots(1, len(lazy), figsize=(5 * len(lazy), 3.8), squeeze=False, sharey=True)
    colours = plots.palette(runs)
    for ax, config in zip(axes[0], lazy, strict=True):
        points = sized[sized["config"] == config]
        ax.scatter(points["cells"], points["solver_cpu_s"], s=14, color=colours[config],
                   label="in the solver")
        ax.scatter(points["cells"], points["outside_cpu_s"], s=14, marker="^", color="0.3",
                   label="outside it")
        ax.set(yscale="log", title=config)
        plots.cells_axis(ax, points["cells"])
        ax.grid(True, alpha=0.25)
    axes[0][0].set_ylabel("CPU seconds per instance")
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()

# %% [markdown]
# ## Rounds against cuts
# Each round adds at least one cut; many cuts per round mean the solver proposed many sub-loops
# at once.

# %%
if lazy:
    fig, ax = plt.subplots(figsize=(5.5, 4))
    for config in lazy:
        points = sized[sized["config"] == config]
        ax.scatter(points["iterations"], points["cuts"], s=16, color=colours[config], label=config, alpha=0.7)
    ax.set_xlabel("solve rounds")
    ax.set_ylabel("cuts added")
    ax.grid(True, alpha=0.25)
    ax.legend(fontsize=8)
    fig.tight_layout()
    print("cuts per round (median):", {c: float(np.median(
        sized.loc[sized["config"] == c, "cuts"] / sized.loc[sized["config"] == c, "iterations"]))
        for c in lazy})
