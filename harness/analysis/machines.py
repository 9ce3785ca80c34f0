"""Which machines a set of runs came from, and the warning a comparison owes its reader when they differ.

Times taken on two hosts or two CPU models are not comparable run for run. Each run records its
host (a column) and, from the runner, its CPU model and cores (`extra.cpu_model`, `extra.cores`:
`harness.run.cores`). `machine_note(runs)` is "" when the runs share one host and one CPU model,
else one line to print beside the comparison (`harness.compare`; the report can call it too).
"""

from __future__ import annotations

import pandas as pd

from harness.extra import extra_column


def cpu_models(runs: pd.DataFrame) -> pd.Series:
    """Each run's CPU model from its `extra` JSON (or a `cpu_model` column); "" where unrecorded."""
    if "cpu_model" in runs:
        return runs["cpu_model"].fillna("").astype(str)
    return extra_column(runs, "cpu_model").map(lambda model: str(model or "")).astype(object)


def machine_note(runs: pd.DataFrame) -> str:
    """One line when `runs` mix hosts or CPU models (saying which, with counts); "" when they do not."""
    if runs.empty:
        return ""
    hosts = runs["host"].fillna("").astype(str) if "host" in runs else pd.Series("", index=runs.index)
    models = cpu_models(runs)
    said = []
    for what, values in (("hosts", hosts), ("CPU models", models)):
        counts = values[values != ""].value_counts()
        if len(counts) > 1:
            each = ", ".join(f"{name}: {n} runs" for name, n in counts.items())
            said.append(f"{len(counts)} {what} ({each})")
    unknown = int((models == "").sum())
    if said and unknown:
        said.append(f"{unknown} runs without a recorded CPU model")
    if not said:
        return ""
    return "these runs come from " + " and ".join(said) + ": their times are not comparable run for run"
