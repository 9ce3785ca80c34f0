"""Two configurations head to head: per-instance speed-up of A over B, wins and losses, PAR-2, lone solves.

A config is named as the plots name it (`plots.with_config`: `sat`, or `sat[cuts=cutset]` when
the options of an encoding's runs differ), labelled over the whole database before any
restriction. Instances are those both configs ran (seeds aggregated as in `plots.per_instance`);
each is solved by both, by one, or by neither. On the instances both solved (verified), the
speed-up is B's time / A's time (>1: A faster), summarised by its geometric mean with a
percentile bootstrap interval (`ranking.bootstrap_geomean`), always beside how many instances it covers and
each side's solved count. PAR-2, wrong answers and the competition rank per config are
`summary.summarize` over the runs on the instances both ran (a wrong answer ranks last, as the
SAT Competition disqualifies); with several seeds, each side's solved count and PAR-2 per seed
(min / median / max, `summary.seed_spread`); the virtual best of the two and what each adds to it
(`ranking.contributions`). Times are CPU time of the encoding's own work unless asked
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

from harness.analysis import ranking
from harness.analysis.plots.data import (
    instance_set,
    per_instance,
    resolve_baseline,
    solved_times,
    with_config,
)
from harness.analysis.ranking import RatioEstimate, bootstrap_geomean
from harness.analysis.summary import clock_note, seed_spread, summarize, with_clock
from harness.analysis.sweeps import one_sweep, sweep_note
from harness.outcomes import Shown

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
    wrong: int = 0  # runs with a wrong answer: ranked after every config without one
    rank: int = 0  # 1 or 2: wrong answers last, then most solved, then least PAR-2 (`ranking.rank`)
    par2_lost_s: float = float("nan")  # how much the virtual best of the two loses without this one
    seeds: dict[str, float] = field(default_factory=dict)  # `summary.seed_spread` over several seeds


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
    best_solved: int  # the virtual best of the two: instances either solved
    best_par2_s: float
    per_instance: pd.DataFrame = field(repr=False)  # both solved: a_s, b_s, speedup
    clock: str = ""  # which clock the times are on (`summary.clock_note`)
    sweeps: str = ""  # which sweep(s) the runs come from, with their load (`sweeps.sweep_note`)

    def to_dict(self) -> dict[str, Any]:
        def clean(x: Any) -> Any:
            return None if isinstance(x, float) and np.isnan(x) else x

        out = {k: clean(v) for k, v in asdict(self).items() if k not in ("per_instance", "speedup", "a", "b")}
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

    wide = solved_times(inst)
    pairs = ranking.paired(wide, b, a) if {a, b} <= set(wide.columns) else \
        pd.DataFrame(columns=["base_s", "config_s", "ratio"])
    pairs = pairs.set_axis(["b_s", "a_s", "speedup"], axis=1)[["a_s", "b_s", "speedup"]]
    pairs = pairs.loc[sorted(both)] if both else pairs.iloc[:0]

    keys = pd.MultiIndex.from_arrays([runs["source"].map(instance_set), runs["instance"]])
    table = summarize(runs[keys.isin(list(common))], by="config") if common else pd.DataFrame()

    limit = float(inst["limit_s"].max()) if len(inst) else np.nan
    times = solved_times(inst).reindex(index=sorted(common), columns=[a, b])
    gain = ranking.contributions(times, limit) if a != b else pd.DataFrame(index=[a])
    spread = seed_spread(runs[keys.isin(list(common))]) if common else pd.DataFrame()
    several = bool(len(spread)) and (spread["seeds"] > 1).any()

    def side(config: str, other: str) -> Side:
        row = table.loc[config] if config in table.index else None
        lone = sorted(f"{s}/{n}" for s, n in (solved[config] - solved[other]) & common)
        return Side(config, int(row["runs"]) if row is not None else 0, len(solved[config] & common),
                    float(row["par2_s"]) if row is not None else np.nan,
                    float(row["median_s"]) if row is not None else np.nan, lone,
                    len(ran[other] - ran[config]), int(row[Shown.WRONG]) if row is not None else 0,
                    int(row["rank"]) if row is not None else 0,
                    float(gain.loc[config, "par2_lost_s"]) if "par2_lost_s" in gain else 0.0,
                    {k: float(v) for k, v in spread.loc[config].items()} if several and config in spread.index
                    else {})

    up = pairs["speedup"]
    return Comparison(
        a=side(a, b), b=side(b, a), instances=len(common), both_solved=len(both),
        neither_solved=len(common - solved[a] - solved[b]),
        wins=int((up > 1).sum()), losses=int((up < 1).sum()), ties=int((up == 1).sum()),
        speedup=bootstrap_geomean(up, level=level, resamples=resamples, seed=seed),
        best_solved=len((solved[a] | solved[b]) & common),
        best_par2_s=float(ranking.par2(ranking.virtual_best(times), limit)) if common else np.nan,
        per_instance=pairs,
        clock=clock_note(runs), sweeps=sweep_note(runs),
    )


def render(c: Comparison, limit: int = 20) -> str:
    """The comparison as plain text: a two-column table, the speed-up line, the lone solves listed."""
    def num(x: float) -> str:
        return "–" if x is None or np.isnan(x) else f"{x:.3g}"

    a, b = c.a, c.b
    rows = [("", a.config, b.config), ("rank", str(a.rank), str(b.rank)), ("runs", str(a.runs), str(b.runs)),
            ("solved (verified)", str(a.solved), str(b.solved)),
            ("wrong answers", str(a.wrong), str(b.wrong)),
            ("PAR-2 (s)", num(a.par2_s), num(b.par2_s)),
            ("median solved (s)", num(a.median_s), num(b.median_s)),
            ("only this one solved", str(len(a.only_solved)), str(len(b.only_solved))),
            ("PAR-2 the best loses without it (s)", num(a.par2_lost_s), num(b.par2_lost_s))]
    if a.seeds or b.seeds:
        def spread(one: Side, what: str, unit: str = "") -> str:
            if not one.seeds:
                return "–"
            low, mid, high = (one.seeds[f"{what}_{k}{unit}"] for k in ("min", "median", "max"))
            return f"{num(low)} / {num(mid)} / {num(high)}"

        rows += [("seeds", num(a.seeds.get("seeds", np.nan)), num(b.seeds.get("seeds", np.nan))),
                 ("solved per seed: min / median / max", spread(a, "solved"), spread(b, "solved")),
                 ("PAR-2 per seed (s): min / median / max", spread(a, "par2", "_s"), spread(b, "par2", "_s"))]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = [f"{a.config} vs {b.config} on the {c.instances} instances both ran "
             f"({c.both_solved} solved by both, {c.neither_solved} by neither)", c.clock, c.sweeps, ""]
    lines += ["  ".join([r[0].ljust(widths[0]), r[1].rjust(widths[1]), r[2].rjust(widths[2])]).rstrip()
              for r in rows]
    lines.append("")
    lines.append("rank: a wrong answer ranks after every config without one (as the SAT Competition "
                 "disqualifies), then most solved, then least PAR-2")
    lines.append(f"virtual best of the two: {c.best_solved} of {c.instances} solved, "
                 f"PAR-2 {num(c.best_par2_s)} s")
    counts = f"{a.config} solved {a.solved}, {b.config} {b.solved} of {c.instances}"
    lines.append(speed_line(c.speedup, a.config, b.config, counts))
    lines.append(f"faster on an instance both solved: {a.config} on {c.wins}, {b.config} on {c.losses}, "
                 f"as fast on {c.ties}")
    for one in (a, b):
        if one.only_solved:
            shown = ", ".join(one.only_solved[:limit]) + (" …" if len(one.only_solved) > limit else "")
            lines.append(f"only {one.config} solved: {shown}")
    for one, other in ((a, b), (b, a)):
        if one.not_run:
            lines.append(f"left out: {one.not_run} instances only {other.config} ran")
    return "\n".join(lines) + "\n"


def faster(speedup: RatioEstimate, a: str, b: str) -> str:
    """The speed-up as a person says it, the faster first: `sat is 11.7x faster than circuit`, from the
    geometric mean of B time / A time (below 1: B is the faster, by its inverse); `""` with no pair."""
    g = speedup.geomean
    if not speedup.n or np.isnan(g):
        return ""
    if g == 1:
        return f"{a} and {b} are as fast"
    return f"{a} is {g:.3g}x faster than {b}" if g > 1 else f"{b} is {1 / g:.3g}x faster than {a}"


def speed_line(s: RatioEstimate, a: str, b: str, counts: str) -> str:
    """The speed-up sentence: who is faster by how much, over which instances, with the interval on the
    same side (`faster`) and a word when it holds 1 (no clear winner)."""
    if not s.n:
        return f"speed-up: no instance solved by both ({counts})"
    low, high = (s.low, s.high) if s.geomean >= 1 else (1 / s.high, 1 / s.low)
    tie = "; the interval holds 1x: no clear winner" if s.low <= 1 <= s.high else ""
    return (f"{faster(s, a, b)}: geometric mean of the per-instance time ratios over the {s.n} instances "
            f"both solved ({counts}); {s.level:.0%} bootstrap interval {low:.3g}x to {high:.3g}x{tie}")
