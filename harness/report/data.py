"""What the report shows, as plain data: per instance set its summary, its runs table and its code versions.

Everything is computed by the analysis package (`plots.by_instance_set`, `summary.summarize`,
`summary.shown_status`, `summary.par2`, `verdicts.disagreements`, `results.latest`); this module
only arranges it per instance and configuration for the page.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from harness import kinds
from harness.analysis import plots, results
from harness.analysis.plots.data import instance_set
from harness.analysis.side_by_side import SideBySide, side_by_side
from harness.analysis.summary import par2, shown_status, solve_time, summarize
from harness.analysis.verdicts import disagreements
from harness.extra import read_extra
from harness.outcomes import Shown, Status
from harness.published import Published

# Columns a run's statistics show, in this order, where the database has them; `extra` comes after.
STAT_COLUMNS = ("seed", "status", "shown", "solve_cpu_s", "solve_s", "build_s", "check_s", "cpu_s", "wall_s",
                "peak_rss_mb", "iterations", "cuts", "conflicts", "verified", "matches_known", "unique",
                "detail", "fingerprint", "commit", "started_at", "run_key")
# Times shown under a name that says their clock. CPU (`harness.encoding.cpu_time`) is every phase
# statistic's clock: `build_s` (CPU where `extra.build_clock` says so, else an older row's wall time),
# `extra`'s `*_cpu_s` and the answer checker's `check_s` column (the proof check's is
# `proof_check_cpu_s`). Wall time: `solve_s`, and older rows' `extra` phase statistics and proof
# check, which had the names now freed of a clock (`solver_s`, ..., `check_s`).
SHOWN_NAMES = {"solve_s": "solve_wall_s", "build_s": "build_wall_s", "check_s": "answer_check_cpu_s"}
CPU_BUILD = "build_cpu_s"  # `build_s` of a row whose `extra.build_clock` is "cpu"
SHOWN_COLUMNS = [name for c in STAT_COLUMNS for name in ((CPU_BUILD,) if c == "build_s" else ()) + (
    SHOWN_NAMES.get(c, c),)]
EXTRA_SHOWN_NAMES = {key: f"{key.removesuffix('_s')}_wall_s" for key in (
    "solver_s", "outside_s", "callback_s", "drat_s", "unique_drat_s", "build_s")}
EXTRA_SHOWN_NAMES.update(check_s="proof_check_wall_s", unique_check_s="unique_proof_check_wall_s")
# Which shown status a cell takes when its seeds disagree: the first of these present (a wrong
# answer is never hidden behind a majority of right ones), else the most common.
WORST_FIRST = (Shown.WRONG, Shown.SUSPECT, Shown.CRASH, Shown.MEMOUT, Shown.ERROR, Shown.UNPROVEN)
FLAGGED = (Shown.WRONG, Shown.SUSPECT, Shown.UNPROVEN)  # statuses that put an instance among those drawn


@dataclass
class Cell:
    """One configuration's runs on one instance (seeds aggregated for the table)."""

    status: str  # the shown status: `unproven` for an unconfirmed unsat, `wrong` for a refuted one
    time_s: float | None  # median solve time over the seeds, CPU (`summary.solve_time`)
    score: float  # median PAR-2 over the seeds: what the column sorts by (unanswered sort last)
    runs: list[dict[str, Any]]  # each seed's statistics, STAT_COLUMNS and `extra`
    solution: str  # the first seed's answer, else the edges it held when it stopped (`partial`)
    partial: bool = False


@dataclass
class Row:
    """One instance of the set: its cells by configuration."""

    key: str  # `folder/name` as `instance_keys` makes it: one per source, unique within the set
    name: str
    size: str  # in the kind's words (`Kind.size_text`): `10x10`, `100 vertices, 150 edges`
    measure: int  # the kind's size as one number (`Kind.size`): a grid's cells, a graph's vertices
    sha256: str
    source: str
    by_config: dict[str, Cell]
    flagged: bool = False  # a wrong or unproven answer, or encodings that disagree


@dataclass
class Version:
    """One fingerprint of one configuration: its runs' median time, with the commits that ran it."""

    config: str
    fingerprint: str
    commits: list[str]
    first_run: str
    runs: int
    solved: int
    median_s: float  # CPU, over its verified solves on the instances every version of the config ran
    common: int  # how many instances that median is over


@dataclass
class SetData:
    kind: str
    group: str
    slug: str
    runs: pd.DataFrame  # the newest code's runs, with `config`
    configs: list[str]
    summary: pd.DataFrame
    disagreements: pd.DataFrame
    rows: list[Row]
    older: int = 0  # runs of older code left out of everything but the versions view
    versions: list[Version] = field(default_factory=list)
    beside: SideBySide | None = None  # the measured configs beside a published table's, if asked


def sets(db: str, all_fingerprints: bool = False, published: Published | None = None,
         baseline: str | None = None) -> list[SetData]:
    """Every instance set of the database, as `harness.plot` splits it, newest code only unless asked;
    with `published`, each set with instances in it beside that table (`side_by_side`)."""
    every = plots.load(db, all_fingerprints=True)
    shown = every if all_fingerprints else results.latest(every)
    old_parts = dict(plots.by_instance_set(every))
    out = []
    for (kind, group), part in plots.by_instance_set(shown):
        history = old_parts.get((kind, group), part)
        out.append(one_set(kind, group, part, history, published, baseline))
    taken = Counter(one.slug for one in out)
    for one in out:  # two groups of one slug (`a b`, `a_b`) would share a folder and an id
        if taken[one.slug] > 1:
            one.slug = unique_slug(f"{one.kind}-{one.group}")
    return out


def instance_keys(runs: pd.DataFrame) -> pd.Series:
    """Each run's row key: where its instance came from, then its name, one key per source.

    A file's key holds its whole folder path below the set's common folder, that folder's name
    first (`set/name`, or `set/c1/sub/g` beside `set/c2/sub/g`); any other source (a bundled set's
    `collection/name`, an address) its collection or kind of address (`plots.data.instance_set`).
    Where two sources would still share a key (`g.txt` and `g.hcp`), each gets a hash of its source.
    """
    sources = runs["source"].astype(str)
    pairs = dict.fromkeys(zip(sources, runs["instance"].astype(str), strict=True))
    files = {source: str(Path(source).parent) for source, _ in pairs
             if instance_set(source) not in ("urls", "tatham ids") and "/" in source}
    try:
        common = os.path.commonpath(list(files.values())) if files else ""
    except ValueError:  # absolute and relative paths mixed: each folder in full
        common = ""
    base = os.path.dirname(common) or "." if common else ""
    keys = {}
    for source, name in pairs:
        folder = os.path.relpath(files[source], base) if source in files and base else (
            files.get(source) or instance_set(source))
        keys[source, name] = f"{folder}/{name}"
    shared = Counter(keys.values())
    for pair, key in keys.items():
        if shared[key] > 1:
            keys[pair] = f"{key} [{hashlib.sha256(pair[0].encode()).hexdigest()[:8]}]"
    return pd.Series([keys[pair] for pair in zip(sources, runs["instance"].astype(str), strict=True)],
                     index=runs.index, dtype=object)


def one_set(kind: str, group: str, runs: pd.DataFrame, history: pd.DataFrame | None = None,
            published: Published | None = None, baseline: str | None = None) -> SetData:
    runs = plots.with_config(runs).assign(_shown=shown_status(runs), _par2=par2(runs), _time=solve_time(runs))
    runs["_key"] = instance_keys(runs)
    configs = sorted(runs["config"].unique())
    contested = disagreements(runs)
    rows = table_rows(runs, configs, set(contested["instance_sha256"]))
    history = runs if history is None else history
    beside = None
    if published is not None:
        try:
            beside = side_by_side(runs, published)
        except ValueError:  # none of this set's instances is in the table
            beside = None
    named = set_slug(group if group.startswith(kind) else f"{kind}-{group}")
    return SetData(kind, group, named, runs, configs,
                   ranking_summary(runs, baseline), contested, rows, older=len(history) - len(runs),
                   versions=versions(history), beside=beside)


def ranking_summary(runs: pd.DataFrame, baseline: str | None = None) -> pd.DataFrame:
    """`summarize`'s table (in competition rank order), then each config's contribution to the virtual
    best, its spread over seeds (when several) and its speed-up with what it covers (`plots.table`)."""
    summary = summarize(runs, by="config")
    configs = sorted(summary.index)
    try:
        base = plots.resolve_baseline(configs, baseline)
    except ValueError:  # the baseline is another set's config
        base = plots.resolve_baseline(configs, None)
    more = plots.table(runs, base)
    return summary.join(more[[c for c in more.columns if c not in summary.columns and c != "other"]])


def table_rows(runs: pd.DataFrame, configs: list[str], contested: set[str]) -> list[Row]:
    """One Row per instance, in the order of the instances' names."""
    # Plain records, grouped in Python: pandas' per-group overhead costs minutes on 10,000 runs.
    columns = [c for c in {*STAT_COLUMNS, "_shown", "_par2", "_time", "_key", "config", "instance", "puzzle",
                           "rows", "cols", "instance_sha256", "source", "solution", "extra"} if c in runs]
    groups: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for record in runs[columns].astype(object).where(runs[columns].notna(), None).to_dict("records"):
        groups.setdefault(record["_key"], {}).setdefault(record["config"], []).append(record)
    rows = []
    for key in sorted(groups):
        by_config = {config: cell(mine) for config, mine in sorted(groups[key].items())}
        first = next(iter(groups[key].values()))[0]
        flagged = (any(c.status in FLAGGED for c in by_config.values())
                   or str(first["instance_sha256"])[:12] in contested)
        r, c = first["rows"], first["cols"]
        known = r is not None and c is not None
        kind = kinds.kinds().get(first["puzzle"], kinds.Kind)  # a kind no longer installed: a grid's words
        rows.append(Row(str(key), str(first["instance"]), kind.size_text(int(r), int(c)) if known else "?",
                        kind.size(int(r), int(c)) if known else 0, str(first["instance_sha256"]),
                        str(first["source"]), by_config, flagged))
    return rows


def cell(runs: list[dict[str, Any]]) -> Cell:
    """One config's runs of one instance (records), seeds aggregated."""
    runs = sorted(runs, key=lambda run: run.get("seed") or 0)
    shown = [run["_shown"] for run in runs]
    status = next((s for s in WORST_FIRST if s in shown), Counter(shown).most_common(1)[0][0])
    first = runs[0]
    extra = read_extra(first.get("extra"))
    solution = first["solution"] if isinstance(first.get("solution"), str) else ""
    partial = not solution and isinstance(extra.get("partial"), str) and bool(extra.get("partial"))
    return Cell(status, _median([run.get("_time") for run in runs]),
                _median([run.get("_par2") for run in runs], math.inf),
                [stats(run) for run in runs], extra["partial"] if partial else solution, partial)


def stats(run: dict[str, Any]) -> dict[str, Any]:
    """A run's statistics for its instance's page: the STAT_COLUMNS it has, and `extra` as a dict."""
    out: dict[str, Any] = {}
    said = read_extra(run.get("extra"))
    for column in STAT_COLUMNS:
        value = run.get("_shown" if column == "shown" else column)
        if value is None or value == "" or (isinstance(value, float) and math.isnan(value)):
            continue
        if column in ("fingerprint", "commit"):
            value = str(value)[:12]
        cpu_build = column == "build_s" and said.get("build_clock") == "cpu"
        name = CPU_BUILD if cpu_build else SHOWN_NAMES.get(column, column)
        out[name] = value.item() if hasattr(value, "item") else value
    extra = {EXTRA_SHOWN_NAMES.get(k, k): v for k, v in said.items()
             if k not in ("partial", "steps", "build_clock")}
    if extra:
        out["extra"] = extra
    return out


def versions(runs: pd.DataFrame) -> list[Version]:
    """Per configuration run under several fingerprints: one Version each, oldest first."""
    if "fingerprint" not in runs or runs.empty:
        return []
    # Labels without the fingerprint: a config is the same config across versions of its code.
    labelled = plots.with_config(runs.drop(columns=["config", "fingerprint"], errors="ignore"))
    labelled = labelled.assign(
        _code=runs["fingerprint"].fillna("(none)").astype(str).to_numpy(),
        _key=instance_keys(runs).to_numpy(),
        _when=runs["started_at"].fillna("").astype(str).to_numpy(), _time=solve_time(runs).to_numpy())
    solved = (labelled["status"] == Status.SOLVED) & (labelled["verified"] == 1)
    out = []
    for config, mine in labelled.groupby("config", sort=True):
        codes = mine.groupby("_code")["_when"].min().sort_values()
        if len(codes) < 2:
            continue
        keys = [set(mine.loc[mine["_code"] == code, "_key"]) for code in codes.index]
        common = set.intersection(*keys)
        for code, when in codes.items():
            runs_of = mine[mine["_code"] == code]
            ok = runs_of[solved[runs_of.index] & runs_of["_key"].isin(common)]
            commits = sorted({str(c)[:8] for c in runs_of["commit"].dropna()})
            out.append(Version(str(config), str(code), commits, str(when)[:19], len(runs_of),
                               int(solved[runs_of.index].sum()),
                               _number(pd.to_numeric(ok["_time"]).median(), math.nan), len(common)))
    return out


def to_drawn(data: SetData, draw: int | None) -> list[Row]:
    """The rows whose puzzles are drawn: the first `draw` (None: all), and every flagged one."""
    if draw is None:
        return list(data.rows)
    return [row for i, row in enumerate(data.rows) if i < draw or row.flagged]


def slug(text: str) -> str:
    """A file- and fragment-safe name: letters, digits, `-`, `_` and `.` kept, the rest `_`."""
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in text).strip("_") or "_"


def set_slug(text: str) -> str:
    """A set's slug (its folder, its id in links): `slug`, or past 80 characters (a sweep of a hundred
    files named one by one) `unique_slug`, which a file system takes as a name."""
    return slug(text) if len(slug(text)) <= 80 else unique_slug(text)


def unique_slug(text: str) -> str:
    """`slug`, cut to 60 characters, with a hash of the whole text beside it: names that slug alike
    (`a b`, `a_b`, `a?b`) get files of their own, and a reader still sees which is which."""
    return f"{slug(text)[:60]}-{hashlib.sha256(text.encode()).hexdigest()[:10]}"


def _median(values: list[Any], missing: float | None = None) -> float | None:
    numbers = sorted(v for v in (_number(x) for x in values) if v is not None)
    if not numbers:
        return missing
    middle = len(numbers) // 2
    return numbers[middle] if len(numbers) % 2 else (numbers[middle - 1] + numbers[middle]) / 2


def _number(value: Any, missing: float | None = None) -> float | None:
    try:
        value = float(value)
    except (TypeError, ValueError):
        return missing
    return missing if math.isnan(value) else value
