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
# # Measured beside a published table
#
# The configurations of a results database beside the columns of a published per-instance table
# (by default the SAT 2025 cut-set CEGAR's on the FHCP graphs, `results/fhcp/published-times.tsv`),
# on the instances both have and at one limit: the side-by-side table, the cactus plot with each
# side's virtual best, a scatter of every measured configuration against the published virtual
# best, and the instances one side solves and the other does not. The figures and the table are the
# ones `python -m harness.plot --published` writes, drawn by the same functions. Only answers the
# independent checker accepted count as solved. The published times are another machine's: compare
# shapes and ranks, and the machine factor only where the file declares a program measured here.
#
# Set `LOOPBENCH_DB` to the database (default `results/runs.sqlite`; the FHCP selector's sweep is
# `results/fhcp/headline-auto.sqlite`), `LOOPBENCH_PUBLISHED` to the table, and `COLUMNS` below to
# the published columns compared (`soh_*`: the paper's 21 CPU-time columns, the fork's wall-time one
# left out; "" for every column).

# %%
# %matplotlib inline

# %% tags=["parameters"]
import os
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import display

from harness import published
from harness.analysis import plots, ranking, side_by_side, sweeps
from harness.analysis.plots import published as figures


def project_path(path: str) -> Path:
    """A project-relative path, found from notebooks/ too (where a notebook runs)."""
    found = Path(path)
    return Path("..") / found if not found.is_absolute() and not found.exists() else found


DB = project_path(os.environ.get("LOOPBENCH_DB", "results/runs.sqlite"))
PUBLISHED = project_path(os.environ.get("LOOPBENCH_PUBLISHED", "results/fhcp/published-times.tsv"))
COLUMNS = "soh_*"  # the published columns compared (globs, comma-separated; "": all of them)
SCATTER = ["soh_ccadical:proposed-cegar-ffi-cadical"]  # published columns each measured config is set against

# %%
table = published.only(published.read(PUBLISHED), COLUMNS)
loaded = plots.load(DB)
beside, runs = None, None
for (_, group), part in plots.by_instance_set(loaded):
    part = sweeps.one_sweep(part)
    try:
        beside, runs = side_by_side.side_by_side(part, table), part
    except ValueError:  # no instance of this set has a row in the table
        continue
    print(f"instance set {group}: {len(part)} runs in {DB}")
    break
if beside is None:
    raise SystemExit(f"no instance of {DB} has a row in {PUBLISHED}")
print(plots.stamp(runs))

# %% [markdown]
# ## Side by side
# Ranked over both sides: a wrong answer last, then most solved within the limit, then least PAR-2.
# Solved within each cutoff; each row's clock and machine as its side declares them.

# %%
print(side_by_side.render(beside))

# %% [markdown]
# ## Cactus plot
# Measured configurations solid, the best-ranked published ones dashed, each side's virtual best
# and both sides' together.

# %%
fig = figures.cactus(beside, runs)

# %% [markdown]
# ## Graph by graph
# Each measured configuration against the published virtual best (and the columns in `SCATTER`):
# below the diagonal the published side was faster.

# %%
for mine, theirs in figures.pairs(beside, [c for c in SCATTER if c in beside.published.columns]):
    fig = figures.scatter(beside, runs, mine, theirs)
    plt.show()

# %% [markdown]
# ## What one side solves and the other does not
# Per instance within the shared limit: the measured virtual best's time and the published one's,
# with the instance's size where the table gives it.

# %%
within = beside.published.where(beside.published <= beside.limit_s)
ours, theirs = ranking.virtual_best(beside.measured), ranking.virtual_best(within)
apart = pd.DataFrame({"measured_s": ours, "published_s": theirs}).join(table.attributes, how="left")
only_ours = apart[apart["measured_s"].notna() & apart["published_s"].isna()]
only_theirs = apart[apart["measured_s"].isna() & apart["published_s"].notna()]
print(f"solved by the measured side only: {len(only_ours)}; by the published side only: {len(only_theirs)}; "
      f"by neither: {int((apart['measured_s'].isna() & apart['published_s'].isna()).sum())} "
      f"of {len(apart)}")
display(only_ours.sort_values("measured_s"))
display(only_theirs.sort_values("published_s"))
