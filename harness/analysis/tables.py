"""Figure tables made, not typed: the headline table of a sweep, and the marked blocks of a Markdown
file that `python -m harness.tables` regenerates from the committed databases.

A block is a pair of HTML comments around the table; the opening one holds the arguments that make it:

    <!-- table: --db results/reference/runs.sqlite --set masyu-janko-java --baseline circuit -->
    | config | seeds | ... |
    <!-- /table -->

The table (`headline`, or another `--kind`: `KINDS`) compares the configurations of ONE sweep at ONE
commit on ONE host: runs from several of them are refused (`mixed`), unless the block says
`--across-sweeps`, and then the table's stamp says what it mixes. The batches of one sweep (one
command resumed at the same commit on the same host, or on part of its instances: `batches`) are one
sweep.
With several seeds a configuration is one row with a spread: its solved count and PAR-2 are the
median over its seeds with the least and most beside them, and two configurations whose spreads
overlap in both share a rank (a tie: the seeds cannot tell them apart). The speed-up over the
baseline is the geometric mean over the instances both solved (seeds aggregated per instance first),
with a seeded bootstrap interval (`ranking.bootstrap_geomean`), so the same database always gives
the same table.
"""

from __future__ import annotations

import argparse
import importlib
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from harness.analysis import canary, machines, ranking
from harness.analysis.batches import batch_count, first_batch, with_batches
from harness.analysis.compare import restrict
from harness.analysis.configs import with_config
from harness.analysis.plots.data import per_instance, resolve_baseline, solved_times
from harness.analysis.summary import clock_note, par2, solved_mask, with_clock
from harness.analysis.sweeps import load, one_sweep, sweep_ids
from harness.outcomes import Status

BLOCK = re.compile(r"(?P<open><!-- table: (?P<args>.*?) -->\n)(?P<body>.*?)(?P<close><!-- /table -->)",
                   re.DOTALL)


def mixed(runs: pd.DataFrame) -> list[str]:
    """What the runs mix that one comparison must not: several sweeps, commits or hosts (empty: none)."""
    found = []
    for what, values, width in (("sweeps", sweep_ids(runs), None), ("commits", runs.get("commit"), 7),
                                ("hosts", runs.get("host"), None)):
        if values is None:
            continue
        distinct = sorted({str(v)[:width] for v in values.dropna()})
        if len(distinct) > 1:  # many are named by the first and the last
            named = distinct if len(distinct) <= 5 else [distinct[0], "…", distinct[-1]]
            found.append(f"{len(distinct)} {what} ({', '.join(named)})")
    return found


def _per_seed(runs: pd.DataFrame) -> pd.DataFrame:
    scored = runs.assign(_solved=solved_mask(runs).astype(int), _par2=par2(runs),
                         _wrong=(runs["status"] == Status.WRONG).astype(int),
                         _timeout=(runs["status"] == Status.TIMEOUT).astype(int))
    return scored.groupby(["config", "seed"]).agg(
        runs=("_solved", "size"), solved=("_solved", "sum"), wrong=("_wrong", "sum"),
        timeout=("_timeout", "sum"), par2_s=("_par2", "mean"))


def headline(runs: pd.DataFrame, baseline: str | None = None, level: float = 0.95) -> pd.DataFrame:
    """Per config, best first: rank (ties share one), seeds, runs per seed, solved / wrong / timeout and
    PAR-2 as median with min and max over seeds, the median and slowest solve time (seeds
    aggregated per instance), and the speed-up over
    `baseline` (default: `circuit` when present) with its bootstrap interval."""
    runs = with_config(runs)
    seeds = _per_seed(runs).groupby(level="config")
    out = pd.DataFrame({
        "seeds": seeds.size(), "runs": seeds["runs"].median(),
        "solved": seeds["solved"].median(), "solved_min": seeds["solved"].min(),
        "solved_max": seeds["solved"].max(), "wrong": seeds["wrong"].max(),
        "timeout": seeds["timeout"].median(), "par2_s": seeds["par2_s"].median(),
        "par2_min_s": seeds["par2_s"].min(), "par2_max_s": seeds["par2_s"].max(),
    })
    inst = per_instance(runs)
    out["median_s"] = inst.groupby("config")["time_s"].median()
    out["slowest_s"] = inst.groupby("config")["time_s"].max()
    out = out.sort_values(["wrong", "solved", "par2_s"], ascending=[True, False, True], kind="stable")
    out.insert(0, "rank", _tied_ranks(out))
    base = resolve_baseline(sorted(out.index), baseline)
    if base is not None:
        times = solved_times(inst)
        for config in out.index:
            estimate = ranking.bootstrap_geomean(ranking.paired(times, base, config)["ratio"], level=level)
            out.loc[config, ["speedup", "speedup_low", "speedup_high", "both_solved"]] = (
                estimate.geomean, estimate.low, estimate.high, estimate.n)
        out.attrs["baseline"] = base
    out.index.name = "config"
    return out


def _tied_ranks(table: pd.DataFrame) -> list[int]:
    """Competition ranks in the table's order, a row sharing the rank above it when it has no wrong
    answer more and its solved and PAR-2 spreads overlap that row's (the seeds do not separate them)."""
    ranks: list[int] = []
    rows = list(table.itertuples())
    for i, row in enumerate(rows):
        above = rows[i - 1] if i else None
        tie = (above is not None and (row.wrong > 0) == (above.wrong > 0)
               and row.solved_max >= above.solved_min and row.solved_min <= above.solved_max
               and row.par2_min_s <= above.par2_max_s and row.par2_max_s >= above.par2_min_s)
        ranks.append(ranks[-1] if tie else i + 1)
    return ranks


def _spread(median: float, low: float, high: float, digits: int) -> str:
    def num(x: float) -> str:
        return f"{x:.{digits}g}" if digits else f"{x:g}"

    return num(median) if low == high else f"{num(median)} ({num(low)}-{num(high)})"


def render(table: pd.DataFrame) -> str:
    """The headline table as GitHub Markdown: spreads as `median (min-max)` over seeds."""
    base = table.attrs.get("baseline")
    head = ["rank", "config", "seeds", "runs", "solved", "wrong", "timeout", "PAR-2 (s)", "median (s)",
            "slowest (s)"]
    if base:
        head.append(f"speed-up vs `{base}`")
    lines = ["| " + " | ".join(head) + " |", "|---:|---|" + "---:|" * (len(head) - 2)]
    for config, r in table.iterrows():
        cells = [str(int(r["rank"])), str(config), str(int(r["seeds"])), f"{r['runs']:g}",
                 _spread(r["solved"], r["solved_min"], r["solved_max"], 0), str(int(r["wrong"])),
                 f"{r['timeout']:g}", _spread(r["par2_s"], r["par2_min_s"], r["par2_max_s"], 3),
                 *("–" if np.isnan(r[c]) else f"{r[c]:.3g}" for c in ("median_s", "slowest_s"))]
        if base:
            cells.append("1" if config == base else "–" if not r["both_solved"] else
                         f"{r['speedup']:.3g} ({r['speedup_low']:.3g}-{r['speedup_high']:.3g})")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def stamp(runs: pd.DataFrame, across: bool, canary_note: str = "") -> str:
    """One line under the table: the sweep (and its batches), commit, host and its load (median wall /
    CPU time of a run's own work: about 1 on an idle machine), the machine canary's readings during it,
    seeds, limit and clock it comes from."""
    return where(runs, across, canary_note) + ("solved = verified by the checker; a rank shared by two rows "
                                               "is a tie within the seeds' spread.\n")


def where(runs: pd.DataFrame, across: bool, canary_note: str = "") -> str:
    """The stamp's opening: the sweep (in its batches), commit, host, load, the canary's phrase
    (`harness.analysis.canary`, when it read during the runs), the machines when the runs mix CPU
    models (`harness.analysis.machines`); seeds, limit, clock; then `; `."""
    limit = pd.to_numeric(runs["time_limit_s"], errors="coerce").max()
    seeds = sorted(int(s) for s in runs["seed"].dropna().unique())
    if across:
        said = "ACROSS: " + "; ".join(mixed(runs)) if mixed(runs) else "one sweep"
    else:
        n = batch_count(runs)
        said = (f"sweep `{sweep_ids(runs).iloc[0]}`{f' (one sweep in {n} batches)' if n > 1 else ''}, "
                f"commit {str(runs['commit'].iloc[0])[:7]}, host {runs['host'].iloc[0]}, "
                f"load {load(runs):.2f}")
    if canary_note:
        said += f", {canary_note}"
    if note := machines.machine_note(runs):  # two CPU models (sessions on two kinds of machine): said
        said += f"; MIXED MACHINES: {note}"
    return f"{said}; seeds {', '.join(map(str, seeds))}; {limit:g} s limit; {clock_note(runs)}; "


# Table kinds beside `headline` (`--kind NAME`): each a module with `add_arguments(parser)` and
# `make(runs, ns, root) -> str` (the block's Markdown from the runs `make` chose and checked). A kind
# that reads no database says `DATABASE = False` (csv: a file a benchmark wrote); its `make` gets
# `runs` None, and its blocks name no `--db`.
KINDS = {"headline": None, "cutoffs": "harness.analysis.cutoffs", "cost": "harness.analysis.cost",
         "csv": "harness.analysis.csvtable", "selector": "harness.select.table"}


def _kind(name: str):
    return importlib.import_module(KINDS[name])


def reads_database(kind: str) -> bool:
    """Whether a block of this kind is made from a database (`--db`): every kind but those that say not."""
    return KINDS[kind] is None or getattr(_kind(kind), "DATABASE", True)


def parser() -> argparse.ArgumentParser:
    """The arguments of a block (and of `python -m harness.tables --print`)."""
    p = argparse.ArgumentParser(prog="<!-- table: ... -->", add_help=False, exit_on_error=False)
    p.add_argument("--db", help="the database, relative to the root (every kind that reads one)")
    p.add_argument("--set", dest="set_name")
    p.add_argument("--sweep", action="append", default=[])
    p.add_argument("--configs", help="comma-separated config labels to show (default: all)")
    p.add_argument("--baseline")
    p.add_argument("--across-sweeps", action="store_true")
    p.add_argument("--level", type=float, default=0.95)
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    p.add_argument("--kind", choices=tuple(KINDS), default="headline")
    for name, module in KINDS.items():
        if module is not None:
            _kind(name).add_arguments(p)
    return p


def make(args: list[str], root: Path = Path(".")) -> str:
    """The Markdown a block with these arguments holds (table and stamp); paths relative to `root`.

    Raises ValueError for runs that mix sweeps, commits or hosts without `--across-sweeps`."""
    try:
        ns = parser().parse_args(args)
    except (argparse.ArgumentError, SystemExit) as exc:
        raise ValueError(f"bad table arguments {shlex.join(args)}: {exc}") from None
    if (ns.db is None) == reads_database(ns.kind):
        said = "needs --db" if ns.db is None else "reads no database (--db)"
        raise ValueError(f"bad table arguments {shlex.join(args)}: --kind {ns.kind} {said}")
    if ns.db is None:
        return _kind(ns.kind).make(None, ns, root)
    from harness.analysis import plots

    runs = with_config(with_clock(with_batches(plots.load(root / ns.db), root / ns.db), ns.clock))
    runs = restrict(runs, ns.set_name, [first_batch(runs, s) for s in ns.sweep])
    if ns.configs:
        # a label's own options are comma-separated inside brackets: `sat[cuts=cutset,join=merge]`
        wanted = [c.strip() for c in re.split(r",(?![^\[]*\])", ns.configs)]
        missing = sorted(set(wanted) - set(runs["config"]))
        if missing:
            raise ValueError(f"{ns.db}: no runs of {', '.join(missing)} (configs: "
                             f"{', '.join(sorted(set(runs['config'])))})")
        runs = runs[runs["config"].isin(wanted)]
    if not ns.sweep and not ns.across_sweeps:
        runs = one_sweep(runs, sorted(set(runs["config"])))
    if runs.empty:
        raise ValueError(f"{ns.db}: no runs to tabulate")
    if not ns.across_sweeps and mixed(runs):
        raise ValueError(f"{ns.db}: the table's runs mix {'; '.join(mixed(runs))}: one sweep at one commit "
                         "on one host is compared, or say --across-sweeps")
    ns.canary = canary.note(root / ns.db, runs)  # the stamp's word on the machine's speed (kinds read it too)
    if KINDS[ns.kind] is not None:
        return _kind(ns.kind).make(runs, ns, root)
    return render(headline(runs, ns.baseline, ns.level)) + "\n" + stamp(runs, ns.across_sweeps, ns.canary)


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the opening comment, from 1
    args: list[str]
    body: str


def blocks(path: Path) -> list[Block]:
    """The table blocks of a Markdown file, in order."""
    text = path.read_text(encoding="utf-8")
    return [Block(path, text.count("\n", 0, m.start()) + 1, shlex.split(m["args"]), m["body"])
            for m in BLOCK.finditer(text)]


def regenerate(path: Path, root: Path = Path(".")) -> str:
    """The file's text with every block's body made anew."""
    text = path.read_text(encoding="utf-8")

    def fill(m: re.Match) -> str:
        line = text.count("\n", 0, m.start()) + 1
        try:
            body = make(shlex.split(m["args"]), root)
        except (ValueError, FileNotFoundError, KeyError) as exc:
            raise ValueError(f"{path}:{line}: {exc.args[0] if exc.args else exc}") from None
        return m["open"] + body + m["close"]

    return BLOCK.sub(fill, text)
