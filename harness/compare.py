"""Compare two configurations of a results database (`python -m harness.compare --db PATH A B`).

A config is an encoding (`sat`) or, where an encoding ran with different options, its label as the
plots write it (`sat[cuts=cutset]`). Prints which is faster and by how much (`B is NNx faster than
A`: the geometric mean of per-instance time ratios, with a bootstrap interval), wins and losses,
each one's PAR-2, and the instances only one solved; from the newest sweep that ran both unless
`--sweep` or `--across-sweeps`, in CPU time unless `--clock wall`, and says which. Without B, the
configurations of the newest sweep (that ran A, if given) are compared: the two it ran, or A (else
the best ranked) against each of the others (`pairs`). With `--published FILE` (a published per-instance
table, `harness.published`) it prints the measured configurations (A and B, or all when
none is named) beside the published ones on the instances both have (`analysis.side_by_side`),
labelled as published numbers from another machine; nothing of the file enters the database.
"""

from __future__ import annotations

import argparse
import json
import sys

from harness import published
from harness.analysis import compare, machines, plots, side_by_side, sweeps
from harness.analysis.plots.data import resolve_baseline, with_config
from harness.analysis.summary import summarize, with_clock
from harness.schema import DEFAULT_DB
from harness.storefile import StoreError


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.compare", description=__doc__.split("\n\n")[0])
    p.add_argument("a", metavar="A", nargs="?",
                   help="a config (default: the newest sweep's configs, the best ranked against the others)")
    p.add_argument("b", metavar="B", nargs="?",
                   help="the config A is compared with (default: each other config of the newest sweep "
                        "that ran A)")
    p.add_argument("--published", metavar="FILE",
                   help="a published per-instance table (TSV: instance, then seconds or TO per config, "
                        "each column's clock, machine and program declared; docs/FORMATS.md) "
                        "to show beside the measured configs")
    p.add_argument("--published-columns", default="", metavar="GLOBS", help=published.COLUMNS_HELP)
    p.add_argument("--db", default=str(DEFAULT_DB), help=f"results database (default: {DEFAULT_DB})")
    p.add_argument("--set", dest="set_name", metavar="NAME",
                   help="only the instances of this bundled set (python -m harness.sets lists them)")
    p.add_argument("--sweep", action="append", default=[], metavar="ID",
                   help="only the runs of this sweep (its id or a unique prefix; repeatable)")
    p.add_argument("--across-sweeps", action="store_true",
                   help="compare the runs of every sweep (said so in the output, with each side's load); "
                        "default: the newest sweep that ran both configs")
    p.add_argument("--level", type=float, default=0.95, help="bootstrap interval level (default: 0.95)")
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                   help="compare CPU time of the encoding's own work (solve_cpu_s, the default) or wall time")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    args = p.parse_args(argv)

    try:
        runs = plots.load(args.db)
        chosen = [(args.a, args.b)] if args.b is not None else [] if args.published else pairs(
            runs, args.a, args.set_name, args.sweep, args.clock)
        results = [compare.compare(runs, a, b, args.set_name, args.sweep, level=args.level, clock=args.clock,
                                   across=args.across_sweeps) for a, b in chosen]
        beside = None if not args.published else side_by_side.measured_beside(
            runs, published.only(published.read(args.published), args.published_columns),
            [c for c in (args.a, args.b) if c], args.set_name,
            args.sweep, args.clock, args.across_sweeps)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except StoreError as exc:  # a damaged file, a newer schema (harness.storefile)
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (KeyError, ValueError) as exc:  # an unknown set, config or sweep; a bad published table
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return 2
    compared = compare.restrict(with_config(runs), args.set_name, args.sweep)
    shown = {c for pair in chosen for c in pair} or {args.a}
    note = machines.machine_note(compared[compared["config"].isin(shown)])
    if note:  # two hosts or CPU models: said, never silently pooled (harness.analysis.machines)
        print(f"warning: {note}", file=sys.stderr)
    if args.json:
        # one comparison: its fields, as always; several (no B named): a list of them under `comparisons`
        out = results[0].to_dict() if len(results) == 1 else \
            {"comparisons": [r.to_dict() for r in results]} if results else {}
        if beside is not None:
            out["published"] = side_by_side.to_dict(beside)
        print(json.dumps(out, indent=1))
        return 0
    sys.stdout.write("\n".join(compare.render(r) for r in results))
    if beside is not None:
        sys.stdout.write(("\n" if results else "") + side_by_side.render(beside))
    return 0


def pairs(runs, a: str | None, set_name: str | None, sweep: list[str], clock: str) -> list[tuple[str, str]]:
    """The comparisons asked for without B: the newest sweep's configurations (of those that ran A,
    when A is named), A (else the best ranked, `summary.summarize`) against each of the others.

    Raises ValueError when no sweep holds two configurations."""
    labelled = compare.restrict(with_config(with_clock(runs, clock)), set_name, sweep)
    configs = sorted(labelled["config"].unique())
    if a is not None:
        a = resolve_baseline(configs, a, "config A")
    newest = sweeps.newest_sweep(labelled, [a] if a is not None else [])
    mine = labelled[sweeps.sweep_ids(labelled) == newest] if newest is not None else labelled
    ranked = [c for c in summarize(mine, by="config").index if c != a]
    if not ranked or (a is None and len(ranked) < 2):
        ran = f"sweep {newest}" if newest is not None else "the database"
        raise ValueError(f"{ran} ran only {', '.join(ranked) or a or 'nothing'}: name the configurations "
                         f"to compare (A B){'' if len(configs) < 2 else ', of: ' + ', '.join(configs)}")
    first = a if a is not None else ranked.pop(0)
    return [(first, other) for other in ranked]


if __name__ == "__main__":
    sys.exit(main())
