"""One measured configuration against the published columns, sample by sample, over several FHCP databases.

Run from the repository root:
`python tests/benchmarks/bench_fhcp_published.py --config 'sat[arcs=true,...]' --db A.sqlite --db B.sqlite
[--published ../shared/corpus/fhcp/published-times.tsv]`. Not collected by pytest.
Each database is one sample of graphs (results/fhcp: `runs-60s.sqlite` fhcp-sample, `held-out-60s.sqlite`,
`rest-60s.sqlite`), read at its own newest code (`bench_fhcp_study.load`; the code versions are printed,
since they differ from file to file). For each, and for all together, it prints markdown: the graphs the
configuration ran, how many it solved within the published limit (verified solves, CPU time of the
encoding's own work), the published column that solves most of the same graphs and its count, and the
published virtual best of all its configurations (`VBS` columns left out, as `harness.published` reads
them). The published times are from another machine: compare counts and ranks, not seconds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_fhcp_study import load  # noqa: E402

from harness import published  # noqa: E402
from harness.analysis.plots import markdown  # noqa: E402


def measured(db: Path, config: str) -> pd.DataFrame:
    """The configuration's runs in `db`, one per graph (its first), with its solve time `t` (NaN: none)."""
    every = load(db)
    runs = every[every["config"] == config]
    if runs.empty:
        sys.exit(f"{db}: no runs of {config!r} (there: {', '.join(sorted(every['config'].unique()))})")
    return runs.groupby("instance").first()


def row(name: str, runs: pd.DataFrame, table: published.Published, limit: float) -> dict:
    graphs = runs.index.intersection(table.times.index)
    within = table.times.loc[graphs] <= limit
    counts = within.sum()
    best = counts.idxmax()
    return {"graphs": name, "of them": len(graphs), "solved": int((runs.loc[graphs, "t"] <= limit).sum()),
            "best published single": int(counts.max()), "its name": f"`{best.split(':')[-1]}`",
            "published virtual best": int(within.any(axis=1).sum()),
            "code": ", ".join(sorted(runs["fingerprint"].astype(str).str[:8].unique()))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True,
                        help="the measured configuration as bench_fhcp_study labels it: `sat[arcs=true,...]`")
    parser.add_argument("--db", type=Path, action="append", required=True,
                        help="a sample's database (repeatable)")
    parser.add_argument("--published", type=Path, default=ROOT.parent / "shared" / "corpus" / "fhcp" /
                        "published-times.tsv")
    args = parser.parse_args()
    table = published.read(args.published)
    samples = {db.stem: measured(db, args.config) for db in args.db}
    limits = {float(r["time_limit_s"].max()) for r in samples.values()}
    if len(limits) != 1:
        sys.exit(f"the databases ran at different limits: {sorted(limits)}")
    limit = limits.pop()
    every = pd.concat(samples.values())
    if every.index.duplicated().any():
        sys.exit(f"a graph is in two databases: {', '.join(every.index[every.index.duplicated()][:5])}")
    rows = [row(name, runs, table, limit) for name, runs in samples.items()]
    rows.append(row("all", every, table, limit))
    print(f"{args.config}, {limit:g} s CPU; published: {args.published.name}\n")
    print(markdown(pd.DataFrame(rows).set_index("graphs")))


if __name__ == "__main__":
    main()
