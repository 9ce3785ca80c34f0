"""The long budget's 60 graphs by family: what its sweeps have run and solved, beside the published columns.

    python results/fhcp/long_families.py            # the table results/fhcp/README.md shows
    python results/fhcp/long_families.py --members FAMILY   # its graphs, one a line (long-great-hubs.graphs)

A family here is a band of the graphs' degrees (the published table's `min_deg`, `max_deg`): no hub
(maximum degree 5 or less), hubs of degree 10-14, of 42-347, and great hubs of degree 500 or more, with
(min degree 2) or without vertices of degree 2; a graph in no band stops the script. Per family: its
graphs, their vertex counts, how many each long sweep (SWEEPS: a configuration and its database) has
run and solved within 1,800 s (verified by the checker) and how many either solved (chosen after the
fact), and how many the published columns solve within their 1,800 s: the virtual best of the 21
`soh_*` columns (CPU), the best single column of the cardinality CaDiCaL (`soh_ccadical:*`, the authors'
`cegar-ffi`) and of the Sinz counters (`soh_sinz:*`, their `cegar-fix` on plain CaDiCaL with sequential
counters, the encoding `sat` uses), the paper's `asp`, and the fork's run (`wizardap_fork_*`: wall time,
and a solver with heuristics of its own).
"""

from __future__ import annotations

import sqlite3
import sys
from contextlib import closing

import pandas as pd

from harness import published
from harness.analysis.plots.data import markdown

PUBLISHED = "results/fhcp/published-times.tsv"
GRAPHS = "results/fhcp/long.graphs"
SWEEPS = (("cegar-split-prepass", "results/fhcp/long-1800s.sqlite"),  # (configuration, its database)
          ("cegar-split-glucose", "results/fhcp/long-glucose-1800s.sqlite"))
FAMILIES = (  # (name, test on a row of the published table)
    ("max degree <= 5", lambda r: r.max_deg <= 5),
    ("hubs of degree 10-14", lambda r: 10 <= r.max_deg <= 14),
    ("hubs of degree 42-347", lambda r: 42 <= r.max_deg <= 347),
    ("great hubs (>= 500), min degree 2", lambda r: r.max_deg >= 500 and r.min_deg == 2),
    ("great hubs (>= 500), min degree 3", lambda r: r.max_deg >= 500 and r.min_deg >= 3),
)


def members(family: str, degrees: pd.DataFrame | None = None) -> list[str]:
    """The graphs of GRAPHS in the family named `family` (FAMILIES), in GRAPHS' order; `degrees`: the
    published table's attributes, read from PUBLISHED when not given."""
    tests = dict(FAMILIES)
    if family not in tests:
        raise SystemExit(f"long_families.py: no family {family!r}; the families: {', '.join(tests)}")
    degrees = published.read(PUBLISHED).attributes if degrees is None else degrees
    return [g for g in read_graphs() if tests[family](degrees.loc[g])]


def read_graphs() -> list[str]:
    """The graph names of GRAPHS, one a line."""
    return [line.strip() for line in open(GRAPHS) if line.strip()]


def verified(db: str, limit: float) -> pd.Series:
    """Per graph run in `db`: whether it was solved, verified by the checker, within `limit` CPU seconds."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
        runs = pd.read_sql("select instance, status, verified, solve_cpu_s from runs", con)
    runs = runs.set_index("instance")
    return runs.status.eq("solved") & runs.verified.eq(1) & runs.solve_cpu_s.le(limit)


def families(sweeps: tuple[tuple[str, str], ...] = SWEEPS) -> pd.DataFrame:
    """One row per family (FAMILIES) of the graphs of GRAPHS: the columns the module docstring names."""
    graphs = read_graphs()
    table = published.read(PUBLISHED)  # its times: NaN where `TO`; its own VBS columns apart
    limit = table.limit_s
    solved = table.times.loc[graphs].le(limit)
    degrees = table.attributes.loc[graphs]
    ours = {name: verified(db, limit) for name, db in sweeps}
    either = pd.concat(ours.values()).groupby(level=0).any()
    columns = solved.columns.tolist()
    soh, cc, sinz, fork = (published.matching(glob, columns, "family column", PUBLISHED)
                           for glob in ("soh_*", "soh_ccadical:*", "soh_sinz:*", "wizardap_fork_*"))
    rows = []
    for name, _ in FAMILIES:
        inside = members(name, degrees)
        part = solved.loc[inside]
        row = {"family": name, "graphs": len(inside),
               "vertices": f"{degrees.n[inside].min():,.0f}-{degrees.n[inside].max():,.0f}"}
        for config, found in ours.items():
            row[f"run: {config}"] = int(found.index.isin(inside).sum())
            row[f"solved: {config}"] = int(found.reindex(inside, fill_value=False).sum())
        rows.append({
            **row, "solved by either": int(either.reindex(inside, fill_value=False).sum()),
            "published VB (soh_*)": int(part[soh].any(axis=1).sum()),
            "best soh_ccadical": int(part[cc].sum().max()),
            "best soh_sinz": int(part[sinz].sum().max()),
            "soh_existing:asp": int(part["soh_existing:asp"].sum()),
            "fork (wall)": int(part[fork].any(axis=1).sum()),
        })
    found = pd.DataFrame(rows)
    if found.graphs.sum() != len(graphs):
        raise SystemExit(f"{GRAPHS}: {len(graphs) - found.graphs.sum()} graphs in no family")
    return found


if __name__ == "__main__":
    if sys.argv[1:2] == ["--members"]:
        print("\n".join(members(sys.argv[2])))
        sys.exit()
    frame = families()
    print(markdown(frame.set_index("family")), end="")
