"""The FHCP study's tables from its database: solved within 1 s and the limit, PAR-2, virtual best, failures.

Run from the repository root on one of the study's databases (results/fhcp/*.sqlite; see HISTORY.md):
`python tests/benchmarks/bench_fhcp_study.py [--db results/fhcp/runs.sqlite] [--encoding A,B]`.
Not collected by pytest. Reads the newest code's runs (`analysis.results.latest`, every sweep of the file: an
interrupted sweep resumed is one study) on the graphs every strategy ran, and prints markdown, on
CPU time of the encoding's own work (`solve_cpu_s`, verified solves only):
- per configuration (labelled as every table labels it, `analysis.configs.with_config`: a preset's
  name, `cegar`, or the encoding and the options that tell its runs apart, `sat[cuts=cutset]`): runs,
  solved within 1 s and within the limit, wrong, PAR-2, median solve time;
  the virtual best of all strategies as one more row;
- the graphs no strategy solved, with their size;
- where each strategy fails, from the runs that did not solve: status counts, and the medians of
  rounds (`iterations`), cuts, conflicts, peak memory and build time (CPU, as the
  encodings time it since the phases are CPU time; wall in older rows; asp's grounding is its build);
- solved per size band (vertices), which says where each strategy stops.
"""

from __future__ import annotations

import argparse
import json
import sys
from itertools import pairwise
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness.analysis import ranking, results, summary  # noqa: E402
from harness.analysis.configs import spells, with_config  # noqa: E402
from harness.analysis.plots import markdown  # noqa: E402
from harness.extra import extra_column  # noqa: E402


def load(db: Path) -> pd.DataFrame:
    runs = results.latest(results.load(db))
    runs = runs[runs["status"] != "error"]
    return with_config(runs).assign(t=summary.solve_time(runs).where(summary.solved_mask(runs)),
                                    par2=summary.par2(runs))


def solved_table(runs: pd.DataFrame, limit: float) -> pd.DataFrame:
    wide = runs.groupby(["instance", "config"])["t"].min().unstack()
    best = pd.DataFrame({"t": ranking.virtual_best(wide), "rows": runs.groupby("instance")["rows"].first()})
    best["par2"] = best["t"].fillna(2 * limit)
    rows = {}
    for name, group in [*runs.groupby("config"), ("virtual best", best.reset_index())]:
        wrong = int((group.get("status", pd.Series(dtype=str)) == "wrong").sum())
        rows[name] = {"graphs": len(group), "solved <= 1 s": int((group["t"] <= 1).sum()),
                      f"solved <= {limit:g} s": int(group["t"].notna().sum()), "wrong": wrong,
                      "PAR-2 s": round(group["par2"].mean(), 2),
                      "median solved s": round(group["t"].median(), 3)}
    return pd.DataFrame(rows).T


def failure_table(runs: pd.DataFrame) -> pd.DataFrame:
    failed = runs[runs["t"].isna()]
    rows = {}
    cpu = extra_column(failed, "build_clock") == "cpu"  # rows made before the phases were CPU time: wall
    build = f"median build {'CPU' if cpu.all() else 'wall' if not cpu.any() else 'CPU or wall'} s"
    for name, group in failed.groupby("config"):
        counts = group["status"].value_counts()
        rows[name] = {"not solved": len(group), "statuses": ", ".join(f"{s} {n}" for s, n in counts.items()),
                      "median vertices": int(group["rows"].median()),
                      "median rounds": group["iterations"].median(), "median cuts": group["cuts"].median(),
                      "median conflicts": group["conflicts"].median(),
                      build: round(group["build_s"].median(), 2),
                      "max peak MB": round(group["peak_rss_mb"].max())}
    return pd.DataFrame(rows).T


BANDS = (0, 1000, 2000, 3000, 4000, 6000, 10000)


def size_table(runs: pd.DataFrame) -> pd.DataFrame:
    band = pd.cut(runs["rows"], BANDS, right=False, labels=[f"{a}-{b - 1}" for a, b in pairwise(BANDS)])
    runs = runs.assign(band=band, solved=runs["t"].notna())
    table = runs.pivot_table(index="config", columns="band", values="solved", aggfunc="sum", observed=False)
    graphs = runs.groupby("band", observed=False)["instance"].nunique()
    table.loc["graphs"] = graphs
    return table.astype(int)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "results" / "fhcp" / "runs.sqlite")
    parser.add_argument("--encoding", help="only these configurations, comma-separated, as harness.run "
                        "spells them (`sat:join=merge`; `sat` is sat at its defaults) or labelled in the "
                        "tables (`cegar`, `sat[join=merge]`); default: every one")
    args = parser.parse_args()
    runs = load(args.db)
    if args.encoding:
        wanted = args.encoding.split(",")
        given = [json.loads(o or "{}") for o in runs["options"]]
        runs = runs[[any(w == c or spells(e, o, w) for w in wanted)
                     for e, o, c in zip(runs["encoding"], given, runs["config"], strict=True)]]
    limit = float(runs["time_limit_s"].max())
    # only graphs every strategy ran, so that each row counts the same graphs (a sweep cut short)
    ran = runs.groupby("instance")["config"].nunique()
    complete = ran[ran == runs["config"].nunique()].index
    left = runs["instance"].nunique() - len(complete)
    runs = runs[runs["instance"].isin(complete)]
    note = f"; {left} graphs not run by every strategy left out" if left else ""
    print(f"{len(complete)} graphs, {len(runs)} runs, time limit {limit:g} s CPU; "
          f"{summary.clock_note(runs)}{note}\n")
    print(markdown(solved_table(runs, limit)))
    solved_by_any = set(runs.loc[runs["t"].notna(), "instance"])
    nothing = runs[~runs["instance"].isin(solved_by_any)].groupby("instance")[["rows", "cols"]].first()
    nothing = nothing.sort_values("rows")
    print(f"\nsolved by no strategy ({len(nothing)}): "
          + ", ".join(f"{name} ({r.rows}/{r.cols})" for name, r in nothing.iterrows()))
    print("\nsolved per size band (vertices):\n")
    print(markdown(size_table(runs)))
    print("\nwhere each strategy fails (its runs without a verified solve):\n")
    print(markdown(failure_table(runs)))


if __name__ == "__main__":
    main()
