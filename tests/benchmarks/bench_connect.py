"""`connect` beside the other loop strategies, printed from sweep databases: per graph and in total.

Run from the repository root after the sweeps in results/graph/README.md ("connect: the
connectivity propagator"): `python tests/benchmarks/bench_connect.py DB [DB ...] [--published TSV]
[--limit S]`. Not collected by pytest. Prints, for every instance and configuration (encoding and
options), the status and CPU seconds of the encoding's own work (`solve_cpu_s`), then per
configuration the runs solved or proved unsat, wrong answers (must be 0), and the median of
`connect`'s search counts; with `--published` (FHCP's published-times.tsv), the published
configurations' solves within the same limit on the same graphs beside them.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

import pandas as pd

from harness.analysis.plots.data import markdown
from harness.extra import extra_column

PUBLISHED = ("soh_ccadical:proposed-cegar-ffi-cadical", "soh_ccadical:VBS", "soh_sinz:VBS",
             "soh_existing:asp", "soh_existing:crt-420", "soh_existing:adder")


def runs(paths: list[str]) -> pd.DataFrame:
    frames = []
    for path in paths:
        with sqlite3.connect(path) as db:
            frames.append(pd.read_sql("select instance, encoding, options, status, verified, solve_cpu_s, "
                                      "conflicts, extra from runs", db))
    out = pd.concat(frames, ignore_index=True)
    defaults = {}
    for enc, opts in zip(out.encoding, out.options, strict=True):
        defaults.setdefault(enc, json.loads(opts))

    def label(row) -> str:  # options that differ from the first run of that encoding seen
        opts = json.loads(row.options)
        diff = {k: v for k, v in opts.items() if defaults[row.encoding].get(k) != v}
        return row.encoding + "".join(f":{k}={v}" for k, v in sorted(diff.items()))

    out["config"] = out.apply(label, axis=1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", nargs="+")
    parser.add_argument("--published", help="FHCP published-times.tsv")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds, for the published columns")
    args = parser.parse_args()
    data = runs(args.db)
    done = data.status.isin(["solved", "unsat"])
    data["cell"] = [f"{s} {t:.2f}" if ok else s
                    for s, t, ok in zip(data.status, data.solve_cpu_s, done, strict=True)]
    table = data.pivot_table(index="instance", columns="config", values="cell", aggfunc="first")
    print(markdown(table.reset_index()))
    print()
    wrong = (data.status == "solved") & (data.verified != 1)
    summary = data.assign(done=done, wrong=wrong).groupby("config").agg(
        runs=("done", "size"), solved_or_unsat=("done", "sum"), wrong=("wrong", "sum"))
    searches = extra_column(data, "connect_searches")
    summary["median connect_searches"] = searches.groupby(data.config).median()
    print(markdown(summary.reset_index()))
    if args.published:
        pub = pd.read_csv(Path(args.published), sep="\t").set_index("graph")
        names = sorted(set(data.instance) & set(pub.index))
        print(f"\npublished, on the same {len(names)} graphs, solved within {args.limit:g} s:")
        for column in PUBLISHED:
            times = pd.to_numeric(pub.loc[names, column], errors="coerce")
            print(f"- {column}: {(times <= args.limit).sum()}")


if __name__ == "__main__":
    main()
