"""The `cost` table kind: what a sweep took, from the runs' own clocks: per configuration its runs, CPU
and wall hours of the whole runs (`cpu_s`, `wall_s`), and for the sweep its batches' wall time and an
estimate for the runs it planned that are not stored yet.

    <!-- table: --kind cost --db results/fhcp/headline.sqlite -->

How long a study takes is a measurement like any other: this kind makes it from the database, so a
README says it without typing a figure. The estimate scales the CPU time per run so far to the runs
the sweep planned (its widest batch's plan: a batch may run part of it, `batches`); the run order is
shuffled, so the runs so far are a sample of all unless a batch chose which to run first.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from harness.analysis import batches


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The kind has no arguments of its own."""


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.3g}"


def make(runs: pd.DataFrame, ns: argparse.Namespace, root: Path) -> str:
    """The block: per config runs and hours, a row for all, and a line on the batches and the estimate."""
    from harness.analysis.tables import where

    cpu = pd.to_numeric(runs["cpu_s"], errors="coerce")
    wall = pd.to_numeric(runs["wall_s"], errors="coerce")
    frame = runs.assign(_cpu=cpu, _wall=wall)
    grouped = frame.groupby("config", sort=True)
    lines = ["| config | runs | CPU hours | wall hours | median CPU per run (s) |",
             "|---|---:|---:|---:|---:|"]
    for config, part in [*grouped, ("all", frame)]:
        lines.append(f"| {config} | {len(part)} | {_hours(part['_cpu'].sum())} | "
                     f"{_hours(part['_wall'].sum())} | {part['_cpu'].median():.3g} |")
    sweeps = batches.read(root / ns.db)
    ids = set(runs["batch_id"].dropna()) if "batch_id" in runs else set(runs["sweep_id"].dropna())
    mine = sweeps[sweeps["sweep_id"].isin(ids)]
    span = (pd.to_datetime(mine["finished_at"], utc=True, errors="coerce")
            - pd.to_datetime(mine["started_at"], utc=True, errors="coerce")).dt.total_seconds()
    planned = pd.to_numeric(mine["planned"], errors="coerce").dropna().sort_values(ascending=False)
    ended = int(span.notna().sum())
    said = [f"{len(mine)} batch{'es' if len(mine) != 1 else ''}"
            + (f", {_hours(span.sum())} wall hours from start to end of the {ended} that ended" if ended else
               ", none ended yet (running, or interrupted)")]
    if len(planned) and planned.iloc[0] > len(runs):
        total = planned.iloc[0]
        said.append(f"{len(runs)} of {total:g} planned runs stored: estimate for all "
                    f"{_hours(cpu.mean() * total)} CPU hours (CPU per run so far x planned runs)")
    elif len(planned):
        said.append(f"all {planned.iloc[0]:g} planned runs stored")
    return ("\n".join(lines) + "\n\n" + "; ".join(said) + ".\n\n" + where(runs, ns.across_sweeps, ns.canary)
            + "hours: the whole runs' CPU and wall time (cpu_s, wall_s), worker start and checking "
            "included.\n")
