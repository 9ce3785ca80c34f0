"""Regenerate every result plot and the summary table from the results database (`python -m harness.plot`).

One figure set per puzzle kind and instance set (the sweep's `--instances`): configurations are
compared only on the puzzles they ran, never one cactus or virtual best over different sets.
Only the newest code's runs are drawn (per encoding and options) unless `--all-fingerprints`,
and of those only the newest sweep that ran every configuration of the set (`analysis.sweeps`)
unless `--across-sweeps`; a figure whose runs come from several sweeps says so under its axes,
with each configuration's load. Times are CPU time of the encoding's own work unless `--clock wall`.
With `--published FILE` (a published per-instance table, `harness.published`), each set whose
instances have rows in it also gets the measured configurations beside the published ones
(`SET-published-cactus`, `SET-published-scatter-…`, `SET-published-table.md`), labelled as
published numbers from another machine.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from harness.analysis import plots, results, side_by_side, sweeps
from harness.analysis.plots.figures import save_figure
from harness.analysis.summary import with_clock
from harness.published import COLUMNS_HELP, Published, PublishedError, only, read
from harness.schema import DEFAULT_DB
from harness.storefile import StoreError

DEFAULT_OUT = Path("results/plots")
FORMATS = ("png", "svg")
# Files this command owns in the output folder; older ones are removed so none outlives its data.
OWNED = ("*-cactus.*", "*-scatter-*.*", "*-scaling.*", "*-lazy-loop.*", "*-table.csv", "*-table.md",
         "*-published-*.*")


def regenerate(runs: pd.DataFrame, out: str | Path, baseline: str | None = None,
               formats: tuple[str, ...] = FORMATS, across: bool = False,
               published: Published | None = None, published_configs: tuple[str, ...] = ()) -> list[Path]:
    """Write every figure (in each format) and the table for each kind and instance set; returns the files.

    Files are named `SET-cactus.png` etc., SET prefixed with the kind unless it starts with it
    (`masyu-default-…`, `masyu-small-…` for a folder `small`). Each set's runs are those of its
    newest sweep that ran all its configurations (`sweeps.one_sweep`) unless `across`. With
    `published`, a set with instances in it gets the side by side too (`_published`), scattered
    against the published virtual best, the same program, and `published_configs`.
    """
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
                save_figure(fig, path, dpi=150)  # regenerating from the same data changes no bytes
                written.append(path)
        finally:
            plt.close(fig)

    for (kind, group), part in chosen(runs, across):
        name = stem(kind, group)
        save(plots.cactus(part), f"{name}-cactus")
        for a, b in plots.pairs(part, baseline):
            save(plots.scatter(part, a, b), f"{name}-scatter-{_slug(a)}-vs-{_slug(b)}")
        save(plots.scaling(part), f"{name}-scaling")
        lazy = plots.lazy_loop(part)
        if lazy is not None:
            save(lazy, f"{name}-lazy-loop")
        table = plots.table(part, baseline)
        table.to_csv(out / f"{name}-table.csv")
        (out / f"{name}-table.md").write_text(_table_markdown(part, table))
        written += [out / f"{name}-table.csv", out / f"{name}-table.md"]
        if published is not None:
            written += _published(part, published, published_configs, out, name, save)
    return written


def _published(runs: pd.DataFrame, published: Published, configs: tuple[str, ...], out: Path, name: str,
               save) -> list[Path]:
    """The side-by-side figures and table of one set, or nothing when no instance of it has a row."""
    from harness.analysis.plots import published as figures

    try:
        beside = side_by_side.side_by_side(runs, published)
    except ValueError:
        return []
    unknown = [c for c in configs if c not in beside.published.columns]
    if unknown:
        raise ValueError(f"--published-config {unknown[0]!r} is not a column of {published.path}")
    save(figures.cactus(beside, runs), f"{name}-published-cactus")
    for mine, theirs in figures.pairs(beside, list(configs)):
        save(figures.scatter(beside, runs, mine, theirs),
             f"{name}-published-scatter-{_slug(mine)}-vs-{_slug(theirs)}")
    beside.table.to_csv(out / f"{name}-published-table.csv")
    (out / f"{name}-published-table.md").write_text(side_by_side.render(beside) + "\n" + plots.stamp(runs)
                                                    .replace("\n", "; ") + "\n")
    return [out / f"{name}-published-table.csv", out / f"{name}-published-table.md"]


def chosen(runs: pd.DataFrame, across: bool = False) -> list[tuple[tuple[str, str], pd.DataFrame]]:
    """The runs drawn per kind and instance set: one sweep's each (`sweeps.one_sweep`) unless `across`."""
    parts = plots.by_instance_set(runs)
    if across:
        return parts
    return [(key, sweeps.one_sweep(part).reset_index(drop=True)) for key, part in parts]


def stem(kind: str, group: str) -> str:
    """The file-name start of one kind and instance set's figures."""
    return _slug(group if group.startswith(kind) else f"{kind}-{group}")


def _table_markdown(runs: pd.DataFrame, table: pd.DataFrame) -> str:
    note = plots.stamp(runs).replace("\n", "; ")
    return (f"{plots.markdown(table)}\n"
            "solved = verified by the checker; PAR-2 and median in seconds of the clock named below; "
            "speed-up = geometric mean "
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
    p.add_argument("--set", metavar="NAME", help="draw only this instance set (as the file names show it)")
    p.add_argument("--sweep", metavar="ID",
                   help="draw only the runs of this sweep (the id harness.run prints)")
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                   help="draw CPU time of the encoding's own work (solve_cpu_s, the default) or wall time")
    p.add_argument("--across-sweeps", action="store_true",
                   help="draw the runs of every sweep together (marked on each figure), not only the newest "
                        "sweep that ran every configuration of a set")
    p.add_argument("--all-fingerprints", action="store_true",
                   help="draw the runs of every code version, not only the newest per encoding and options")
    p.add_argument("--published", metavar="FILE",
                   help="a published per-instance table (TSV: instance, then seconds or TO per config, "
                        "each column's clock, machine and program declared; docs/FORMATS.md) "
                        "drawn beside the measured configs")
    p.add_argument("--published-config", action="append", default=[], metavar="NAME",
                   help="also scatter every measured config against this published column (repeatable)")
    p.add_argument("--published-columns", default="", metavar="GLOBS", help=COLUMNS_HELP)
    args = p.parse_args(argv)
    try:
        table = only(read(args.published), args.published_columns) if args.published else None
    except (PublishedError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    try:
        every = plots.load(args.db, all_fingerprints=True)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except StoreError as exc:  # a damaged file, a newer schema (harness.storefile)
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if every.empty:
        print(f"error: {args.db} holds no runs; run a sweep first (python -m harness.run …)", file=sys.stderr)
        return 1
    if args.sweep:  # one sweep is one version of the code: all of its runs
        runs = every[every["sweep_id"] == args.sweep]
        if runs.empty:
            print(f"error: no runs of sweep {args.sweep!r} in {args.db}", file=sys.stderr)
            return 2
    else:
        runs = every if args.all_fingerprints else results.latest(every)
    if args.set:
        groups = sorted({group for (_, group), _ in plots.by_instance_set(runs)})
        runs = runs[plots.instance_group(runs) == args.set]
        if runs.empty:
            print(f"error: no instance set {args.set!r}; there are: {', '.join(groups)}", file=sys.stderr)
            return 2
    runs = with_clock(runs, args.clock)
    try:
        written = regenerate(runs, args.out, args.baseline, across=args.across_sweeps, published=table,
                             published_configs=tuple(args.published_config))
    except ValueError as exc:  # a --baseline or --published-config that names no config
        print(f"error: {exc}", file=sys.stderr)
        return 2
    older = len(every) - len(runs) if not (args.sweep or args.set or args.all_fingerprints) else 0
    note = f" ({older} runs of older code left out; --all-fingerprints draws them)" if older else ""
    print(f"{len(runs)} runs from {args.db}{note}: wrote {len(written)} files to {args.out}")
    whole = dict(plots.by_instance_set(runs))
    for (kind, group), part in chosen(runs, args.across_sweeps):
        configs = plots.with_config(part)["config"].nunique()
        other = len(whole[(kind, group)]) - len(part)
        left = f" ({other} runs of other sweeps left out; --across-sweeps draws them)" if other else ""
        print(f"  {stem(kind, group)}: {len(part)} runs of {configs} configs{left}; "
              f"{sweeps.sweep_note(part)}")
    for path in written:
        print(f"  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
