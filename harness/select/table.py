"""The `selector` table kind: the selector beside each candidate and their virtual best, from the stored runs.

    <!-- table: --kind selector --across-sweeps --db results/fhcp/rest-60s.sqlite
         --also results/fhcp/held-out-60s.sqlite ... --features results/selector/features.csv
         --rule encodings/auto.json -->

Every database is named as its own argument (the staleness test copies each file a block names). The
block fails, naming the rule file, when that file is not what `python -m harness.select train` makes of
the same databases and features: the committed rule is kept up to date by the same check as the tables.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from harness.select import train as training
from harness.select.cells import LIMIT_S
from loopbench_encodings.loop import choose


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--also", action="append", default=[], help="(selector) another database of stored runs")
    p.add_argument("--features", help="(selector) the features CSV (harness.select features)")
    p.add_argument("--rule", help="(selector) the committed rule file (harness.select train)")


def _cell(low: float, high: float, digits: int = 0) -> str:
    said = (lambda x: f"{x:.{digits}f}") if digits else (lambda x: f"{x:g}")
    return said(low) if low == high else f"{said(low)}-{said(high)}"


def render(rows: list[training.Row]) -> str:
    keys = [k for k in rows[0].scores if k != "PAR-2"]
    head = ["graphs", "config", *(k.replace("<=", "≤") for k in keys), f"PAR-2 at {LIMIT_S:g} s (s)"]
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]
    for r in rows:
        cells = [r.graphs, r.config, *(_cell(*r.scores[k]) for k in keys),
                 _cell(*r.scores["PAR-2"], digits=1)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def legend(found: training.Data, rule: choose.Rule, choices: dict[str, pd.Series], databases: list[str]
           ) -> str:
    t = found.training
    def unknown_cells(mask: pd.Series, config: str) -> str:
        floor = found.floor.loc[mask & found.seconds[config].isna(), config]
        short = ", ".join(f"{int(n)} unsolved within {limit:g} s" for limit, n in
                          floor[floor > 0].value_counts().sort_index().items())
        return f"`{config}` {len(floor)}" + (f" (of which {short})" if short else "")

    unknown = "; ".join(f"{name}: " + ", ".join(unknown_cells(mask, c) for c in found.seconds.columns)
                        for name, mask in (("training graphs", t), (training.HELD_OUT, ~t)))
    borrowed = ", ".join(f"`{c}` {int(found.borrowed.loc[t, c].sum())} training, "
                         f"{int(found.borrowed.loc[~t, c].sum())} {training.HELD_OUT}"
                         for c in found.borrowed.columns if found.borrowed[c].any())
    sizes = found.families[t].value_counts()
    sent = "; ".join(f"{name}: " + ", ".join(f"`{c}` {int(n)}" for c, n in choice.value_counts().items())
                     for name, choice in (("cross-validated", choices["cv"]),
                                          (training.HELD_OUT, choices["held"])))
    return (
        f"Cells (graph x configuration) with no stored run at {LIMIT_S:g} s are unknown, but for a run "
        "at a shorter limit of a configuration whose search never reads it (`asp`): solved, its time; "
        "unsolved within L, unknown past L. A range is at least-at most (every unknown counted unsolved, "
        "then solved as soon as it could be); PAR-2 counts an unknown as unsolved. "
        f"Unknown cells: {unknown}.\n"
        f"Borrowed cells (a graph `split=hubs` leaves whole, where `cegar-split` is `cegar` step for step: "
        f"`cegar`'s stored run): {borrowed or 'none'}.\n"
        f"Families (min degree, max degree class, degree-2 share class, cubic): {len(sizes)} on the training "
        f"graphs, {sizes.max()} to {sizes.min()} graphs each; each held out in turn. Chosen: {sent}.\n"
        f"The committed rule (`{rule.trained.get('features', '')}` and the databases below, "
        f"`python -m harness.select train`): {rule}.\n\n"
        f"From the stored runs of {', '.join(f'`{d}`' for d in databases)} (several sweeps, commits and "
        f"hosts; {LIMIT_S:g} s limits, and the shorter ones said above); times: CPU time of the encoding's "
        "own work (solve_cpu_s); solved = verified by the checker within each cutoff.\n")


def make(runs: pd.DataFrame, ns: argparse.Namespace, root: Path) -> str:
    """The block: the table, the legend, the stamp; ValueError when the rule file is stale."""
    if not ns.features or not ns.rule:
        raise ValueError("a selector table needs --features and --rule")
    names = [ns.db, *ns.also]
    databases = [root / d for d in names]
    found = training.data(databases, root / ns.features)
    committed = choose.read(root / ns.rule)
    fresh = training.train(found, [Path(d) for d in names], Path(ns.features))
    if fresh.to_json() != committed.to_json():
        raise ValueError(f"{ns.rule} is not what training gives ({fresh}): "
                         "run `python -m harness.select train`")
    rows, choices = training.evaluation(found, committed)
    return render(rows) + "\n" + legend(found, committed, choices, names)
