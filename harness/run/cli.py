"""The sweep command line: `python -m harness.run --encoding lazy,sat --instances masyu-default`.

Re-running the same command skips the runs already in the database. Bad arguments (an unknown
encoding or option, an --instances spec that names nothing) exit 2 with one line on stderr;
a malformed instance is not a bad argument: it becomes a row with status `error`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from harness import kinds, registry, sets
from harness import options as option_rules
from harness.analysis import results, sweep_summary
from harness.encoding import parse_options
from harness.presets import PRESETS
from harness.run import canary, fits, limits, slurm, sweep
from harness.run.executors import ClusterError
from harness.schema import DEFAULT_DB
from harness.storefile import StoreError

DEFAULT_INSTANCES = "masyu-default"


class ArgumentError(Exception):
    """A bad command line, reported as one line."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m harness.run", description=__doc__.splitlines()[0])
    p.add_argument("--encoding", action="append", metavar="NAME[,NAME...]",
                   help=f"encodings or presets to run (encodings: {', '.join(registry.names())}; presets: "
                        f"{', '.join(PRESETS)}); NAME:KEY=VALUE[:KEY=VALUE] runs that encoding or preset "
                        "with these options on top, beside the others (sat,sat:cuts=cutset)")
    p.add_argument("--describe", metavar="ENCODING|PRESET",
                   help="print the options of an encoding or preset, with their help and defaults, and exit")
    p.add_argument("--instances", nargs="+", action="extend", metavar="SPEC",
                   help=f"bundled sets' names, files, directories or globs (several allowed, and "
                        f"repeatable; default {DEFAULT_INSTANCES})")
    p.add_argument("--kind", choices=kinds.names(),
                   help="read instance files without a kind line as this kind (default: masyu)")
    p.add_argument("--db", type=Path, default=DEFAULT_DB,
                   help="results database (default %(default)s)")
    p.add_argument("--time-limit", type=float, default=60.0, metavar="SECONDS",
                   help="CPU-time limit per run (default %(default)g)")
    p.add_argument("--wall-limit", type=float, metavar="SECONDS",
                   help="wall-time cap per run (default 1.5 x time limit + 5)")
    p.add_argument("--memory-limit", type=int, default=4096, metavar="MB",
                   help="memory (RSS) limit per run (default %(default)d)")
    p.add_argument("--check-time-limit", type=float, metavar="SECONDS",
                   help="CPU-time limit of a run's proof check, its own (default: --time-limit)")
    p.add_argument("--check-memory-limit", type=int, metavar="MB",
                   help="memory limit of a run's proof check, its own (default: --memory-limit)")
    p.add_argument("--seed", type=fits.whole, nargs="+", action="extend", metavar="N",
                   help="seeds to run (several allowed; default 0)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option given to every encoding of the sweep (repeatable); "
                        "ENCODING.KEY=VALUE gives it to that encoding only")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="runs at once (default %(default)d)")
    p.add_argument("--cores-per-run", type=int, default=1, metavar="K",
                   help="local executor: cores each job's worker is pinned to (default %(default)d; 2 for "
                        "`portfolio`, whose two members then run on one core each)")
    p.add_argument("--no-pin", dest="pin", action="store_false",
                   help="local executor: leave the jobs unpinned (default: each on a core of its own, "
                        "for single-threaded solvers; harness.run.cores)")
    p.add_argument("--executor", choices=("local", "dask", "slurm"), default="local",
                   help="where runs happen: worker processes here, a Dask cluster, or Dask workers in Slurm "
                        "jobs (the --slurm-* options; docs/CLUSTER.md)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="a running Dask scheduler (default: a LocalCluster)")
    p.add_argument("--order-seed", type=fits.whole, default=0, metavar="N",
                   help="seed of the shuffled run order (default %(default)d)")
    p.add_argument("--canary-every", type=float, default=canary.default_every(), metavar="SECONDS",
                   help="read the machine canary (harness.run.canary) when a batch starts, every SECONDS "
                        "while it runs and when it ends; 0: never "
                        f"(default %(default)g, or ${canary.EVERY_ENV})")
    p.add_argument("--rerun", action="store_true",
                   help="run again what the database already holds for this code (new rows; the old stay)")
    p.add_argument("--unique", action="store_true",
                   help="ask each solved run again with its solution excluded, within the same time limit, "
                        "and record the answer in the `unique` column (encodings that can exclude solutions)")
    p.add_argument("--proof", action="store_true",
                   help="encodings that can (option proof: sat) log a proof for each unsat answer and each "
                        "uniqueness answer, checked by harness.proof: in `extra`, `proof` (certified or "
                        "why not), its size and proof_check_cpu_s (`unique_` ones for the second solve)")
    slurm.add_arguments(p)
    return p


def build(args: argparse.Namespace, argv: list[str] | None) -> sweep.Sweep:
    """The Sweep the arguments describe; raises ArgumentError for anything the user must fix."""
    names = [n.strip() for value in args.encoding for n in value.split(",") if n.strip()]
    try:
        options = parse_options(args.option)
    except ValueError as exc:
        raise ArgumentError(str(exc)) from None
    if args.proof:
        provers = [n for n in names if _logs_proofs(n)]
        if not provers:
            raise ArgumentError("--proof: no encoding of this sweep logs proofs (sat does)")
        options.update({f"{registry.entry(n).encoding}.proof": "true" for n in provers})
    if args.scheduler and args.executor != "dask":
        raise ArgumentError("--scheduler needs --executor dask")
    check_limits(args)
    if args.jobs <= 0:
        raise ArgumentError(f"--jobs must be positive, not {args.jobs}")
    if args.cores_per_run <= 0:
        raise ArgumentError(f"--cores-per-run must be positive, not {args.cores_per_run}")
    if args.cores_per_run != 1 and args.executor != "local":
        raise ArgumentError("--cores-per-run needs the local executor")
    if args.executor != "slurm" and slurm.given(args):
        raise ArgumentError(f"{slurm.given(args)[0]} needs --executor slurm")
    try:
        cluster = slurm.settings(args) if args.executor == "slurm" else None
    except (ValueError, OSError, subprocess.SubprocessError) as exc:
        raise ArgumentError(str(exc)) from None
    specs = args.instances or [DEFAULT_INSTANCES]
    found = []
    for spec in specs:
        try:
            found.extend(sets.resolve(spec, args.kind))
        except FileNotFoundError as exc:
            raise ArgumentError(str(exc)) from None
    plan = sweep.Sweep(
        instances=found, encodings=list(dict.fromkeys(names)), options=options,
        seeds=list(dict.fromkeys(args.seed or [0])), time_s=args.time_limit, memory_mb=args.memory_limit,
        wall_cap_s=args.wall_limit, db=args.db, executor=args.executor, jobs=args.jobs,
        scheduler=args.scheduler, slurm=cluster, order_seed=args.order_seed, instance_specs=specs,
        unique=args.unique, argv=list(sys.argv[1:] if argv is None else argv), rerun=args.rerun,
        pin=args.pin, cores_per_run=args.cores_per_run, check_time_s=args.check_time_limit,
        check_memory_mb=args.check_memory_limit,
        canary_every=args.canary_every,
    )
    try:
        plan.resolved_options()
    except ValueError as exc:
        raise ArgumentError(str(exc)) from None
    return plan


def check_limits(args: argparse.Namespace) -> None:
    """ArgumentError for a limit that is no number a run can be held to (`limits.refused`); a warning on
    stderr for a wall cap below a CPU limit."""
    for flag, value, most in (("--time-limit", args.time_limit, limits.MAX_SECONDS),
                              ("--wall-limit", args.wall_limit, limits.MAX_SECONDS),
                              ("--check-time-limit", args.check_time_limit, limits.MAX_SECONDS),
                              ("--memory-limit", args.memory_limit, limits.MAX_MEMORY_MB),
                              ("--check-memory-limit", args.check_memory_limit, limits.MAX_MEMORY_MB)):
        if why := limits.refused(flag, value, most):
            raise ArgumentError(why)
    for warning in limits.warnings(args.time_limit, args.wall_limit, args.check_time_limit):
        print(f"harness.run: warning: {warning}", file=sys.stderr)


def _logs_proofs(name: str) -> bool:
    """Whether the configuration `name` takes proof=true (sat does; propagator has no `proof`)."""
    try:
        found = registry.entry(name)
        return "proof" in option_rules.declarations(registry.encodings()[found.encoding])
    except ValueError:
        return False


def describe(name: str) -> str:
    """`--describe`: an encoding's or preset's options from their declarations (`options.describe`)."""
    found = registry.entry(name)
    cls = registry.encodings()[found.encoding]
    head = [f"{found.encoding}: {', '.join(cls.puzzles) if cls.puzzles is not None else 'every kind'}"]
    if found.preset:
        preset = PRESETS[found.preset]
        given = ":".join(f"{k}={v}" for k, v in preset.options.items())
        head = [f"preset {found.preset}: {preset.help}", f"  = {found.encoding}:{given}", *head]
    return "\n".join([*head, *option_rules.describe(cls)])


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.describe:
        try:
            print(describe(args.describe))
        except ValueError as exc:
            print(f"harness.run: error: {exc}", file=sys.stderr)
            return 2
        return 0
    if not args.encoding:
        print("harness.run: error: --encoding is required (or --describe)", file=sys.stderr)
        return 2
    try:
        plan = build(args, argv)
    except ArgumentError as exc:
        print(f"harness.run: error: {exc}", file=sys.stderr)
        return 2
    try:
        report = sweep.run(plan)
    except KeyboardInterrupt:
        print("harness.run: interrupted; finished runs are stored, the same command resumes", file=sys.stderr)
        return 130
    except ClusterError as exc:
        print(f"harness.run: error: {exc}; finished runs are stored, the same command resumes",
              file=sys.stderr)
        return 2
    except StoreError as exc:  # what is wrong with the database, and what to do (harness.storefile)
        print(f"harness.run: error: {exc}", file=sys.stderr)
        return 2
    results.write_snapshot(plan.db)
    shown = sweep_summary.of(plan.db, report.keys)
    skipped = (f" ({report.unsupported} instance x encoding pairs skipped: the encoding does not serve the "
               "puzzle kind)") if report.unsupported else ""
    if report.repeated:
        skipped += (f" ({len(report.repeated)} instances repeat another's puzzle and run as that one: "
                    "listed above)")
    print(f"sweep {report.sweep_id}: {report.planned} runs planned{skipped}, "
          f"{report.skipped} already stored, {report.recorded} recorded, {report.failed} failed in the "
          f"harness; database {plan.db}")
    for note in report.notes:
        print(f"note: {note}")
    print(shown.summary.to_string(float_format=lambda x: f"{x:.3f}") if not shown.summary.empty
          else "(no runs)")
    if not shown.summary.empty:
        print(shown.clock)
    if not shown.disagreements.empty:
        print(f"\ndisagreements: {len(shown.disagreements)} puzzle(s) called unsat by some runs, while a "
              "solution the checker accepts exists, or with a suspect claim (its proof judged wrong):")
        print(shown.disagreements.to_string(index=False))
    return 1 if report.failed else 0

