"""What a two-member portfolio under one CPU clock would have solved, read off a sweep's stored runs.

`portfolio` (encodings/portfolio.py) gives each member half the run's CPU limit and counts both
clocks, so within a cutoff c it solves a graph when one member's stored run solved it within c / 2.
This prints, per cutoff and over the sweep's seeds (mean, least-most), each configuration alone beside
every pair of them (and a configuration paired with itself under another seed), from the runs a sweep
stored: a reading of what a portfolio sweep would find, not a run of one.

    python results/fhcp/portfolio.py results/fhcp/headline.sqlite [--cutoffs 1,10,30,60]
"""

from __future__ import annotations

import argparse
import itertools
import math

import pandas as pd

from harness.analysis.configs import with_config
from harness.analysis.results import latest, load
from harness.analysis.summary import solve_time, solved_mask


def seconds(db: str) -> pd.DataFrame:
    """Per (config, seed) a column, per instance a row: the CPU seconds of a verified answer, inf else."""
    runs = with_config(latest(load(db)))
    runs = runs.assign(t=solve_time(runs).where(solved_mask(runs), math.inf))
    return runs.pivot_table(index="instance", columns=["config", "seed"], values="t", aggfunc="min")


def spread(counts: list[float]) -> str:
    return f"{sum(counts) / len(counts):.1f} ({min(counts):g}-{max(counts):g})"


def rows(table: pd.DataFrame, cutoffs: list[float]) -> list[list[str]]:
    configs = sorted({c for c, _ in table.columns})
    seeds = sorted({s for _, s in table.columns})
    out = []
    for config in configs:
        out.append([f"`{config}` alone"] + [spread([float((table[(config, s)] <= c).sum()) for s in seeds])
                                            for c in cutoffs])
    for a, b in itertools.combinations_with_replacement(configs, 2):
        # the same seed for both (what one portfolio run gives them), or, for a config with itself, two seeds
        pairs = [(s, t) for s, t in itertools.combinations(seeds, 2)] if a == b else [(s, s) for s in seeds]
        said = [spread([float((table[[(a, s), (b, t)]].min(axis=1) <= c / 2).sum()) for s, t in pairs])
                for c in cutoffs]
        out.append([f"`{a}` + `{b}`" + (" (two seeds)" if a == b else "")] + said)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("db")
    p.add_argument("--cutoffs", default="1,10,30,60", help="CPU seconds, comma-separated")
    args = p.parse_args(argv)
    cutoffs = [float(c) for c in args.cutoffs.split(",")]
    table = seconds(args.db).dropna()
    print(f"{len(table)} instances; solved within each cutoff, mean (least-most) over the seeds")
    print("| configuration | " + " | ".join(f"≤ {c:g} s" for c in cutoffs) + " |")
    print("|---|" + "---:|" * len(cutoffs))
    for row in rows(table, cutoffs):
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
