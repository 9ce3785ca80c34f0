"""What the committed FHCP databases say each candidate did on each graph at 60 s: the selector's cells.

A cell is (graph, configuration): the CPU seconds of a verified answer within LIMIT_S, `inf` for a run
that ended without one, NaN (unknown) where no run of that configuration on that graph is stored. A
run is a candidate's when its options on a graph are the ones the candidate resolves to there (an
option a run predates at its plain default, as `analysis.configs` labels runs). Several runs of one
cell (seeds, databases) give their median, the slower of the middle two. Runs at a LIMIT_S limit
count, and, for a candidate whose search never reads its limit (LIMIT_FREE), runs at a shorter one
where the cell has no LIMIT_S run: one solved tells its time (the same search would have found it
under LIMIT_S), one unsolved within L only that the cell is not solved within L (`floor`): unknown
at LIMIT_S, unsolved at every cutoff up to L.

`cegar-split` on a graph `split=hubs` does not split (`split_parts` 0) is the same search as `cegar`
step for step (encodings/cegar/split.py; tests/test_split.py compares the conflicts), so there its
cell is `cegar`'s where it has no run of its own: counted apart (`borrowed`), never hidden.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from harness.analysis.results import latest, load
from harness.analysis.summary import solve_time, solved_mask

LIMIT_S = 60.0
# what `auto` chooses between (the brief of issue 47, item 3): its two configurations, and sat's graph
# default, run on every training graph for it (results/selector/README.md)
CANDIDATES = ("cegar-split", "asp", "cegar-split-frontier")
# candidates whose search reads the clock only to stop (encodings/asp.py: clingo's search is the same
# under any limit), so that their runs at a shorter limit than LIMIT_S tell a cell too
LIMIT_FREE = ("asp",)
# a config: the one it is step for step on a graph it does not split
SAME_WHEN_UNSPLIT = {"cegar-split": "cegar"}
# Every committed database of 60 s FHCP runs (results/fhcp/README.md says how each was run), and the
# selector's own: asp's 10 s runs on the training graphs it had none on, cegar-split-frontier's 60 s runs
# on every training graph (results/selector/README.md)
DATABASES = tuple(f"results/fhcp/{name}.sqlite" for name in (
    "rest-60s", "held-out-60s", "split-60s", "vb-60s", "runs-60s", "headline", "restart-60s",
    "headline-frontier")) + ("results/selector/asp-10s.sqlite", "results/selector/frontier-60s.sqlite")


@cache
def _wanted(config: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    from harness import registry

    found = registry.entry(config)
    options = found.resolve("graph", strict=False).options
    return found.encoding, tuple(sorted((k, str(v)) for k, v in options.items()))


def config_of(encoding: str, options: dict, configs: tuple[str, ...]) -> str:
    """The first of `configs` a graph run of `encoding` with these stored options is, or ""."""
    from harness.analysis.configs import defaults

    filled = {**{k: str(v) for k, v in defaults(encoding).items()}, **{k: str(v) for k, v in options.items()}}
    for config in configs:
        name, wanted = _wanted(config)
        if name == encoding and all(filled.get(k) == v for k, v in wanted):
            return config
    return ""


def runs(paths: list[Path], configs: tuple[str, ...]) -> pd.DataFrame:
    """One row per stored graph run of `configs` at LIMIT_S (and of LIMIT_FREE ones at a shorter limit):
    graph, config, db, seconds (inf: unsolved), limit."""
    from harness.analysis.configs import _options

    frames = []
    for path in paths:
        found = latest(load(path))
        limit = pd.to_numeric(found["time_limit_s"], errors="coerce")
        kept = (found["puzzle"] == "graph") & (limit <= LIMIT_S)
        found, limit = found[kept], limit[kept]
        if found.empty:
            continue
        label = pd.Series([config_of(str(e), _options(o), configs)
                           for e, o in zip(found["encoding"], found["options"], strict=True)],
                          index=found.index)
        ok = solved_mask(found) & (solve_time(found) <= limit)
        seconds = solve_time(found).where(ok, math.inf)
        counted = (limit == LIMIT_S) | label.isin(LIMIT_FREE)
        frames.append(pd.DataFrame({"graph": found["instance"].astype(str), "config": label,
                                    "db": path.name, "seconds": seconds.astype(float),
                                    "limit": limit.astype(float)})[counted])
    every = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["graph", "config", "db", "seconds", "limit"])
    return every[every["config"] != ""].reset_index(drop=True)


def soonest(seconds: pd.DataFrame, floor: pd.DataFrame) -> pd.DataFrame:
    """The least time each cell could have: its own where known; just past its floor where only that is
    known; 0 where nothing is (an unknown might have solved at once): the upper bounds' cells."""
    could = floor.reindex_like(seconds).fillna(0.0)
    return seconds.fillna(could.where(could == 0, np.nextafter(could, math.inf)))


def _median(values: pd.Series) -> float:
    ordered = np.sort(values.to_numpy(dtype=float))
    return float(ordered[len(ordered) // 2])  # of two, the slower


def table(stored: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """`runs`' rows as cells: (seconds per graph and config, NaN unknown; the limit within which a cell
    is known unsolved where its only runs stopped short of LIMIT_S unsolved, else 0). Of a cell's runs,
    those at its longest limit are read: a shorter one says less."""
    if stored.empty:
        return pd.DataFrame(), pd.DataFrame()
    longest = stored.groupby(["graph", "config"])["limit"].transform("max")
    read = stored[stored["limit"] == longest]
    seconds = read.groupby(["graph", "config"])["seconds"].agg(_median)
    limit = read.groupby(["graph", "config"])["limit"].max()
    short = (limit < LIMIT_S) & np.isinf(seconds)
    return (seconds.where(~short).unstack("config"),
            limit.where(short, 0.0).unstack("config").fillna(0.0))


def cells(paths: list[Path], graphs: pd.DataFrame, configs: tuple[str, ...] = CANDIDATES
          ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The seconds per graph (rows: `graphs`' index, the features frame) and config (columns), NaN where
    unknown; a frame of the same shape saying where a cell was borrowed (SAME_WHEN_UNSPLIT); and the
    limit within which an unknown cell is known unsolved (`table`'s floor, 0 where nothing is known)."""
    stand_ins = tuple(SAME_WHEN_UNSPLIT[c] for c in configs if c in SAME_WHEN_UNSPLIT)
    stored = runs(paths, configs + tuple(s for s in stand_ins if s not in configs))
    found, floor = table(stored)
    columns = sorted(set(stored["config"]) | set(configs) | set(stand_ins))  # a stand-in with no runs too
    found = found.reindex(index=graphs.index, columns=columns)
    floor = floor.reindex(index=graphs.index, columns=list(configs)).fillna(0.0)
    borrowed = pd.DataFrame(False, index=found.index, columns=list(configs))
    for config in configs:
        other = SAME_WHEN_UNSPLIT.get(config)
        if other is None:
            continue
        take = found[config].isna() & found[other].notna() & (graphs["split_parts"] == 0)
        found.loc[take, config] = found.loc[take, other]
        borrowed[config] = take
    return found[list(configs)], borrowed, floor
