"""Comparisons within one sweep: which sweep the compared runs come from, and how loaded the machine was.

Two configurations are compared like for like only when they ran in one sweep (one `harness.run`
invocation: the same machine, the same load, the runs shuffled together). `one_sweep` keeps the
runs of the newest sweep that holds every configuration compared; plots, `harness.compare` and
the notebooks do so by default. Where no one sweep holds them all, or when asked to compare
across sweeps, the runs are kept and `sweep_note` says so, naming each configuration's sweep(s),
host(s) and load (`load`): the median over its runs of wall time / CPU time (about 1 on an idle
machine for a one-threaded encoding, higher when the run waited for a CPU; a multi-threaded
solver reads lower, so compare a configuration's load across sweeps, not two configurations').
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from harness.analysis.configs import with_config

UNRECORDED = "(no sweep recorded)"


def sweep_ids(runs: pd.DataFrame) -> pd.Series:
    """Each run's sweep id (`UNRECORDED` for a run stored without one)."""
    if "sweep_id" not in runs:
        return pd.Series(UNRECORDED, index=runs.index, dtype=object)
    return runs["sweep_id"].astype(object).where(runs["sweep_id"].notna(), UNRECORDED)


def _configs(runs: pd.DataFrame) -> pd.Series:
    return with_config(runs)["config"]


def newest_sweep(runs: pd.DataFrame, configs: list[str] | None = None) -> str | None:
    """The newest sweep (by its last run's end) holding runs of every one of `configs` (default: all)."""
    if runs.empty:
        return None
    labels = _configs(runs)
    wanted = set(labels) if configs is None else set(configs)
    ids = sweep_ids(runs)
    when = runs["finished_at"].fillna(runs["started_at"]).fillna("") if "finished_at" in runs else ids
    holding = [(when[ids == s].max(), s) for s in ids.unique()
               if s != UNRECORDED and wanted <= set(labels[ids == s])]
    return max(holding)[1] if holding else None


def one_sweep(runs: pd.DataFrame, configs: list[str] | None = None) -> pd.DataFrame:
    """The runs of `newest_sweep` (only `configs`' runs, when given); all the runs if no sweep holds them."""
    chosen = newest_sweep(runs, configs)
    if chosen is None:
        return runs
    keep = sweep_ids(runs) == chosen
    if configs is not None:
        keep &= _configs(runs).isin(configs)
    return runs[keep]


def _column(runs: pd.DataFrame, name: str) -> pd.Series:
    if name not in runs:
        return pd.Series(np.nan, index=runs.index)
    return pd.to_numeric(runs[name], errors="coerce").astype(float)


def load(runs: pd.DataFrame) -> float:
    """The median over runs of wall time / CPU time: of the encoding's own work (solve_s / solve_cpu_s)
    where recorded, else of the whole run (wall_s / cpu_s, rows from before solve_cpu_s). NaN if none."""
    own = _column(runs, "solve_s") / _column(runs, "solve_cpu_s").where(lambda x: x > 0)
    whole = _column(runs, "wall_s") / _column(runs, "cpu_s").where(lambda x: x > 0)
    ratio = own.fillna(whole).dropna()
    return float(ratio.median()) if len(ratio) else float("nan")


def across(runs: pd.DataFrame) -> bool:
    """Whether the runs come from more than one sweep or host."""
    hosts = runs["host"].dropna().nunique() if "host" in runs else 0
    return sweep_ids(runs).nunique() > 1 or hosts > 1


def _load_text(x: float) -> str:
    return "load ?" if np.isnan(x) else f"load {x:.2f}"


def sides(runs: pd.DataFrame) -> pd.DataFrame:
    """Per config and sweep: runs, host(s) and load, newest sweep last; what `sweep_note` prints."""
    labelled = runs.assign(_config=_configs(runs), _sweep=sweep_ids(runs),
                           _host=runs["host"].astype(object).fillna("?") if "host" in runs else "?")
    rows = []
    for (config, sweep), part in labelled.groupby(["_config", "_sweep"], sort=True):
        rows.append({"config": config, "sweep": sweep, "runs": len(part),
                     "hosts": ", ".join(sorted(set(map(str, part["_host"])))), "load": load(part)})
    return pd.DataFrame(rows, columns=["config", "sweep", "runs", "hosts", "load"])


def sweep_note(runs: pd.DataFrame) -> str:
    """One line: the one sweep the runs come from and its load, or ACROSS SWEEPS with each side's."""
    if runs.empty:
        return "sweep: none"
    ids = sweep_ids(runs)
    if not across(runs):
        host = f" on {runs['host'].dropna().iloc[0]}" if "host" in runs and runs["host"].notna().any() else ""
        return f"one sweep: {ids.iloc[0]}{host}, {_load_text(load(runs))} (median wall/CPU per run)"
    table = sides(runs)
    parts = []
    for config, mine in table.groupby("config", sort=True):
        each = "; ".join(f"{r.sweep} on {r.hosts}, {r.runs} runs, {_load_text(r.load)}"
                         for r in mine.itertuples())
        parts.append(f"{config}: {each}")
    return ("ACROSS SWEEPS (not like for like: different runs of the machine, maybe under different "
            "load; load = median wall/CPU per run): " + " | ".join(parts))
