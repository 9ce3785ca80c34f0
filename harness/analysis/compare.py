"""Two configurations head to head: per-instance speed-up of A over B, wins and losses, PAR-2, lone solves.

A config is named as the plots name it (`plots.with_config`: `sat`, or `sat[cuts=cutset]` when
the options of an encoding's runs differ), labelled over the whole database before any
restriction. Instances are those both configs ran (seeds aggregated as in `plots.per_instance`);
each is solved by both, by one, or by neither. On the instances both solved (verified), the
speed-up is B's time / A's time (>1: A faster), summarised by its geometric mean with a
percentile bootstrap interval (`plots.stats`); PAR-2 per config is `summary.summarize` over
the runs on the instances both ran. Times are CPU time of the encoding's own work unless asked
for wall time (`clock`); the comparison says which (`clock_note`). Both configs' runs come from
one sweep, the newest that ran both (`sweeps.one_sweep`), unless sweeps are named or `across`
is asked; the comparison says which sweep(s), with each side's load (`sweeps.sweep_note`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from harness.analysis.plots.data import instance_set, per_instance, resolve_baseline, with_config
from harness.analysis.plots.stats import RatioEstimate, bootstrap_geomean, paired_ratios
from harness.analysis.summary import clock_note, summarize, with_clock
from harness.analysis.sweeps import one_sweep, sweep_note

KEY = ["instance_set", "instance"]


@dataclass(frozen=True)
class Side:
    """One config's figures over the instances both configs ran."""

    config: str
    runs: int
    solved: int  # instances solved (verified), seeds aggregated
    par2_s: float
    median_s: float  # median solve time over its verified solves
    only_solved: list[str] = field(default_factory=list)  # instances it alone solved, `set/name`
    not_run: int = 0  # instances only the other config ran (left out of everything here)


@dataclass(frozen=True)
class Comparison:
    a: Side
    b: Side
    instances: int  # both ran
    both_solved: int
    neither_solved: int
    wins: int  # A faster than B on an instance both solved
    losses: int
    ties: int
    speedup: RatioEstimate  # of A over B: geometric mean of B time / A time
    per_instance: pd.DataFrame = field(repr=False)  # both solved: a_s, b_s, speedup
    clock: str = ""  # which clock the times are on (`summary.clock_note`)
    sweeps: str = ""  # which sweep(s) the runs come from, with their load (`sweeps.sweep_note`)

    def to_dict(self) -> dict[str, Any]:
        def clean(x: Any) -> Any:
            return None if isinstance(x, float) and np.isnan(x) else x

        out = {k: v for k, v in asdict(self).items() if k not in ("per_instance", "speedup", "a", "b")}
        out["a"] = {k: clean(v) for k, v in asdict(self.a).items()}
        out["b"] = {k: clean(v) for k, v in asdict(self.b).items()}
        out["speedup"] = {k: clean(v) for k, v in asdict(self.speedup).items()}
        rows = self.per_instance.reset_index()
        out["per_instance"] = [
            {"instance": f"{r.instance_set}/{r.instance}", "a_s": r.a_s, "b_s": r.b_s, "speedup": r.speedup}
            for r in rows.itertuples(index=False)
        ]
        return out


def restrict(runs: pd.DataFrame, set_name: str | None = None, sweeps: Sequence[str] = ()) -> pd.DataFrame:
    """The runs on a bundled set's instances (by instance_sha256 or source) and of the given sweeps.

    A sweep is named by its id or a prefix of exactly one id. Raises KeyError for an unknown set,
    ValueError for a sweep that names none or several.
    """
    if set_name is not None:
        from harness import sets

        members = sets.instances(set_name)
        hashes = {i.content_hash for i in members if i.puzzle is not None}
        sources = {i.source for i in members}
        runs = runs[runs["instance_sha256"].isin(hashes) | runs["source"].isin(sources)]
    if sweeps:
        known = sorted(set(runs["sweep_id"].dropna()) if "sweep_id" in runs else set())
        chosen = set()
        for wanted in sweeps:
            hits = [s for s in known if s == wanted] or [s for s in known if s.startswith(wanted)]
            if len(hits) != 1:
                which = "matches no sweep" if not hits else f"matches {len(hits)} sweeps"
                raise ValueError(f"--sweep {wanted} {which} (sweeps here: {', '.join(known) or 'none'})")
            chosen.add(hits[0])
        runs = runs[runs["sweep_id"].isin(chosen)]
    return runs


def compare(runs: pd.DataFrame, a: str, b: str, set_name: str | None = None, sweeps: Sequence[str] = (),
            level: float = 0.95, resamples: int = 10_000, seed: int = 0, clock: str = "cpu",
            across: bool = False) -> Comparison:
    """Compare config `a` with config `b` over `runs` (as `plots.load` gives them); see the module doc.

    `a` and `b` are config labels, or an encoding name with one config; `clock` is `cpu` or `wall`;
    `across`: the runs of every sweep (else the newest sweep that ran both, unless `sweeps` names some).
    Raises ValueError when one names no config or several.
    """
    runs = with_config(with_clock(runs, clock))  # label over the whole database, then restrict
    configs = sorted(runs["config"].unique())
    a, b = resolve_baseline(configs, a, "config A"), resolve_baseline(configs, b, "config B")
    runs = restrict(runs, set_name, sweeps)
    runs = runs[runs["config"].isin([a, b])]
    if not sweeps and not across:
        runs = one_sweep(runs, [a, b])
    inst = per_instance(runs)
    ran = {c: set(map(tuple, inst.loc[inst["config"] == c, KEY].to_numpy())) for c in (a, b)}
    solved = {c: set(map(tuple, inst.loc[(inst["config"] == c) & inst["solved"], KEY].to_numpy()))
              for c in (a, b)}
    common = ran[a] & ran[b]
    both = solved[a] & solved[b] & common

    if a == b:  # paired_ratios pivots by config, which cannot hold one config twice
        times = inst[inst["solved"]].set_index(KEY)["time_s"].clip(lower=1e-6)
        pairs = pd.DataFrame({"a_s": times, "b_s": times})
    else:
        ratios = paired_ratios(runs, a, b)
        pairs = ratios[[a, b]].set_axis(["a_s", "b_s"], axis=1)
    pairs = pairs.loc[sorted(both)] if both else pairs.iloc[:0]
    pairs = pairs.assign(speedup=pairs["b_s"] / pairs["a_s"])

    keys = pd.MultiIndex.from_arrays([runs["source"].map(instance_set), runs["instance"]])
    table = summarize(runs[keys.isin(list(common))], by="config") if common else pd.DataFrame()

    def side(config: str, other: str) -> Side:
        row = table.loc[config] if config in table.index else None
        lone = sorted(f"{s}/{n}" for s, n in (solved[config] - solved[other]) & common)
        return Side(config, int(row["runs"]) if row is not None else 0, len(solved[config] & common),
                    float(row["par2_s"]) if row is not None else np.nan,
                    float(row["median_s"]) if row is not None else np.nan, lone,
                    len(ran[other] - ran[config]))

    up = pairs["speedup"]
    return Comparison(
        a=side(a, b), b=side(b, a), instances=len(common), both_solved=len(both),
        neither_solved=len(common - solved[a] - solved[b]),
        wins=int((up > 1).sum()), losses=int((up < 1).sum()), ties=int((up == 1).sum()),
        speedup=bootstrap_geomean(up, level=level, resamples=resamples, seed=seed), per_instance=pairs,
        clock=clock_note(runs), sweeps=sweep_note(runs),
    )


def render(c: Comparison, limit: int = 20) -> str:
    """The comparison as plain text: a two-column table, the speed-up line, the lone solves listed."""
    def num(x: float) -> str:
        return "–" if x is None or np.isnan(x) else f"{x:.3g}"

    a, b = c.a, c.b
    rows = [("", a.config, b.config), ("runs", str(a.runs), str(b.runs)),
            ("solved (verified)", str(a.solved), str(b.solved)), ("PAR-2 (s)", num(a.par2_s), num(b.par2_s)),
            ("median solved (s)", num(a.median_s), num(b.median_s)),
            ("only this one solved", str(len(a.only_solved)), str(len(b.only_solved)))]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = [f"{a.config} vs {b.config} on the {c.instances} instances both ran "
             f"({c.both_solved} solved by both, {c.neither_solved} by neither)", c.clock, c.sweeps, ""]
    lines += ["  ".join([r[0].ljust(widths[0]), r[1].rjust(widths[1]), r[2].rjust(widths[2])]).rstrip()
              for r in rows]
    lines.append("")
    s = c.speedup
    if s.n:
        lines.append(f"speed-up of {a.config} over {b.config} ({b.config} time / {a.config} time, "
                     f"both solved): geometric mean {s.geomean:.3g}x, {s.level:.0%} bootstrap interval "
                     f"[{s.low:.3g}, {s.high:.3g}] over {s.n} instances")
    else:
        lines.append("speed-up: no instance solved by both")
    lines.append(f"wins {c.wins}, losses {c.losses}, ties {c.ties} (for {a.config}, by time on the instances "
                 "both solved)")
    for one in (a, b):
        if one.only_solved:
            shown = ", ".join(one.only_solved[:limit]) + (" …" if len(one.only_solved) > limit else "")
            lines.append(f"only {one.config} solved: {shown}")
    for one, other in ((a, b), (b, a)):
        if one.not_run:
            lines.append(f"left out: {one.not_run} instances only {other.config} ran")
    return "\n".join(lines) + "\n"
