"""Regenerate every result plot and the summary table from the results database (`python -m harness.plot`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from harness.analysis import plots

DEFAULT_DB = Path("results/runs.sqlite")
DEFAULT_OUT = Path("results/plots")
FORMATS = ("png", "svg")
# Files this command owns in the output folder; older ones are removed so none outlives its data.
OWNED = ("*-cactus.*", "*-scatter-*.*", "*-scaling.*", "*-lazy-loop.*", "*-table.csv", "*-table.md")


def regenerate(runs: pd.DataFrame, out: str | Path, baseline: str | None = None,
               formats: tuple[str, ...] = FORMATS) -> list[Path]:
    """Write every figure (in each format) and the table for each puzzle kind in `runs`; returns the files."""
    import matplotlib.pyplot as plt

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for pattern in OWNED:
        for old in out.glob(pattern):
            old.unlink()
    written: list[Path] = []

    def save(fig, stem: str) -> None:
        try:
            for fmt in formats:
                path = out / f"{stem}.{fmt}"
                # No timestamp in the files, so regenerating from the same data changes no bytes.
                fig.savefig(path, dpi=150, metadata={"Date": None} if fmt == "svg" else None)
                written.append(path)
        finally:
            plt.close(fig)

    for kind, kind_runs in runs.groupby("puzzle", sort=True):
        kind_runs = kind_runs.reset_index(drop=True)
        save(plots.cactus(kind_runs), f"{kind}-cactus")
        for a, b in plots.pairs(kind_runs, baseline):
            save(plots.scatter(kind_runs, a, b), f"{kind}-scatter-{_slug(a)}-vs-{_slug(b)}")
        save(plots.scaling(kind_runs), f"{kind}-scaling")
        lazy = plots.lazy_loop(kind_runs)
        if lazy is not None:
            save(lazy, f"{kind}-lazy-loop")
        table = plots.table(kind_runs, baseline)
        table.to_csv(out / f"{kind}-table.csv")
        (out / f"{kind}-table.md").write_text(_table_markdown(kind_runs, table))
        written += [out / f"{kind}-table.csv", out / f"{kind}-table.md"]
    return written


def _table_markdown(runs: pd.DataFrame, table: pd.DataFrame) -> str:
    note = plots.stamp(runs).replace("\n", "; ")
    return (f"{plots.markdown(table)}\n"
            "solved = verified by the checker; PAR-2 and median in seconds; speed-up = geometric mean "
            "of baseline time / config time on the instances both solved (>1: faster than the baseline).\n\n"
            f"{note}\n")


def _slug(config: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in config).strip("_")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.plot", description=__doc__)
    p.add_argument("--db", default=str(DEFAULT_DB), help=f"results database (default: {DEFAULT_DB})")
    p.add_argument("--out", default=str(DEFAULT_OUT), help=f"output folder (default: {DEFAULT_OUT})")
    p.add_argument("--baseline", metavar="NAME",
                   help="config for the table's speed-up column (default: circuit when present)")
    args = p.parse_args(argv)

    try:
        runs = plots.load(args.db)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if runs.empty:
        print(f"error: {args.db} holds no runs; run a sweep first (python -m harness.run …)", file=sys.stderr)
        return 1
    try:
        written = regenerate(runs, args.out, args.baseline)
    except ValueError as exc:  # a --baseline that names no config
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{len(runs)} runs from {args.db}: wrote {len(written)} files to {args.out}")
    for path in written:
        print(f"  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
