"""What any stored configuration solved within 60 s that the selector's candidates miss: a third one's place.

    python results/selector/beyond.py [--candidates cegar-split,asp]

Reads the selector's cells (`harness.select.cells`: each candidate's median over its stored runs) and
every committed FHCP database (results/fhcp/*.sqlite, results/selector/*.sqlite); prints, per other
configuration (`harness.analysis.configs` labels), the graphs it solved with a verified answer within
60 s CPU in any one run (a seed or a sweep; not a median, so an upper bound on what it adds) where
the candidates' virtual best solves none, and those graphs' features. No solver runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from harness.analysis.configs import with_config  # noqa: E402
from harness.analysis.results import load  # noqa: E402
from harness.analysis.summary import solve_time, solved_mask  # noqa: E402
from harness.select import cells, featurefile  # noqa: E402

FEATURES = ["vertices", "edges", "mean_degree", "share_degree2", "hubs10", "hub_degree_max", "split_parts"]


def solved_runs(paths: list[Path]) -> pd.DataFrame:
    """Every stored graph run solved (verified) within LIMIT_S: graph, config, seconds, database."""
    frames = []
    for path in paths:
        found = with_config(load(path))
        found = found[(found["puzzle"] == "graph") & solved_mask(found)]
        seconds = solve_time(found)
        kept = seconds <= cells.LIMIT_S
        frames.append(pd.DataFrame({"graph": found["instance"].astype(str), "config": found["config"],
                                    "seconds": seconds, "db": path.name})[kept])
    return pd.concat(frames, ignore_index=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--candidates", default=",".join(cells.CANDIDATES),
                   help="the configurations whose virtual best is the baseline (default: auto's)")
    ns = p.parse_args(argv)
    candidates = tuple(ns.candidates.split(","))
    graphs = featurefile.read(ROOT / "results/selector/features.csv")
    seconds, _, _ = cells.cells([ROOT / d for d in cells.DATABASES], graphs, candidates)
    covered = (seconds <= cells.LIMIT_S).any(axis=1)
    print(f"virtual best of {', '.join(candidates)} within {cells.LIMIT_S:g} s: {int(covered.sum())} "
          f"of {len(graphs)} graphs (cells: medians over stored runs)")
    paths = [p for part in ("fhcp", "selector") for p in sorted((ROOT / "results" / part).glob("*.sqlite"))]
    runs = solved_runs(paths)
    beyond = runs[runs["graph"].isin(graphs.index[~covered])]
    print(f"graphs the baseline misses that some stored run solved: {beyond['graph'].nunique()}")
    for config, mine in sorted(beyond.groupby("config"), key=lambda kv: -kv[1]["graph"].nunique()):
        names = sorted(set(mine["graph"]), key=lambda g: int(g.removeprefix("graph")))
        print(f"  {len(names):3d}  {config}  ({', '.join(sorted(set(mine['db'])))}): {' '.join(names)}")
    print(graphs.loc[sorted(set(beyond["graph"]), key=lambda g: int(g.removeprefix("graph"))), FEATURES]
          .to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
