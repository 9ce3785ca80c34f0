"""`degree=auto`'s rule on stored runs, and the draw of the graphs it was tested on (results/fhcp/README.md).

    python results/fhcp/degree_rule.py stored   # what the rule would have solved, where both were run
    python results/fhcp/degree_rule.py sample   # the 40 graphs of share2-free.sqlite, drawn again

`stored`: on each committed database with runs of one configuration of `sat` with and without
`degree=free` (seed 0), the graphs solved within 1, 10 and 60 s by the kept clauses, by `degree=free`
and by the rule (`degree=free` where `loop.features.share_degree2` is at most AUTO_FREE_UP_TO_SHARE2).
`sample`: the training graphs (outside fhcp-sample) outside held-out-60s.sqlite and the graphs the
family's and the screening's sweeps ran, at most a tenth of degree 2, not answered within 1 s by
`cegar-split-frontier`'s stored run; 40 of them by `random.Random(47).sample` of their sorted names.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from contextlib import closing

import numpy as np
import pandas as pd

from loopbench_encodings.sat import AUTO_FREE_UP_TO_SHARE2

FEATURES = "results/selector/features.csv"
STORED = ("results/fhcp/runs-60s.sqlite", "results/fhcp/held-out-60s.sqlite")
SEEN = tuple(f"results/fhcp/{name}.sqlite" for name in ("family459", "degree-low", "degree-variants"))


def _runs(db: str, where: str = "") -> pd.DataFrame:
    with closing(sqlite3.connect(db)) as con:
        return pd.read_sql(f"select instance, options, seed, status, solve_cpu_s from runs {where}", con)


def stored() -> None:
    share = pd.read_csv(FEATURES).set_index("graph")["share_degree2"]
    for db in STORED:
        runs = _runs(db, "where encoding = 'sat' and seed = 0")
        options = runs["options"].map(json.loads)
        runs["degree"] = options.map(lambda o: o.get("degree", "all"))
        runs["rest"] = options.map(lambda o: json.dumps({k: v for k, v in o.items() if k != "degree"},
                                                        sort_keys=True))
        runs["seconds"] = np.where(runs["status"] == "solved", runs["solve_cpu_s"], np.inf)
        for _, same in runs.groupby("rest"):
            if {"all", "free"} <= set(same["degree"]):
                seconds = same.pivot_table(index="instance", columns="degree", values="seconds",
                                           aggfunc="first")[["all", "free"]].dropna()
                rule = seconds["free"].where(share.reindex(seconds.index) <= AUTO_FREE_UP_TO_SHARE2,
                                             seconds["all"])
                sides = (("kept", seconds["all"]), ("free", seconds["free"]), ("rule", rule))
                counts = {name: [int((col <= c).sum()) for c in (1, 10, 60)] for name, col in sides}
                print(f"{db}: {len(seconds)} graphs, solved within 1 / 10 / 60 s: {counts}")


def sample() -> None:
    share = pd.read_csv(FEATURES).set_index("graph")["share_degree2"]
    training = set(open("results/selector/training.graphs").read().split())
    seen = set(_runs("results/fhcp/held-out-60s.sqlite")["instance"])
    for db in SEEN:
        seen |= set(_runs(db)["instance"].str.replace("hcp/", "", regex=False))
    frontier = _runs("results/selector/frontier-60s.sqlite").set_index("instance")
    slow = frontier.index[(frontier["status"] != "solved") | (frontier["solve_cpu_s"] > 1)]
    names = sorted(g for g in training - seen if share[g] <= AUTO_FREE_UP_TO_SHARE2 and g in slow)
    print(f"{len(names)} graphs; drawn:", " ".join(sorted(random.Random(47).sample(names, 40),
                                                          key=lambda g: int(g[5:]))))


if __name__ == "__main__":
    {"stored": stored, "sample": sample}[sys.argv[1] if len(sys.argv) > 1 else "stored"]()
