"""Compare two configurations of a results database (`python -m harness.compare --db PATH A B`).

A config is an encoding (`sat`) or, where an encoding ran with different options, its label as
the plots write it (`sat[cuts=cutset]`). Prints the per-instance speed-up of A over B (geometric
mean, bootstrap interval), wins and losses, each one's PAR-2, and the instances only one solved;
from the newest sweep that ran both unless `--sweep` or `--across-sweeps`, in CPU time unless
`--clock wall`, and says which. With `--published FILE` (a published per-instance table,
`harness.published`) it prints the measured configurations (A and B, or all when none is named)
beside the published ones on the instances both have (`analysis.side_by_side`), labelled as
published numbers from another machine; nothing of the file enters the database.
"""

from __future__ import annotations

import argparse
import json
import sys

from harness import published
from harness.analysis import compare, machines, plots, side_by_side
from harness.analysis.plots.data import with_config
from harness.schema import DEFAULT_DB
from harness.storefile import StoreError


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.compare", description=__doc__.split("\n\n")[0])
    p.add_argument("a", metavar="A", nargs="?", help="the config measured (speed-up > 1: A is faster)")
    p.add_argument("b", metavar="B", nargs="?", help="the config it is measured against")
    p.add_argument("--published", metavar="FILE",
                   help="a published per-instance table (TSV: instance, then CPU seconds or TO per "
                        "configuration; docs/FORMATS.md) to show beside the measured configs")
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
    if args.b is None and not args.published:
        p.error("A and B are needed (or --published FILE)")

    try:
        runs = plots.load(args.db)
        result = None if args.b is None else compare.compare(
            runs, args.a, args.b, args.set_name, args.sweep, level=args.level, clock=args.clock,
            across=args.across_sweeps)
        beside = None if not args.published else side_by_side.measured_beside(
            runs, published.read(args.published), [c for c in (args.a, args.b) if c], args.set_name,
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
    note = machines.machine_note(compared[compared["config"].isin([args.a, args.b])])
    if note:  # two hosts or CPU models: said, never silently pooled (harness.analysis.machines)
        print(f"warning: {note}", file=sys.stderr)
    if args.json:
        out = {} if result is None else result.to_dict()
        if beside is not None:
            out["published"] = side_by_side.to_dict(beside)
        print(json.dumps(out, indent=1))
        return 0
    if result is not None:
        sys.stdout.write(compare.render(result))
    if beside is not None:
        sys.stdout.write(("\n" if result is not None else "") + side_by_side.render(beside))
    return 0


if __name__ == "__main__":
    sys.exit(main())
