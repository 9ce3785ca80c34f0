"""`cegar-split-auto` beside `cegar-split-frontier` on the training graphs, by what `degree=auto` chose.

Where it chose `all`, the two run the same search (tests/test_sat_options.py compares the conflicts), so
the ratio of their CPU times there measures the two databases' machines, not the configurations; where
it chose `free`, the ratio is the configurations' and the machines' together.

    python results/selector/same_search.py [--auto DB] [--frontier DB]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent
SHORTEST_S = 0.5  # pairs where both took less are too short for a ratio of CPU times to mean much


def runs(db: Path) -> pd.DataFrame:
    with sqlite3.connect(db) as connection:
        return pd.read_sql('select instance, status, solve_cpu_s, extra, "commit" from runs', connection)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--auto", type=Path, default=HERE / "auto-60s.sqlite")
    p.add_argument("--frontier", type=Path, default=HERE / "frontier-60s.sqlite")
    args = p.parse_args(argv)
    auto, frontier = runs(args.auto), runs(args.frontier)
    auto["chose"] = [json.loads(e).get("degree_auto", "?") if e else "?" for e in auto["extra"]]
    both = auto.merge(frontier, on="instance", suffixes=("_auto", "_frontier"))
    print(f"{len(both)} graphs run by both ({args.auto.name}: commit {auto['commit'].iloc[0][:7]}; "
          f"{args.frontier.name}: commit {frontier['commit'].iloc[0][:7]})")
    print("| degree=auto chose | graphs | solved: auto | solved: frontier | only auto | only frontier "
          f"| pairs both > {SHORTEST_S:g} s | CPU auto / frontier: geometric mean | median |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for chose, group in both.groupby("chose"):
        a, f = group["status_auto"] == "solved", group["status_frontier"] == "solved"
        paired = group[a & f & (group["solve_cpu_s_frontier"] > SHORTEST_S)]
        ratio = paired["solve_cpu_s_auto"] / paired["solve_cpu_s_frontier"]
        geo = f"{np.exp(np.log(ratio).mean()):.3g}" if len(ratio) else "–"
        median = f"{ratio.median():.3g}" if len(ratio) else "–"
        print(f"| `{chose}` | {len(group)} | {int(a.sum())} | {int(f.sum())} | {int((a & ~f).sum())} "
              f"| {int((f & ~a).sum())} | {len(ratio)} | {geo} | {median} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
