"""What the committed FHCP databases say each candidate did on each graph at 60 s: the selector's cells.

A cell is (graph, configuration): the CPU seconds of a verified answer within LIMIT_S, `inf` for a run
that ended without one, NaN (unknown) where no run of that configuration on that graph is stored. A
run is a candidate's when its options on a graph are the ones the candidate resolves to there (an
option a run predates at its plain default, as `analysis.configs` labels runs). Several runs of one
cell (seeds, databases) give their median, the slower of the middle two. Only runs at a LIMIT_S limit
count: a run stopped sooner says nothing about LIMIT_S.

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
CANDIDATES = ("cegar-split", "asp")  # what `auto` chooses between (the brief of issue 47, item 3)
# a config: the one it is step for step on a graph it does not split
SAME_WHEN_UNSPLIT = {"cegar-split": "cegar"}
# Every committed database of 60 s FHCP runs (results/fhcp/README.md says how each was run)
DATABASES = tuple(f"results/fhcp/{name}.sqlite" for name in (
    "rest-60s", "held-out-60s", "split-60s", "vb-60s", "runs-60s", "headline", "restart-60s"))


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
    """One row per stored graph run of `configs` at LIMIT_S: graph, config, db, seconds (inf: unsolved)."""
    from harness.analysis.configs import _options

    frames = []
    for path in paths:
        found = latest(load(path))
        found = found[(found["puzzle"] == "graph")
                      & (pd.to_numeric(found["time_limit_s"], errors="coerce") == LIMIT_S)]
        if found.empty:
            continue
        label = [config_of(str(e), _options(o), configs) for e, o in zip(found["encoding"], found["options"],
                                                                           strict=True)]
        ok = solved_mask(found) & (solve_time(found) <= LIMIT_S)
        seconds = solve_time(found).where(ok, math.inf)
        frames.append(pd.DataFrame({"graph": found["instance"].astype(str), "config": label,
                                    "db": path.name, "seconds": seconds.astype(float)}))
    every = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["graph", "config", "db", "seconds"])
    return every[every["config"] != ""].reset_index(drop=True)


def _median(values: pd.Series) -> float:
    ordered = np.sort(values.to_numpy(dtype=float))
    return float(ordered[len(ordered) // 2])  # of two, the slower


def cells(paths: list[Path], graphs: pd.DataFrame, configs: tuple[str, ...] = CANDIDATES
          ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The seconds per graph (rows: `graphs`' index, the features frame) and config (columns), NaN where
    unknown, and a frame of the same shape saying where a cell was borrowed (SAME_WHEN_UNSPLIT)."""
    stand_ins = tuple(SAME_WHEN_UNSPLIT[c] for c in configs if c in SAME_WHEN_UNSPLIT)
    stored = runs(paths, configs + tuple(s for s in stand_ins if s not in configs))
    table = stored.groupby(["graph", "config"])["seconds"].agg(_median).unstack("config")
    table = table.reindex(index=graphs.index, columns=sorted(set(stored["config"]) | set(configs)))
    borrowed = pd.DataFrame(False, index=table.index, columns=list(configs))
    for config in configs:
        other = SAME_WHEN_UNSPLIT.get(config)
        if other is None:
            continue
        take = table[config].isna() & table[other].notna() & (graphs["split_parts"] == 0)
        table.loc[take, config] = table.loc[take, other]
        borrowed[config] = take
    return table[list(configs)], borrowed
