"""The numbers behind the plots: configurations, one row per (instance, config), the table, the stamp."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from harness.analysis import ranking, results
from harness.analysis.configs import spelled, with_config
from harness.analysis.summary import clock_note, par2, seed_spread, solved_mask, summarize
from harness.analysis.sweeps import sweep_note
from harness.extra import extra_column
from harness.outcomes import Shown, Status

# Statuses the table gives a column of their own; the rest are summed into `other`.
TABLE_STATUSES = (Shown.SOLVED, Shown.WRONG, Shown.TIMEOUT)


def load(db: str | Path, all_fingerprints: bool = False) -> pd.DataFrame:
    """The runs (`harness.results.load`), each with the `--instances` specs of the sweep that ran it.

    Only the runs of the newest code per encoding and options (`results.latest`) unless
    `all_fingerprints`. The specs (`instance_specs`, comma-separated) name the set(s) in every
    figure's stamp and split the runs into instance sets; runs whose sweep is not recorded fall
    back to the folder or collection of their source.
    """
    runs = results.load(db)
    return with_sweep_specs(runs if all_fingerprints else results.latest(runs), db)


def with_sweep_specs(runs: pd.DataFrame, db: str | Path) -> pd.DataFrame:
    """Add `instance_specs`: the `--instances` specs of each run's sweep, from the database's sweeps table."""
    specs = _sweep_specs(db)
    if specs and "sweep_id" in runs:
        runs = runs.assign(instance_specs=runs["sweep_id"].map(lambda sweep: ",".join(specs.get(sweep, []))))
    return runs


def _sweep_specs(db: str | Path) -> dict[str, list[str]]:
    from harness.schema import SCHEMA_VERSION
    from harness.storefile import StoreError, reading

    try:  # read-only, as results.load: never lock the writer out; a file without sweeps has no specs
        with reading(db, SCHEMA_VERSION) as conn:
            rows = conn.execute("SELECT sweep_id, config FROM sweeps").fetchall()
    except StoreError:
        return {}
    specs = {}
    for sweep, config in rows:
        try:
            specs[sweep] = [str(s) for s in json.loads(config or "{}").get("instances") or []]
        except (json.JSONDecodeError, AttributeError):
            continue
    return specs


def sizes(runs: pd.DataFrame) -> pd.Series:
    """Each run's puzzle size for scaling plots, as its kind measures it (`Kind.size`: cells, vertices)."""
    from harness import kinds

    known = kinds.kinds()
    return pd.Series([known[k].size(r, c) if k in known and pd.notna(r) and pd.notna(c) else np.nan
                      for k, r, c in zip(runs["puzzle"], runs["rows"], runs["cols"], strict=True)],
                     index=runs.index, dtype=float)


def size_words(runs: pd.DataFrame) -> str:
    """The words for the size axis of these runs' kind(s): `cells (rows × cols)`, `vertices`."""
    from harness import kinds

    words = sorted({kinds.get(k).size_words for k in runs["puzzle"].dropna().unique() if k in kinds.kinds()})
    return " / ".join(words) or "size"


def instance_set(source: object) -> str:
    """The set a run's instance came from: the folder of a file source, else its kind of address."""
    text = str(source or "")
    if "://" in text:
        return "urls"
    if ":" in text and "/" not in text:
        return "tatham ids"
    parent = Path(text).parent.name
    return parent or "files"


def instance_group(runs: pd.DataFrame) -> pd.Series:
    """The instance set each run belongs to: its sweep's `--instances` (set, folder or file names),
    or, for a run whose sweep is not recorded, the collection or folder of its source."""
    fallback = runs["source"].map(instance_set)
    if "instance_specs" not in runs:
        return fallback
    named = runs["instance_specs"].fillna("").map(
        lambda joined: ",".join(Path(s).name or s for s in str(joined).split(",") if s))
    return named.where(named != "", fallback)


def by_instance_set(runs: pd.DataFrame) -> list[tuple[tuple[str, str], pd.DataFrame]]:
    """The runs split by puzzle kind and instance set: each part compares configs on the same puzzles."""
    labelled = runs.assign(instance_group=instance_group(runs))
    return [((str(kind), str(group)), part.reset_index(drop=True))
            for (kind, group), part in labelled.groupby(["puzzle", "instance_group"], sort=True)]


def common_instances(inst: pd.DataFrame) -> pd.Index:
    """The (instance_set, instance) pairs that every config in `inst` (per_instance rows) ran."""
    configs = inst["config"].nunique()
    ran = inst.groupby(["instance_set", "instance"])["config"].nunique()
    return ran.index[ran == configs]


def extra_stat(runs: pd.DataFrame, key: str) -> pd.Series:
    """One statistic out of the `extra` JSON column (NaN where a run does not have it)."""
    values = extra_column(runs, key)
    return values.map(lambda v: float(v) if isinstance(v, (int, float)) else np.nan).astype(float)


def per_instance(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per (puzzle, config, instance), aggregating seeds.

    Over the seeds: `solved` if most seeds' solutions were verified; `par2_s` is the median of
    the seeds' PAR-2 scores, and `time_s` the same where solved (NaN otherwise); `limit_s` is the
    time limit. `iterations`, `cuts`, `solve_s` (wall), `solve_cpu_s` and, from `extra`, `outside_cpu_s`
    (CPU time in the lazy loop outside the solver) and `solver_cpu_s` (inside it) are medians over the
    seeds; the last two are NaN for older rows, which recorded them on the wall clock under other names.
    """
    runs = with_config(runs).assign(
        _solved=solved_mask(runs).astype(float),
        _par2=par2(runs),
        _wrong=(runs["status"] == Status.WRONG).astype(float),
        cells=sizes(runs),
        outside_cpu_s=extra_stat(runs, "outside_cpu_s"),
        solver_cpu_s=extra_stat(runs, "solver_cpu_s"),
        instance_set=runs["source"].map(instance_set),
    )
    if "solve_cpu_s" not in runs:
        runs["solve_cpu_s"] = np.nan
    for column in ("iterations", "cuts", "solve_s", "solve_cpu_s"):
        runs[column] = pd.to_numeric(runs[column], errors="coerce")
    grouped = runs.groupby(["puzzle", "config", "instance_set", "instance"], sort=True, dropna=False)
    out = grouped.agg(
        encoding=("encoding", "first"),
        cells=("cells", "first"),
        seeds=("_solved", "size"),
        solved_share=("_solved", "mean"),
        wrong_share=("_wrong", "mean"),
        par2_s=("_par2", "median"),
        limit_s=("time_limit_s", "max"),
        solve_s=("solve_s", "median"),
        solve_cpu_s=("solve_cpu_s", "median"),
        iterations=("iterations", "median"),
        cuts=("cuts", "median"),
        outside_cpu_s=("outside_cpu_s", "median"),
        solver_cpu_s=("solver_cpu_s", "median"),
    ).reset_index()
    out["solved"] = out["solved_share"] > 0.5
    out["time_s"] = out["par2_s"].where(out["solved"])
    return out


def wide_times(inst: pd.DataFrame) -> pd.DataFrame:
    """Per-instance PAR-2 scores, one column per config (NaN where a config did not run)."""
    return inst.pivot_table(index=["instance_set", "instance"], columns="config", values="par2_s",
                            aggfunc="first")


def solved_times(inst: pd.DataFrame, common: bool = False) -> pd.DataFrame:
    """Per-instance solve times (seeds aggregated), one column per config, NaN where it did not solve.

    The wide table `analysis.ranking` scores. Every instance and config of `inst` has its row and
    column (a config that solved nothing is all NaN); `common`: only the instances every config ran.
    """
    pairs = pd.MultiIndex.from_frame(inst[["instance_set", "instance"]].drop_duplicates().sort_values(
        ["instance_set", "instance"]))
    times = inst.pivot_table(index=["instance_set", "instance"], columns="config", values="time_s",
                             aggfunc="first").reindex(index=pairs, columns=sorted(inst["config"].unique()))
    times.columns.name = None
    return times.loc[common_instances(inst)] if common else times


def virtual_best(inst: pd.DataFrame) -> pd.Series:
    """The virtual best configuration: per instance that every config ran, the least PAR-2 among them.

    Instances some config did not run are left out: a best over different puzzles compares nothing.
    """
    return ranking.virtual_best(wide_times(inst).loc[common_instances(inst)])


def resolve_baseline(configs: list[str], wanted: str | None, role: str = "baseline") -> str | None:
    """The baseline: `wanted` (a config, or an encoding with one config); else `circuit`, else the first.

    Raises ValueError when `wanted` names nothing or more than one config.
    """
    if not configs:
        return None
    if wanted is None:
        return "circuit" if "circuit" in configs else configs[0]
    if wanted in configs:
        return wanted
    if len(matches := spelled(configs, wanted)) == 1:  # as harness.run spells it: `sat:join=merge`
        return matches[0]
    matches = [c for c in configs if c.split("[", 1)[0] == wanted]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise ValueError(f"{role} {wanted!r} is not among the configurations: {', '.join(configs)}")
    raise ValueError(f"{role} {wanted!r} is ambiguous: {', '.join(matches)}")


def speedups(inst: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """Per config: geometric mean of baseline time / config time on the instances both solved (>1: faster),
    with `both_solved` (what it covers), `solved` and `instances` (`ranking.speedups`)."""
    return ranking.speedups(solved_times(inst), baseline)


def table(runs: pd.DataFrame, baseline: str | None = None) -> pd.DataFrame:
    """Per config, in competition rank order: rank, runs, solved, wrong, timeout, other, PAR-2, median time,
    its contribution to the virtual best, the spread over seeds (when any config ran several), and
    speed-up over `baseline` with the instances it covers.

    Counts, PAR-2, median and rank come from `summary.summarize` over the runs (every seed counts);
    the virtual best (`ranking.contributions`: instances only this config solved, PAR-2 the best
    loses without it) and the speed-up are computed on per-instance times (seeds aggregated first),
    the virtual best over the instances every config ran.
    """
    runs = with_config(runs)
    summary = summarize(runs, by="config")
    other = summary.drop(columns=["rank", "runs", *TABLE_STATUSES, "par2_s", "median_s"]).sum(axis=1)
    out = summary[["rank", "runs", *TABLE_STATUSES]].assign(other=other, par2_s=summary["par2_s"],
                                                            median_s=summary["median_s"])
    out.index.name, out.columns.name = "config", None
    inst = per_instance(runs)
    if len(out) > 1:
        gain = ranking.contributions(solved_times(inst, common=True), float(inst["limit_s"].max()))
        out = out.join(gain)
    spread = seed_spread(runs)
    if (spread["seeds"] > 1).any():
        out = out.join(spread)
    base = resolve_baseline(sorted(out.index), baseline)
    if base is not None:
        ups = speedups(inst, base).reindex(out.index)
        out[f"speedup_vs_{base}"] = ups["speedup"]
        out["both_solved"] = ups["both_solved"].fillna(0).astype(int)
    return out


def markdown(frame: pd.DataFrame, digits: int = 3) -> str:
    """A GitHub Markdown table (pandas' to_markdown needs tabulate, which the project does not carry)."""
    def cell(value: object) -> str:
        if isinstance(value, (float, np.floating)):
            return "–" if np.isnan(value) else f"{value:.{digits}g}"
        return str(value)

    frame = frame.reset_index()
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---:" if pd.api.types.is_numeric_dtype(frame[c]) else "---" for c in frame.columns)
    rule += "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *body]) + "\n"


def stamp(runs: pd.DataFrame) -> str:
    """What a figure shows, in four lines: sets, runs, limit; host, solver versions, commit; the clock;
    the sweep (one, with its load, or ACROSS SWEEPS with each side's: `sweeps.sweep_note`)."""
    set_of = runs["source"].map(instance_set)
    sets = sorted(set(set_of))
    if "instance_specs" in runs:
        # A path spec shows as its last part: the folder or file name, not the whole absolute path.
        specs = [s for joined in runs["instance_specs"].dropna() for s in str(joined).split(",") if s]
        given = {Path(s).name or s for s in specs}
        sets = sorted(given) if given and runs["instance_specs"].astype(bool).all() else sets
    if len(sets) > 4:
        sets = [*sets[:4], f"… ({len(sets) - 4} more)"]
    seeds = runs["seed"].nunique()
    labelled = runs.assign(_set=set_of, _config=with_config(runs)["config"])
    configs = labelled["_config"].nunique()
    instances = labelled.groupby(["_set", "instance"]).ngroups
    run_by = labelled.groupby(["_set", "instance"])["_config"].nunique()
    common = int((run_by == configs).sum())
    if len(runs) == instances * configs * seeds and common == instances:
        counted = f"{_count(instances, 'instance')} × {_count(configs, 'config')} × {_count(seeds, 'seed')}"
    else:  # say what ran, never a product that did not
        counted = (f"{_count(configs, 'config')} on {_count(instances, 'instance')}, {common} run by every "
                   f"config, {_count(seeds, 'seed')}")
    first = (f"set{'s' if len(sets) > 1 else ''}: {', '.join(sets)} · {len(runs)} runs ({counted})"
             f" · time limit {_values(runs['time_limit_s'], ' s')}")
    parts = [f"host {_values(runs.get('host'))}"]
    for column, name in (("ortools_version", "ortools"), ("pysat_version", "python-sat"),
                         ("python_version", "python")):
        if column in runs and runs[column].notna().any():
            parts.append(f"{name} {_values(runs[column])}")
    if "commit" in runs and runs["commit"].notna().any():
        commits = sorted({str(c)[:8] for c in runs["commit"].dropna()})
        dirty = "dirty" in runs and (runs["dirty"] == 1).any()
        more = "…" if len(commits) > 3 else ""
        parts.append(f"commit {', '.join(commits[:3])}{more}{' (dirty)' if dirty else ''}")
    return "\n".join([first, " · ".join(parts), clock_note(runs), sweep_note(runs)])


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _values(series: pd.Series | None, unit: str = "") -> str:
    """The distinct values of a column, compactly: `10 s`, `5–60 s`, `a, b`, `?`."""
    if series is None or series.dropna().empty:
        return "?"
    values = series.dropna().unique()
    if np.issubdtype(np.asarray(values).dtype, np.number):
        lo, hi = float(min(values)), float(max(values))
        return f"{lo:g}{unit}" if lo == hi else f"{lo:g}–{hi:g}{unit}"
    names = sorted(str(v) for v in values)
    return ", ".join(names[:3]) + ("…" if len(names) > 3 else "") + unit
