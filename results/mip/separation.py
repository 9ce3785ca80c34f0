"""The mip study's tables from a sweep's database: each set's summary, then what separation did.

`python results/mip/separation.py DB SET [SET ...]` prints, per bundled set named, the summary
table of the database's runs on its instances (every config: solved, statuses, PAR-2: the table a
sweep prints, split by set), then per (kind, config) of `mip`: runs, solved, runs solved at the
root (nodes <= 1), the medians of nodes, LP iterations, enforcement rounds (integral points cut)
and fractional separation rounds, the cuts of each kind summed, and the handler's share of CPU
(callback_cpu_s over solve_cpu_s, summed over the runs with a solve time: a timeout has none).
Counts do not depend on the machine's load; the share somewhat does. With `--csv OUT` it writes the
separation table to OUT instead (the README's tables are made from those files by `harness.tables`).
"""

from __future__ import annotations

import sys

import pandas as pd

from harness.extra import extra_column

FIELDS = ("nodes", "lp_iterations", "rounds", "sepa_rounds", "integral_cuts", "fractional_cuts",
          "root_cuts", "callback_cpu_s")


def summaries(db: str, names: list[str]) -> dict[str, pd.DataFrame]:
    """The sweep summary (`harness.analysis.summary.summarize` by config) of each bundled set named."""
    from harness import sets
    from harness.analysis.configs import with_config
    from harness.analysis.results import load
    from harness.analysis.summary import summarize

    runs = with_config(load(db))
    out = {}
    for name in names:
        hashes = {i.content_hash for i in sets.instances(name)}
        mine = runs[runs["instance_sha256"].isin(hashes)]
        if not mine.empty:
            out[name] = summarize(mine, by="config")
    return out


def table(db: str) -> pd.DataFrame:
    from harness.analysis.configs import with_config
    from harness.analysis.results import load

    runs = with_config(load(db))
    runs = runs[runs["encoding"] == "mip"].copy()
    for field in FIELDS:
        runs[field] = pd.to_numeric(extra_column(runs, field), errors="coerce")
    runs["solved"] = runs["status"] == "solved"
    grouped = runs.groupby(["puzzle", "config"])
    out = grouped.agg(runs=("status", "size"), solved=("solved", "sum"),
                      at_root=("nodes", lambda s: int((s <= 1).sum())), nodes=("nodes", "median"),
                      lp_iter=("lp_iterations", "median"), enf_rounds=("rounds", "median"),
                      sepa_rounds=("sepa_rounds", "median"), integral_cuts=("integral_cuts", "sum"),
                      fractional_cuts=("fractional_cuts", "sum"), root_cuts=("root_cuts", "sum"))
    timed = runs[runs["solve_cpu_s"].notna()].groupby(["puzzle", "config"])  # a timeout has no solve time
    share = timed["callback_cpu_s"].sum() / timed["solve_cpu_s"].sum()
    out["handler_cpu_share"] = share.round(3)
    return out


if __name__ == "__main__":
    pd.set_option("display.width", 200)
    args = sys.argv[1:]
    if args[:1] == ["--csv"]:
        out, path = args[1], args[2]
        table(path).reset_index().to_csv(out, index=False, float_format="%.3g")
        sys.exit(0)
    path, names = args[0], args[1:]
    for name, summary in summaries(path, names).items():
        print(f"### {name}")
        print(summary.to_string(float_format=lambda x: f"{x:.3f}"))
    print("### separation (mip runs)")
    print(table(path).to_string())
