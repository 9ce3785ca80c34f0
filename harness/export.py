"""A results database for other people's tools: its times as a published table, its cycles as TSPLIB tours.

`python -m harness.export table --db DB --out FILE.tsv` writes the runs of one sweep (the newest, or
`--sweep ID`, or every sweep with `--across-sweeps`) in the format `--published` reads (docs/FORMATS.md,
"Published results"): a column per configuration, declared `clock=cpu; machine=HOST (CPU model);
program=loopbench:CONFIG`, so that loopbench on another machine shows it beside its own runs with the
machine factor of the same program, and any tool that reads the SAT 2025 CEGAR's table reads it. A cell
is the median over the seeds of the CPU seconds of the encoding's own work (`solve_cpu_s`) of answers
the checker verified, an unsolved run counting as infinite (the mean of the middle two for an even
count); `TO` where that median is unsolved (`MO` where every run was out of memory). Comment lines name
the runs in a `TO` cell that did not reach a limit (wrong, crash, error, unknown, and `unsat`: a graph
with no cycle), since the format has no word for them; the file is read back by
`harness.published.read` before it is kept.

`python -m harness.export tours --db DB --out DIR [--config CONFIG]` writes `DIR/INSTANCE.tour` for every
graph with a verified answer (the configuration's, else the least CPU of any), in TSPLIB's tour format
(as `harness.solve --tour`), and `DIR/MANIFEST.tsv` naming the run each came from: the cycles
themselves, for a checker of one's own.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from harness import published
from harness.analysis import canary, compare, machines, plots, sweeps
from harness.analysis.plots.data import resolve_baseline, with_config
from harness.analysis.summary import solved_mask
from harness.kinds.graph.formats import tour_text
from harness.outcomes import Status
from harness.schema import DEFAULT_DB
from harness.storefile import StoreError

LISTED = 10  # instances named per configuration and status in a comment line
GLOB = {"[": "[[]", "]": "[]]", "*": "[*]", "?": "[?]", ",": "?"}  # a label as a `# columns` pattern


def chosen_runs(db: Path, set_name: str | None, sweep: list[str], across: bool) -> pd.DataFrame:
    """The runs to export, labelled: of the sweeps named, else of all (`across`), else of the newest."""
    runs = compare.restrict(with_config(plots.load(db)), set_name, sweep)
    if not sweep and not across and not runs.empty:
        runs = runs[sweeps.sweep_ids(runs) == sweeps.newest_sweep(runs, [])]
    if runs.empty:
        raise ValueError(f"{db} holds no runs to export" + (f" of set {set_name}" if set_name else ""))
    return runs


def cell(group: pd.DataFrame) -> str:
    """One configuration's cell on one instance: the median of its seeds' verified CPU seconds, or TO / MO."""
    seconds = np.where(solved_mask(group), group["solve_cpu_s"].astype(float), np.inf)
    median = float(np.median(seconds))
    if np.isfinite(median):
        return f"{median:.6g}"
    return "MO" if (group["status"] == Status.MEMOUT).all() else "TO"


def column_line(label: str, machine: str) -> str:
    pattern = "".join(GLOB.get(c, c) for c in label)
    return f"# columns {pattern}: clock=cpu; machine={machine}; program={published.OURS}{label}"


def machine_of(runs: pd.DataFrame, db: Path) -> str:
    """`HOST (CPU MODEL)`, with the canary's reading where the database has one; the hosts if several."""
    hosts = ", ".join(sorted(set(runs["host"].dropna().astype(str)))) or "unrecorded host"
    models = ", ".join(sorted({m for m in machines.cpu_models(runs) if m})) or "CPU model unrecorded"
    said = canary.note(db, runs)
    return f"{hosts} ({models}{', ' + said if said else ''})".replace(";", ",")


def table(runs: pd.DataFrame, db: Path) -> str:
    """The runs as a published table's text (the module doc says what a cell is)."""
    limits = sorted(set(runs["time_limit_s"].dropna()))
    if len(limits) != 1:
        raise ValueError(f"the runs have {len(limits)} time limits ({', '.join(f'{x:g}' for x in limits)}): "
                         "export one sweep, or name sweeps that share one (--sweep)")
    labels = sorted(runs["config"].unique())
    machine = machine_of(runs, db)
    seeds = " ".join(str(int(s)) for s in sorted(runs["seed"].dropna().unique()))
    said = ", ".join(f"{s} (commit {str(c)[:7]})" for s, c in
                     runs.groupby(sweeps.sweep_ids(runs))["commit"].first().items())
    lines = [f"# loopbench runs of {db.name}, `python -m harness.export table` (docs/FORMATS.md, Published "
             "results): the median over the seeds of the CPU seconds of the encoding's own work "
             "(solve_cpu_s) of answers the checker verified, any other run counting as infinite; TO where "
             "that is infinite (MO: every run out of memory); the lines below name the runs in a TO cell "
             "that did not reach a limit (the format has no word for them)",
             f"# sweeps: {said}; seeds: {seeds}", f"# limit_s: {limits[0]:g}",
             *(column_line(label, machine) for label in labels)]
    for label in labels:
        mine = runs[runs["config"] == label]
        for status in (Status.WRONG, Status.CRASH, Status.ERROR, Status.UNSAT, Status.UNKNOWN):
            names = sorted(set(mine.loc[mine["status"] == status, "instance"]))
            if names:
                shown = ", ".join(names[:LISTED]) + (", ..." if len(names) > LISTED else "")
                lines.append(f"# TO in its cells, {label}: {len(names)} {status} ({shown})")
    graphs = (runs["puzzle"] == "graph").all()
    header = ["instance", *(["n", "m"] if graphs else []), *labels]
    lines.append("\t".join(header))
    for instance, mine in runs.groupby("instance", sort=True):
        size = [str(int(mine["rows"].iloc[0])), str(int(mine["cols"].iloc[0]))] if graphs else []
        cells = [cell(mine[mine["config"] == label]) if (mine["config"] == label).any() else ""
                 for label in labels]
        lines.append("\t".join([str(instance), *size, *cells]))
    return "\n".join(lines) + "\n"


def write_table(text: str, out: Path, labels: list[str]) -> None:
    """Keep the table at `out` once `harness.published.read` reads it back, each column its own program."""
    with tempfile.TemporaryDirectory() as folder:
        trial = Path(folder) / out.name
        trial.write_text(text)
        back = published.read(trial)
        wrong = [c for c in labels if back.columns[c].program != published.OURS + c]
        if wrong:
            raise ValueError(f"configuration {wrong[0]!r} cannot be a published column (its name holds "
                             "`: ` or `;`); export it from a database of its own")
    out.write_text(text)


def tours(runs: pd.DataFrame, out: Path, config: str | None) -> int:
    """Write each graph's verified cycle (of `config`, else the fastest) and the manifest; how many."""
    found = runs[solved_mask(runs) & (runs["puzzle"] == "graph")]
    if config is not None:
        wanted = resolve_baseline(sorted(runs["config"].unique()), config, "--config")
        found = found[found["config"] == wanted]
    if found.empty:
        raise ValueError("no graph has a verified answer among these runs"
                         + (f" of {config}" if config else ""))
    fastest = found.sort_values(["solve_cpu_s", "run_key"]).groupby("instance", sort=True).head(1)
    out.mkdir(parents=True, exist_ok=True)
    manifest = ["instance\tconfig\tseed\tsolve_cpu_s\tcommit\tsweep_id\trun_key"]
    for row in fastest.sort_values("instance").itertuples():
        (out / f"{row.instance}.tour").write_text(tour_text(row.solution, str(row.instance)))
        manifest.append(f"{row.instance}\t{row.config}\t{row.seed}\t{row.solve_cpu_s:.6g}\t{row.commit}\t"
                        f"{row.sweep_id}\t{row.run_key}")
    (out / "MANIFEST.tsv").write_text("\n".join(manifest) + "\n")
    return len(fastest)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.export", description=__doc__.split("\n\n")[0])
    what = p.add_subparsers(dest="what", required=True)
    for name, helped in (("table", "the times as a published table (--published reads it)"),
                         ("tours", "each graph's verified cycle as a TSPLIB tour, with a manifest")):
        q = what.add_parser(name, help=helped)
        q.add_argument("--db", type=Path, default=DEFAULT_DB,
                       help=f"results database (default: {DEFAULT_DB})")
        q.add_argument("--out", type=Path, required=True,
                       help="the table file" if name == "table" else "the folder of tours")
        q.add_argument("--set", dest="set_name", metavar="NAME", help="only the instances of a bundled set")
        q.add_argument("--sweep", action="append", default=[], metavar="ID",
                       help="only this sweep (repeatable)")
        q.add_argument("--across-sweeps", action="store_true", help="every sweep, not only the newest")
        if name == "tours":
            q.add_argument("--config", help="this configuration's answers only (default: the fastest of any)")
    args = p.parse_args(argv)
    try:
        runs = chosen_runs(args.db, args.set_name, args.sweep, args.across_sweeps)
        if args.what == "table":
            write_table(table(runs, args.db), args.out, sorted(runs["config"].unique()))
            print(f"wrote {runs['instance'].nunique()} instances x {runs['config'].nunique()} configurations "
                  f"to {args.out}", file=sys.stderr)
        else:
            count = tours(runs, args.out, args.config)
            print(f"wrote {count} tours and MANIFEST.tsv to {args.out}", file=sys.stderr)
    except (StoreError, published.PublishedError, ValueError, KeyError) as exc:
        print(f"error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # no database there, a folder that cannot be written
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
