"""The `cutoffs` table kind: per configuration, how many instances it solved within each CPU cutoff and its
PAR-2 at the limit, median (min-max) over seeds, beside a published table's columns as the file declares them.

    <!-- table: --kind cutoffs --db results/fhcp/headline.sqlite --cutoffs 1,10,30,60
         --published results/fhcp/published-times.tsv --published-configs 'soh_ccadical:*' -->

The measured rows come from the one sweep `tables.make` chose; their virtual best (the per-instance
least time of the table's configurations, per seed) is a row of its own, naming its configurations.
A published row (`--published-configs`, globs of the file's configuration columns) is counted on the
instances the measured runs ran that the file has a row for, at the same cutoffs (a published time
above the table's limit is not solved within it), and carries its clock, machine and program as the
file declares them (`harness.published.Column`); `--published-best` adds the virtual best of the
columns its globs match, naming them. A published row ran once, on another machine: no seeds, no
spread. When a shown row is on another clock than the measured runs the stamp says MIXED CLOCKS.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd

from harness import published as published_file
from harness.analysis.summary import clock_of, solve_time, solved_mask

MEASURED = "measured"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The kind's own arguments of a block."""
    p.add_argument("--cutoffs", default="",
                   help="cutoffs in seconds, comma-separated (default: 1 and 10 below the limit, the limit)")
    p.add_argument("--published", help="a published per-instance table (harness.published)")
    p.add_argument("--published-configs", default="",
                   help="comma-separated globs of the published configuration columns to show")
    p.add_argument("--published-best", default="",
                   help="comma-separated globs: a row for the virtual best of the published columns matched")


def _cutoffs(text: str, limit: float) -> list[float]:
    if not text.strip():
        return [*(t for t in (1.0, 10.0) if t < limit), limit]
    try:
        cuts = sorted({float(t) for t in text.split(",") if t.strip()})
    except ValueError:
        raise ValueError(f"--cutoffs {text!r}: seconds, comma-separated (1,10,60)") from None
    if not cuts or cuts[0] <= 0 or cuts[-1] > limit:
        raise ValueError(f"--cutoffs {text!r}: each above 0 and none above the runs' {limit:g} s limit")
    return cuts


def _wide(runs: pd.DataFrame) -> dict[int, pd.DataFrame]:
    """Per seed: instance x config, the verified solve time on the runs' clock (NaN: not solved)."""
    timed = runs.assign(_t=solve_time(runs).where(solved_mask(runs)))
    return {int(seed): part.groupby(["instance", "config"])["_t"].min().unstack("config")
            for seed, part in timed.groupby("seed")}


def _score(times: pd.Series, cuts: list[float], limit: float) -> dict[str, float]:
    """Solved within each cutoff and PAR-2 at `limit` of one row's per-instance times (NaN: not solved)."""
    out = {f"≤{c:g} s": float((times <= c).sum()) for c in cuts}
    out["par2_s"] = float(times.where(times <= limit, 2 * limit).mean()) if len(times) else np.nan
    out["instances"] = float(len(times))
    return out


def measured_rows(runs: pd.DataFrame, cuts: list[float], limit: float) -> pd.DataFrame:
    """Per measured config and the virtual best of them: per seed scores, as median, min and max columns."""
    per_seed = []
    configs = sorted(set(runs["config"]))
    best = f"virtual best of {', '.join(configs)}"  # one set, the table's, whichever ran in a seed
    for seed, wide in _wide(runs).items():
        ran = runs[runs["seed"] == seed].groupby("config")["instance"].agg(set)
        for config, times in wide.items():
            per_seed.append({"config": config, "seed": seed, **_score(times[times.index.isin(ran[config])],
                                                                        cuts, limit)})
        if len(configs) > 1:
            per_seed.append({"config": best, "seed": seed, **_score(wide.min(axis=1), cuts, limit)})
    frame = pd.DataFrame(per_seed)
    grouped = frame.groupby("config", sort=False)
    out = pd.DataFrame({"seeds": grouped.size()})
    for column in [*(f"≤{c:g} s" for c in cuts), "par2_s", "instances"]:
        out[column] = grouped[column].median()
        out[column + "_min"] = grouped[column].min()
        out[column + "_max"] = grouped[column].max()
    top = f"≤{cuts[-1]:g} s"
    out["_best"] = out.index.str.startswith("virtual best")
    out = out.sort_values(["_best", top, "par2_s"], ascending=[True, False, True], kind="stable")
    return out.drop(columns="_best")


def _one(values: set[str]) -> str:
    return next(iter(values)) if len(values) == 1 else "mixed"


def common(runs: pd.DataFrame) -> list[str]:
    """The instances every configuration ran with every seed: the rows are counted on these alone."""
    ran = runs.groupby(["config", "seed"])["instance"].agg(set)
    return sorted(set.intersection(*ran)) if len(ran) else []


def published_rows(table: published_file.Published, shown: list[str], best: tuple[str, list[str]],
                   instances: list[str], cuts: list[float], limit: float) -> pd.DataFrame:
    """Per published column shown (and the virtual best of `best`): scores on `instances` the file has,
    with clock, machine and program as declared."""
    here = [i for i in instances if i in table.times.index]
    rows = {}
    for column in shown:
        ran = table.ran.loc[here, column]
        declared = table.columns[column]
        rows[column] = {**_score(table.times.loc[here, column][ran], cuts, limit), "clock": declared.clock,
                        "machine": declared.machine, "program": declared.program}
    globs, over = best
    if over:
        name = f"published virtual best of {globs} ({len(over)} columns)"
        declared = [table.columns[c] for c in over]
        rows[name] = {**_score(table.times.loc[here, over].min(axis=1), cuts, limit),
                      "clock": _one({d.clock for d in declared}),
                      "machine": _one({d.machine for d in declared}),
                      "program": "per instance the least time of " + ", ".join(f"`{c}`" for c in over)}
    return pd.DataFrame.from_dict(rows, orient="index")


def _spread(r: pd.Series, column: str, digits: int) -> str:
    def num(x: float) -> str:
        return f"{x:.{digits}g}" if digits else f"{x:g}"

    low, mid, high = r[column + "_min"], r[column], r[column + "_max"]
    return num(mid) if low == high else f"{num(mid)} ({num(low)}-{num(high)})"


def render(mine: pd.DataFrame, theirs: pd.DataFrame, cuts: list[float], limit: float, clock: str) -> str:
    """The table as GitHub Markdown: measured rows with seeds' spreads, then the published rows."""
    solved = [f"≤{c:g} s" for c in cuts]
    head = ["config", "side", "clock", "seeds", "instances", *(f"solved {s}" for s in solved),
            f"PAR-2 at {limit:g} s (s)"]
    lines = ["| " + " | ".join(head) + " |", "|---|---|---|---:|" + "---:|" * (len(head) - 4)]
    for config, r in mine.iterrows():
        cells = [str(config), MEASURED, clock.upper(), str(int(r["seeds"])), _spread(r, "instances", 0),
                 *(_spread(r, s, 0) for s in solved), _spread(r, "par2_s", 3)]
        lines.append("| " + " | ".join(cells) + " |")
    for config, r in theirs.iterrows():
        cells = [f"`{config}`", "published", str(r["clock"]).upper() if r["clock"] != "mixed" else "mixed",
                 "–", f"{r['instances']:g}", *(f"{r[s]:g}" for s in solved), f"{r['par2_s']:.3g}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def legend(theirs: pd.DataFrame, table: published_file.Published, measured: int, clock: str) -> str:
    """The lines under the table: what the published rows are, as the file declares them."""
    if theirs.empty:
        return ""
    here = int(theirs["instances"].max())
    limit = f"{table.limit_s:g} s" if table.limit_s else "not stated"
    lines = [f"Published rows: `{table.path}` (their limit {limit}), on the {here} of the {measured} "
             "instances counted here that it has rows for; ran once, on another machine; as the file "
             "declares them:"]
    for config, r in theirs.iterrows():
        lines.append(f"- `{config}`: {str(r['clock']).upper()} time; machine: {r['machine']}; "
                     f"program: {r['program']}")
    other = sorted(set(theirs.index[theirs["clock"] != clock]))
    if other:
        lines.append(f"MIXED CLOCKS: {', '.join(f'`{o}`' for o in other)} not on {clock.upper()} time, "
                     f"the measured rows on {clock.upper()} time.")
    return "\n".join(lines) + "\n"


def make(runs: pd.DataFrame, ns: argparse.Namespace, root: Path) -> str:
    """The block: the table, the published legend, and the stamp (`tables.where`)."""
    from harness.analysis.tables import where

    limit = float(pd.to_numeric(runs["time_limit_s"], errors="coerce").max())
    cuts = _cutoffs(ns.cutoffs, limit)
    clock = clock_of(runs)
    instances = common(runs)
    if instances:
        left = len(runs) - int(runs["instance"].isin(instances).sum())
        counted = (f"every row on the {len(instances)} instances every configuration ran with every seed"
                   + (f" ({left} runs on {runs['instance'].nunique() - len(instances)} other instances left "
                      "out)" if left else ""))
        runs_counted = runs[runs["instance"].isin(instances)]
    else:  # a sweep still running: no instance has every run yet
        instances = sorted(set(runs["instance"]))
        counted = ("NOT LIKE FOR LIKE: no instance has been run by every configuration with every seed (a "
                   "partial sweep), so each measured row counts the instances it ran and the published "
                   f"rows the {len(instances)} any configuration ran")
        runs_counted = runs
    mine = measured_rows(runs_counted, cuts, limit)
    theirs = pd.DataFrame()
    table = None
    if ns.published:
        table = dataclasses.replace(published_file.read(root / ns.published), path=ns.published)
        if table.limit_s is not None and cuts[-1] > table.limit_s:
            raise ValueError(f"--cutoffs up to {cuts[-1]:g} s: above {ns.published}'s own "
                             f"{table.limit_s:g} s limit, where its times stop")
        configs, path = table.configs, ns.published
        shown = published_file.matching(ns.published_configs, configs, "--published-configs", path)
        best = published_file.matching(ns.published_best, configs, "--published-best", path)
        theirs = published_rows(table, shown, (ns.published_best, best), instances, cuts, limit)
    elif ns.published_configs or ns.published_best:
        raise ValueError("--published-configs and --published-best need --published FILE")
    note = legend(theirs, table, len(instances), clock) if table is not None else ""
    mixed = "; MIXED CLOCKS (published rows above)" if "MIXED CLOCKS" in note else ""
    return (render(mine, theirs, cuts, limit, clock) + "\n" + (note + "\n" if note else "")
            + where(runs, ns.across_sweeps, ns.canary)
            + f"solved = verified by the checker within each cutoff; {counted}{mixed}.\n")
