"""Two configurations from two sweeps compared on the runs both made on one CPU model, pair by pair.

Sweeps on mixed machines cannot be compared row by row; the (graph, seed) pairs both configurations ran
on the same CPU model can. This prints, within each cutoff, how many of those pairs each solved (a
reading of stored runs, at each sweep's own commit):

    python results/fhcp/same_cpu.py results/fhcp/headline.sqlite cegar-split-prepass \
        results/fhcp/prepass-frontier.sqlite cegar-split-frontier --cpu EPYC
"""

from __future__ import annotations

import argparse
import math

import pandas as pd

from harness.analysis.configs import with_config
from harness.analysis.machines import cpu_models
from harness.analysis.results import latest, load
from harness.analysis.summary import solve_time, solved_mask


def times(db: str, config: str, cpu: str) -> pd.DataFrame:
    """Per (instance, seed) the CPU seconds of `config`'s verified answer (inf: none), runs on `cpu` only."""
    runs = with_config(latest(load(db)))
    runs = runs[(runs.config == config) & cpu_models(runs).str.contains(cpu, regex=False)]
    return runs.assign(t=solve_time(runs).where(solved_mask(runs), math.inf))[["instance", "seed", "t"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db_a")
    parser.add_argument("config_a")
    parser.add_argument("db_b")
    parser.add_argument("config_b")
    parser.add_argument("--cpu", required=True, help="a part of the CPU model's name, e.g. EPYC")
    parser.add_argument("--cutoffs", default="1,10,30,60")
    args = parser.parse_args()
    pairs = times(args.db_a, args.config_a, args.cpu).merge(
        times(args.db_b, args.config_b, args.cpu), on=["instance", "seed"], suffixes=("_a", "_b"))
    cutoffs = [float(c) for c in args.cutoffs.split(",")]
    print(f"{len(pairs)} (graph, seed) pairs both ran on a CPU named *{args.cpu}*; solved within each cutoff")
    print("| configuration | " + " | ".join(f"≤ {c:g} s" for c in cutoffs) + " |")
    print("|---|" + "---:|" * len(cutoffs))
    for side, config in (("a", args.config_a), ("b", args.config_b)):
        solved = [str(int((pairs[f"t_{side}"] <= c).sum())) for c in cutoffs]
        print(f"| `{config}` | " + " | ".join(solved) + " |")


if __name__ == "__main__":
    main()
