"""One measured configuration against the published columns, sample by sample, over several FHCP databases.

Run from the repository root:
`python tests/benchmarks/bench_fhcp_published.py --config cegar --db A.sqlite --db B.sqlite
[--also C.sqlite ...] [--published results/fhcp/published-times.tsv] [--families CORPUS]`.
Not collected by pytest.
Each database is one sample of graphs (results/fhcp: `runs-60s.sqlite` fhcp-sample, `held-out-60s.sqlite`,
`rest-60s.sqlite`), read at its own newest code (`bench_fhcp_study.load`; the code versions are printed,
since they differ from file to file). For each, and for all together, it prints markdown: the graphs the
configuration ran, how many it solved within the published limit (verified solves, CPU time of the
encoding's own work), the published column that solves most of the same graphs and its count, and the
published virtual best of all its configurations (`VBS` columns left out, as `harness.published` reads
them), beside the harness's own virtual best: the graphs any configuration in any database given (`--db`
and `--also`, each at its newest code) solved within the limit. The published times are from another
machine: compare counts and ranks, not seconds. Each published column is read on the clock its file
declares (`harness.published`): the best single's name says its clock, and where the published columns
mix clocks (the fork's `cegar-fix` run is wall time, the paper's CPU) the output says so.
With `--families` (the folder of the graphs as published, `graphN.hcp.gz`) it prints the same table again
with the graphs grouped by their number of hubs (`hubs`) instead of by database: the FHCP set is built
in families, and the hub count tells several apart (the 30-hub family, say), so it shows where the
virtual best is lost.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_fhcp_study import load  # noqa: E402

from harness import published  # noqa: E402
from harness.analysis.plots import markdown  # noqa: E402


def measured(db: Path, every: pd.DataFrame, config: str) -> pd.DataFrame:
    """The configuration's runs in `every` (`db`'s, as `load` reads them), one per graph (its first), with
    its solve time `t` (NaN: none)."""
    runs = every[every["config"] == config]
    if runs.empty:
        sys.exit(f"{db}: no runs of {config!r} (there: {', '.join(sorted(every['config'].unique()))})")
    return runs.groupby("instance").first()


def row(name: str, runs: pd.DataFrame, table: published.Published, limit: float, anyone: set[str]) -> dict:
    """`anyone`: the graphs some configuration solved within the limit (the harness's virtual best)."""
    graphs = runs.index.intersection(table.times.index)
    within = table.times.loc[graphs] <= limit
    counts = within.sum()
    best = counts.idxmax()
    return {"graphs": name, "of them": len(graphs), "solved": int((runs.loc[graphs, "t"] <= limit).sum()),
            "best published single": int(counts.max()),
            "its name": f"`{best.split(':')[-1]}` ({table.columns[best].clock} time)",
            "harness virtual best": len(anyone.intersection(graphs)),
            "published virtual best": int(within.any(axis=1).sum()),
            "code": ", ".join(sorted(runs["fingerprint"].astype(str).str[:8].unique()))}


def clocks(table: published.Published) -> str:
    """Which clock the published columns are on, as the file declares them; a mix said so."""
    on = {clock: [c for c in table.configs if table.columns[c].clock == clock]
          for clock in sorted(table.clocks())}
    if len(on) == 1:
        return f"published columns: all on {next(iter(on)).upper()} time"
    few = min(on, key=lambda clock: len(on[clock]))
    return (f"MIXED CLOCKS in the published columns: {', '.join(on[few])} on {few.upper()} time, the rest "
            f"on {max(on, key=lambda clock: len(on[clock])).upper()} time (its virtual best mixes them)")


FAMILY_MIN = 5  # a hub count shared by fewer graphs goes into "other"


def hubs(path: Path) -> int:
    """How many hubs the graph has (`loop.split.hubs`, the rule `split=hubs` splits by)."""
    from harness.kinds.graph.formats import read_hcp
    from loopbench_encodings.loop.split import hubs as hubs_of

    with gzip.open(path, "rt") as text:
        return len(hubs_of(read_hcp(text.read(), str(path)).degrees()))


def families(runs: pd.DataFrame, corpus: Path) -> dict[str, pd.DataFrame]:
    """`runs` split by the graphs' hub counts, the rare ones together as "other"."""
    count = pd.Series({name: hubs(corpus / f"{name}.hcp.gz") for name in runs.index})
    sizes = count.value_counts()
    label = count.map(lambda h: f"{h} hubs" if sizes[h] >= FAMILY_MIN else "other")
    return {name: runs.loc[label.index[label == name]] for name in sorted(label.unique(), key=_family_order)}


def _family_order(name: str) -> tuple[int, int]:
    return (1, 0) if name == "other" else (0, int(name.split()[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True,
                        help="the measured configuration as the tables label it: `cegar`, `sat[cuts=loop]`")
    parser.add_argument("--db", type=Path, action="append", required=True,
                        help="a sample's database (repeatable)")
    parser.add_argument("--also", type=Path, action="append", default=[],
                        help="a database whose runs count for the harness's virtual best only (repeatable)")
    parser.add_argument("--published", type=Path, default=ROOT / "results" / "fhcp" / "published-times.tsv",
                        help="a published table with its columns declared (default: results/fhcp's copy)")
    parser.add_argument("--families", type=Path, metavar="CORPUS",
                        help="also by hub count: the folder of the published graphs (graphN.hcp.gz)")
    args = parser.parse_args()
    table = published.read(args.published)
    loaded = {db: load(db) for db in [*args.db, *args.also]}
    samples = {db.stem: measured(db, loaded[db], args.config) for db in args.db}
    limits = {float(r["time_limit_s"].max()) for r in samples.values()}
    if len(limits) != 1:
        sys.exit(f"the databases ran at different limits: {sorted(limits)}")
    limit = limits.pop()
    every = pd.concat(samples.values())
    if every.index.duplicated().any():
        sys.exit(f"a graph is in two databases: {', '.join(every.index[every.index.duplicated()][:5])}")
    everything = pd.concat(loaded.values())
    anyone = set(everything.loc[everything["t"] <= limit, "instance"])
    rows = [row(name, runs, table, limit, anyone) for name, runs in samples.items()]
    rows.append(row("all", every, table, limit, anyone))
    print(f"{args.config}, {limit:g} s CPU; published: {args.published.name}")
    print(clocks(table) + "\n")
    print(markdown(pd.DataFrame(rows).set_index("graphs")))
    if args.families:
        split = families(every, args.families)
        rows = [row(name, runs, table, limit, anyone) for name, runs in split.items()]
        from loopbench_encodings.loop.split import HUB_FACTOR, HUB_MIN

        print(f"\nBy hub count (a hub: degree at least {HUB_FACTOR} times the mean, and {HUB_MIN}):\n")
        print(markdown(pd.DataFrame(rows).set_index("graphs").drop(columns="code")))


if __name__ == "__main__":
    main()
