"""What separation did in the mip study's runs: per config and puzzle kind, the counts SCIP and the handler recorded.

`python results/mip/separation.py results/mip/smoke.sqlite [...]` prints, per (database, kind,
config): runs, solved, runs solved at the root (nodes <= 1), the medians of nodes, LP iterations,
enforcement rounds (integral points cut) and fractional separation rounds, the cuts of each kind
summed, and the handler's share of CPU (callback_cpu_s over solve_cpu_s, summed). Counts do not
depend on the machine's load; the share somewhat does.
"""

from __future__ import annotations

import sys

import pandas as pd

from harness.extra import extra_column

FIELDS = ("nodes", "lp_iterations", "rounds", "sepa_rounds", "integral_cuts", "fractional_cuts",
          "root_cuts", "callback_cpu_s")


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
    share = grouped["callback_cpu_s"].sum() / grouped["solve_cpu_s"].sum()
    out["handler_cpu_share"] = share.round(3)
    return out


if __name__ == "__main__":
    pd.set_option("display.width", 200)
    for path in sys.argv[1:]:
        print(f"## {path}")
        print(table(path).to_string())
