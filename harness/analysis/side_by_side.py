"""Measured configurations beside a published table's, on the same instances, scored by the same code.

The instances are those every measured configuration ran that the published table has a row
for (joined by instance name). Both sides are scored at one time limit, the measured runs'
(or the publisher's, when the file states a smaller one): a published time above it counts as
not solved within it. Per configuration of each side: solved within 1/10/60/... s, PAR-2, wrong
answers (measured only) and the competition rank over both sides (`ranking.rank`), then the
virtual best of each side and of both, each row with the clock its times are on and the machine
(the published ones as the file declares them, `published.Column`); a table that mixes clocks
says so in its note and marks a virtual best over both `mixed`. Where the same program is on both
sides (a published column whose declared program is `loopbench:CONFIG`, a measured config:
`published.same_program`; never by the column's name, since another program may share it), the
geometric mean of published time / measured time on the instances both solved (both floored at
the table's smallest positive time, its rounding), on one clock, tells a reader how to scale one
machine to the other. Published numbers never enter the results database; everything showing
them says `LABEL`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from harness.analysis import ranking
from harness.analysis.plots.data import common_instances, per_instance, solved_times, with_config
from harness.analysis.summary import clock_note, clock_of
from harness.analysis.sweeps import sweep_note
from harness.published import Published, same_program

LABEL = "published; another machine; compare shapes and ranks"
MEASURED, PUBLISHED = "measured", "published"


@dataclass(frozen=True)
class SameSolver:
    """One solver on both sides: how the published machine's times scale to this one's."""

    measured: str
    published: str
    both_solved: int
    ratio: float  # geometric mean of published time / measured time on the instances both solved
    measured_solved: int
    published_solved: int  # within the publisher's own limit
    instances: int

    clock: str = "cpu"  # the clock both sides' times are on

    def __str__(self) -> str:
        if not self.both_solved:
            return f"{self.published} (published) and {self.measured}: no instance solved by both"
        return (f"{self.published} (published) took {self.ratio:.3g}x the {self.clock.upper()} time of "
                f"{self.measured} here, the same program (geometric mean over the {self.both_solved} "
                f"instances both solved; {self.measured} solved {self.measured_solved}, {self.published} "
                f"{self.published_solved} of {self.instances})")


@dataclass(frozen=True)
class SideBySide:
    source: str  # the published file
    limit_s: float  # the one limit both sides are scored at
    measured: pd.DataFrame  # index: instance; a column per measured config; solve time or NaN
    published: pd.DataFrame  # index: instance; a column per published config; time as published or NaN
    table: pd.DataFrame  # per config and virtual best: side, rank, solved within ..., PAR-2, wrong
    same: list[SameSolver] = field(default_factory=list)
    unmatched: int = 0  # instances measured by every config that the table has no row for
    published_limit_s: float | None = None
    clock: str = ""  # the measured side's clock (`summary.clock_note`)
    sweeps: str = ""  # the measured side's sweep(s) and load (`sweeps.sweep_note`)

    @property
    def mixed(self) -> str:
        """Empty when every row's times are on one clock; else which rows are on which clock."""
        clocks = self.table.loc[self.table["clock"] != MIXED, "clock"]
        if clocks.nunique() < 2:
            return ""
        most = clocks.value_counts().index[0]
        others = "; ".join(f"{', '.join(clocks.index[clocks == clock])} on {clock.upper()} time"
                           for clock in sorted(set(clocks) - {most}))
        return f"MIXED CLOCKS: {others}, the rest on {most.upper()} time"

    @property
    def note(self) -> str:
        """The line every view of the published side carries."""
        theirs = f"{self.published_limit_s:g} s" if self.published_limit_s else "not stated in the file"
        left = f"; {self.unmatched} measured instances have no published row" if self.unmatched else ""
        mixed = f"; {self.mixed}" if self.mixed else ""
        return (f"{LABEL}: {self.source} on the {len(self.measured)} instances both sides have, both scored "
                f"at {self.limit_s:g} s, each row on its clock (their limit: {theirs}){left}{mixed}")


MIXED = "mixed"  # a virtual best over rows on different clocks


def _same_pairs(measured: list[str], published: Published, clock: str) -> list[tuple[str, str]]:
    """(measured, published) configs of one program on one clock, as the file declares the program
    (`published.same_program`): never paired by a column's name."""
    pairs = []
    for column in published.configs:
        declared = published.columns[column]
        mine = same_program(declared, measured)
        if mine is not None and declared.clock == clock:
            pairs.append((mine, column))
    return pairs


def _machines(runs: pd.DataFrame) -> str:
    hosts = sorted(runs["host"].dropna().astype(str).unique()) if "host" in runs else []
    return "here: " + ", ".join(hosts) if hosts else "here"


def side_by_side(runs: pd.DataFrame, published: Published) -> SideBySide:
    """The measured `runs` (one kind and instance set; `config` labels kept) beside `published`.

    Raises ValueError when no instance every measured config ran has a published row.
    """
    runs = with_config(runs)
    inst = per_instance(runs)
    common = common_instances(inst)
    names = pd.Series([name for _, name in common], index=common)
    joined = names[names.isin(published.times.index)]
    if joined.empty:
        raise ValueError(f"no instance measured here has a row in {published.path} "
                         "(its first column joins with the runs' instance names, e.g. graph123)")
    limit = float(inst["limit_s"].max())
    if published.limit_s is not None:
        limit = min(limit, published.limit_s)
    measured = solved_times(inst).loc[joined.index].set_axis(joined.to_list())
    measured.index.name = "instance"
    measured = measured.where(measured <= limit)
    theirs = published.times.loc[joined.to_list()]
    wrong = (inst[inst["wrong_share"] > 0].assign(_name=inst["instance"])
             .loc[lambda d: d["_name"].isin(joined.to_list())].groupby("config").size())
    clock = clock_of(runs)
    table = score(measured, theirs, limit, wrong)
    table = _declared(table, {c: clock for c in measured.columns},
                      {c: published.columns[c].clock for c in theirs.columns},
                      _machines(runs), {c: published.columns[c].machine for c in theirs.columns})
    same = []
    # Published times are rounded (0.01 s in the FHCP table, where 0.0 means under 0.005 s): both
    # sides are floored at the table's smallest positive time, so a rounded 0 cannot make a ratio.
    floor = float(np.nanmin(published.times.where(published.times > 0).to_numpy(), initial=np.inf))
    floor = floor if np.isfinite(floor) else ranking.FLOOR_S
    for mine, column in _same_pairs(list(measured.columns), published, clock):
        both = pd.concat([theirs[column], measured[mine]], axis=1, keys=["p", "m"]).clip(lower=floor)
        s = ranking.speedup(both, "p", "m")
        same.append(SameSolver(mine, column, s.both_solved, s.geomean, s.config_solved, s.base_solved,
                               s.instances, clock))
    return SideBySide(published.path, limit, measured, theirs, table, same, len(names) - len(joined),
                      published.limit_s, clock_note(runs), sweep_note(runs))


def _declared(table: pd.DataFrame, mine: dict[str, str], theirs: dict[str, str], here: str,
              machines: dict[str, str]) -> pd.DataFrame:
    """`score`'s table with each row's clock and machine after its side; a virtual best takes its
    parts' clock, or `mixed`, and its parts' machine, or `several`."""
    clocks, where = {**mine, **theirs}, {**{c: here for c in mine}, **machines}
    parts = {f"virtual best ({MEASURED})": list(mine), f"virtual best ({PUBLISHED})": list(theirs),
             "virtual best (both)": [*mine, *theirs]}
    for name, over in parts.items():
        clocks[name] = next(iter(c)) if len(c := {clocks[x] for x in over}) == 1 else MIXED
        where[name] = next(iter(m)) if len(m := {where[x] for x in over}) == 1 else "several"
    table = table.assign(clock=[clocks[c] for c in table.index], machine=[where[c] for c in table.index])
    first = ["side", "clock", "machine"]
    return table[first + [c for c in table.columns if c not in first]]


def measured_beside(runs: pd.DataFrame, published: Published, configs: list[str] = (),
                    set_name: str | None = None, sweeps: list[str] = (), clock: str = "cpu",
                    across: bool = False) -> SideBySide:
    """`side_by_side` for `harness.compare`: the runs of `configs` (all when empty) on the table's
    instances, restricted to a set and sweeps as `compare` restricts them, from the newest sweep
    that ran them all unless `sweeps` or `across`."""
    from harness.analysis.compare import restrict
    from harness.analysis.plots.data import resolve_baseline
    from harness.analysis.summary import with_clock
    from harness.analysis.sweeps import one_sweep

    runs = with_config(with_clock(runs, clock))
    known = sorted(runs["config"].unique())
    chosen = [resolve_baseline(known, c, "config") for c in configs]
    runs = restrict(runs, set_name, sweeps)
    runs = runs[runs["instance"].isin(published.times.index)]
    if chosen:
        runs = runs[runs["config"].isin(chosen)]
    if runs.empty:
        raise ValueError(f"no run here is on an instance of {published.path} (its first column joins with "
                         "the runs' instance names, e.g. graph123)")
    if not sweeps and not across:
        runs = one_sweep(runs, chosen or None)
    return side_by_side(runs, published)


def to_dict(s: SideBySide) -> dict:
    """The side by side as JSON-ready data (NaN as None)."""
    def clean(frame: pd.DataFrame) -> list[dict]:
        rows = frame.reset_index().astype(object)
        return rows.where(rows.notna(), None).to_dict("records")

    return {"label": LABEL, "note": s.note, "source": s.source, "limit_s": s.limit_s,
            "published_limit_s": s.published_limit_s, "clock": s.clock, "sweeps": s.sweeps,
            "table": clean(s.table), "same_solver": [vars(one) for one in s.same],
            "measured": clean(s.measured), "published": clean(s.published)}


def score(measured: pd.DataFrame, published: pd.DataFrame, limit: float,
          wrong: pd.Series | None = None) -> pd.DataFrame:
    """Per config of both sides, and the virtual bests: side, competition rank, solved within each
    threshold, PAR-2 (s), wrong answers; ranked over both sides together, virtual bests unranked."""
    within = published.where(published <= limit)
    both = pd.concat([measured, within], axis=1)
    side = pd.Series([MEASURED] * measured.shape[1] + [PUBLISHED] * within.shape[1], index=both.columns)
    counts = ranking.solved_within(both, limit)
    solved = counts.iloc[:, -1]
    table = counts.assign(par2_s=ranking.par2(both, limit), solved=solved,
                          wrong=(wrong if wrong is not None else pd.Series(dtype=int)).reindex(both.columns)
                          .fillna(0).astype(int))
    table = table.assign(rank=ranking.rank(table), side=side)
    best = {f"virtual best ({MEASURED})": measured, f"virtual best ({PUBLISHED})": within,
            "virtual best (both)": both}
    rows = []
    for name, part in best.items():
        vb = ranking.virtual_best(part).to_frame(name)
        rows.append(ranking.solved_within(vb, limit).assign(
            par2_s=ranking.par2(vb, limit), solved=int(vb[name].notna().sum()), wrong=0, rank=np.nan,
            side=name.split("(")[1].rstrip(")")))
    table = pd.concat([table.sort_values("rank", kind="stable"), *rows])
    table.index.name = "config"
    return table[["side", "rank", *counts.columns, "par2_s", "wrong"]]


def render(s: SideBySide) -> str:
    """The side-by-side table as plain text, with its label and the same-solver ratios."""
    from harness.analysis.plots.data import markdown

    shown = s.table.assign(rank=s.table["rank"].map(lambda r: "" if pd.isna(r) else str(int(r))))
    lines = [s.note, f"measured: {s.clock}; {s.sweeps}", "", markdown(shown).rstrip("\n"), "",
             "rank: over both sides, a wrong answer after every config without one, then most solved "
             "within the limit, then least PAR-2; published rows ran on another machine"]
    lines += [f"same program: {one}" for one in s.same] or [
        "machine factor: none (no published column declares a program measured here, `loopbench:CONFIG`)"]
    return "\n".join(lines) + "\n"
