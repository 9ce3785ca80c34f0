"""The graph study's targets, printed from its database: who solves what, how fast, and why not.

Run from the repository root after the study's sweep (results/graph/README.md has the command):
`python tests/benchmarks/bench_graph.py [--db results/graph/runs.sqlite] [--markdown]`. Not
collected by pytest. Reads one sweep (the newest that ran every configuration) and prints, per
configuration, on CPU time of the encoding's own work (`solve_cpu_s`):
- Hamiltonian graphs (known by construction or theorem): verified solves, the slowest up to 2,000
  vertices, the solve time of each graph of 4,900 vertices or more, and the geometric mean of
  circuit's time / the configuration's time over the graphs both solved (the issue's targets:
  every graph up to 2,000 vertices within 10 s, a 5,000-vertex one within 60 s, >= 5x circuit);
- non-Hamiltonian graphs: per family, the largest proved unsat within the limit (with its time),
  and whether a larger one of the family was not;
- wrong answers (must be 0), and the median rounds, cuts and conflicts per family, which say where
  a strategy stops scaling.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pandas as pd

from harness.analysis.ranking import paired_speedup
from harness.extra import extra_column

BASELINE = "circuit"
FLOOR_S = 0.001  # times below 1 ms count as 1 ms in ratios
SETS = ("graph-hard", "graph-tsplib")


def known() -> pd.DataFrame:
    """Each bundled study graph's family, vertex count and known answer, by instance name."""
    from harness import sets
    from harness.bundles import read_bundle

    out = []
    for name in SETS:
        spec = sets.spec_of(name)
        for row in read_bundle(sets.INSTANCES_DIR / spec.data):
            answer = {"hamiltonian": "sat", "non-hamiltonian": "unsat"}.get(row.get("known", ""), "")
            out.append({"instance": row["name"], "family": row.get("family") or name.split("-")[1],
                        "vertices": int(row["rows"]), "known": answer})
    return pd.DataFrame(out).set_index("instance")


def load(db: Path) -> pd.DataFrame:
    from harness.analysis import results, sweeps
    from harness.analysis.plots.data import with_config

    runs = sweeps.one_sweep(with_config(results.latest(results.load(db))))
    runs = runs.join(known(), on="instance", how="inner")
    runs["time"] = pd.to_numeric(runs["solve_cpu_s"], errors="coerce").fillna(runs["solve_s"])
    runs["time"] = runs["time"].clip(lower=FLOOR_S)  # a ratio of two immeasurably short times means nothing
    runs["rounds"] = pd.to_numeric(runs["iterations"], errors="coerce")
    runs["nodes"] = extra_column(runs, "nodes")
    runs["solved"] = (runs["status"] == "solved") & (runs["verified"] == 1)
    runs["proved"] = (runs["status"] == "unsat") & (runs["unsat_verdict"] != "refuted")
    return runs


def hamiltonian_table(runs: pd.DataFrame) -> pd.DataFrame:
    ham = runs[runs["known"] == "sat"]
    base = ham[ham["config"] == BASELINE].set_index("instance")
    rows = {}
    for config, mine in ham.groupby("config"):
        solved = mine[mine["solved"]]
        small = mine[mine["vertices"] <= 2000]
        big = mine[mine["vertices"] >= 4900].sort_values("vertices")
        theirs = base[base["solved"]][["time"]].rename(columns={"time": "time_base"})
        both = solved[["instance", "time"]].merge(theirs, left_on="instance", right_index=True)
        rows[config] = {
            "solved": f"{len(solved)}/{len(mine)}",
            "<=2000 solved": f"{int(small['solved'].sum())}/{len(small)}",
            "<=2000 slowest s": small["time"].max() if small["solved"].all() else math.inf,
            ">=4900 s": ", ".join(f"{r.instance.split('-')[1]} {r.time:.2f}" if r.solved else
                                  f"{r.instance.split('-')[1]} {r.status}" for r in big.itertuples()),
            f"x {BASELINE}": paired_speedup(both["time_base"], both["time"]),
            "both solved": len(both),
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def nonhamiltonian_table(runs: pd.DataFrame) -> pd.DataFrame:
    non = runs[runs["known"] == "unsat"]
    rows: dict[str, dict[str, str]] = {}
    for (config, family), mine in non.groupby(["config", "family"]):
        proved = mine[mine["proved"]]
        if proved.empty:
            rows.setdefault(config, {})[family] = f"none of {len(mine)}"
            continue
        top = proved.sort_values("vertices").iloc[-1]
        beyond = mine[(mine["vertices"] > top["vertices"]) & ~mine["proved"]]
        note = f" ({len(beyond)} larger not)" if len(beyond) else ""
        rows.setdefault(config, {})[family] = f"{top['vertices']} in {top['time']:.2f} s{note}"
    return pd.DataFrame.from_dict(rows, orient="index").fillna("")


def effort_table(runs: pd.DataFrame, measure: str) -> pd.DataFrame:
    """The median of `measure` (rounds, cuts, conflicts) per configuration and family, over all runs
    that recorded it (answered or not: a run stopped at the limit says how far it got)."""
    values = runs.assign(value=pd.to_numeric(runs[measure], errors="coerce"))
    return values.groupby(["config", "family"])["value"].median().unstack("family").round(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path("results/graph/runs.sqlite"))
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    args = parser.parse_args()
    from harness.analysis.plots import markdown

    runs = load(args.db)
    show = markdown if args.markdown else (lambda t: t.to_string())
    wrong = runs[runs["status"] == "wrong"]
    print(f"{args.db}: {len(runs)} runs, {runs['config'].nunique()} configurations, "
          f"{runs['instance'].nunique()} graphs, sweep {runs['sweep_id'].iloc[0]}; wrong: {len(wrong)}")
    for row in wrong.itertuples():
        print(f"  WRONG {row.config} on {row.instance}: {row.detail}")
    print("\nHamiltonian graphs (CPU s of the encoding's own work)")
    print(show(hamiltonian_table(runs)))
    print("\nNon-Hamiltonian graphs: the largest proved unsat per family (vertices, CPU s)")
    print(show(nonhamiltonian_table(runs)))
    for measure in ("rounds", "cuts", "conflicts"):
        print(f"\nMedian {measure} per family")
        print(show(effort_table(runs, measure)))


if __name__ == "__main__":
    main()
