"""Compare two configurations of a results database (`python -m harness.compare --db PATH A B`).

A config is an encoding (`sat`) or, where an encoding ran with different options, its label as
the plots write it (`sat[cuts=cutset]`). Prints the per-instance speed-up of A over B (geometric
mean, bootstrap interval), wins and losses, each one's PAR-2, and the instances only one solved;
from the newest sweep that ran both unless `--sweep` or `--across-sweeps`, in CPU time unless
`--clock wall`, and says which.
"""

from __future__ import annotations

import argparse
import json
import sys

from harness.analysis import compare, machines, plots
from harness.analysis.plots.data import with_config

DEFAULT_DB = "results/runs.sqlite"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.compare", description=__doc__.split("\n\n")[0])
    p.add_argument("a", metavar="A", help="the config measured (speed-up > 1: A is faster)")
    p.add_argument("b", metavar="B", help="the config it is measured against")
    p.add_argument("--db", default=DEFAULT_DB, help=f"results database (default: {DEFAULT_DB})")
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
        result = compare.compare(runs, args.a, args.b, args.set_name, args.sweep, level=args.level,
                                 clock=args.clock, across=args.across_sweeps)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except (KeyError, ValueError) as exc:  # an unknown set, config or sweep
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return 2
    compared = compare.restrict(with_config(runs), args.set_name, args.sweep)
    note = machines.machine_note(compared[compared["config"].isin([args.a, args.b])])
    if note:  # two hosts or CPU models: said, never silently pooled (harness.analysis.machines)
        print(f"warning: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        sys.stdout.write(compare.render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
