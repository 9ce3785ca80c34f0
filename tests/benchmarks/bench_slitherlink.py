"""Slitherlink against `circuit`, side by side in one run: how many times faster each strategy is.

Run from the repository root: `python tests/benchmarks/bench_slitherlink.py [--every 1]
[--time-limit 60] [--variants sat,circuit] [--sets slither-hard,slither-janko] [--seeds 1]`. Not
collected by pytest. The instances are every puzzle of slither-hard and every `--every`-th of
slither-janko (and of any other set named), each run at seeds 0 to `--seeds` - 1 (a run per seed
counted as a puzzle of its own: how the seed's clause order moves a lazy loop's rounds) by every
variant one after another in this process (with `--memory-mb N`, each in a child forked from it
with N MB to spare, `harness.apart`: the propagator's CaDiCaL can allocate without end, and took
24 GB on the 60x60 of slither-large at seed 2 before the kernel ended the benchmark) through
`execute()` (building, solving and the independent check), so they see the same load, in an order
drawn afresh for each run. The time is
the run's `solve_cpu_s`, the clock every summary ranks on: the CPU time of the encoding's own
work, from its build to its answer (the solvers run in this process), so other jobs on the machine
inflate it little. Printed per variant: puzzles solved and verified, median and slowest time (which
puzzle, what size), then the geometric mean over the puzzles every variant solved of circuit's time
over the variant's (how many times faster than circuit), for each set and for all. A variant is
an encoding with options: `sat-plain` is `sat` with `implied=false`, and so on (VARIANTS).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness import sets  # noqa: E402
from harness.analysis.ranking import paired_speedup  # noqa: E402
from harness.apart import Died, call_apart  # noqa: E402
from harness.encoding import Limits  # noqa: E402
from harness.run.execute import execute  # noqa: E402

VARIANTS = {
    "sat": ("sat", {}),
    "sat-plain": ("sat", {"implied": "false"}),
    "sat-cutset": ("sat", {"cuts": "cutset"}),
    "sat-disc": ("sat", {"cuts": "disc"}),
    "sat-quiet": ("sat", {"cadical": "inprocessing=0,rephase=0"}),
    "sat-cut-only": ("sat", {"alone": "false"}),
    "sat-colour-off": ("sat", {"colour": "off"}),
    "sat-colour-on": ("sat", {"colour": "on"}),
    "propagator": ("propagator", {}),
    "asp": ("asp", {}),
    "asp-plain": ("asp", {"implied": "false"}),
    "circuit": ("circuit", {}),
    "circuit-plain": ("circuit", {"implied": "false"}),
    "lazy": ("lazy", {}),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="every N-th puzzle of each set but slither-hard")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--variants", default="sat,circuit", help=f"of {', '.join(VARIANTS)}")
    parser.add_argument("--sets", default="slither-hard,slither-janko")
    parser.add_argument("--seeds", type=int, default=1, help="run each puzzle at seeds 0 to SEEDS - 1")
    parser.add_argument("--memory-mb", type=int, default=0,
                        help="run each in a forked child with this many MB to spare (0: in this process)")
    args = parser.parse_args()
    variants = args.variants.split(",")
    if "circuit" not in variants:
        variants.append("circuit")
    groups: dict[str, list] = {}
    seen: set[str] = set()
    for name in args.sets.split(","):
        found = list(sets.instances(name))
        found = found if name == "slither-hard" else found[:: args.every]
        groups[name] = [x for x in found if x.name not in seen]
        seen |= {x.name for x in found}
    def run_name(x, seed: int) -> str:
        return x.name if args.seeds == 1 else f"{x.name}@{seed}"

    runs = [(x, seed) for group in groups.values() for x in group for seed in range(args.seeds)]
    cpu: dict[str, dict[str, float]] = {v: {} for v in variants}
    size = {run_name(x, seed): f"{x.puzzle.rows}x{x.puzzle.cols}" for x, seed in runs}
    for k, (x, seed) in enumerate(runs, 1):
        name = run_name(x, seed)
        # a run just after another strategy's finds the caches cold: the order is drawn afresh for
        # each run (seeded), so each variant follows each other one as often, near enough (turning
        # a fixed order kept the same neighbours: the variant after circuit always came after it,
        # which cost sat 10 % against the same code under another name)
        for variant in random.Random(k).sample(variants, len(variants)):
            encoding, options = VARIANTS[variant]
            run = partial(execute, x, encoding, options, seed, Limits(time_s=args.time_limit))
            try:
                row = call_apart(run, args.memory_mb) if args.memory_mb else run()
            except Died as why:
                print(f"{name} {variant}: {why}", flush=True)
                continue
            if row["status"] == "solved" and row["verified"] == 1:
                cpu[variant][name] = row["solve_cpu_s"]
        if k % 50 == 0 or len(runs) < 200:
            print(f"{k}/{len(runs)} {name} {size[name]}: "
                  + ", ".join(f"{v} {cpu[v].get(name, float('nan')):.3f}" for v in variants), flush=True)
    print(f"\n{', '.join(f'{n} ({len(g)})' for n, g in groups.items())}; every {args.every}; "
          f"seeds 0-{args.seeds - 1}; {args.time_limit:g} s limit; solve_cpu_s")
    both = {n for n in size if all(n in cpu[v] for v in variants)}
    for variant in variants:
        times = cpu[variant]
        slowest = max(times, key=times.get) if times else "-"
        line = (f"{variant:>13}: solved {len(times)}/{len(runs)}, "
                f"median {statistics.median(times.values()) if times else float('nan'):.4f} s, "
                f"slowest {times.get(slowest, float('nan')):.3f} s ({slowest}, {size.get(slowest, '-')})")
        if variant != "circuit":
            def faster(names, times=times):
                paired = [n for n in names if n in both]
                return paired_speedup([cpu["circuit"][n] for n in paired], [times[n] for n in paired])
            parts = [f"{name} {faster([run_name(x, s) for x in group for s in range(args.seeds)]):.2f}x"
                     for name, group in groups.items()]
            line += f"; circuit/{variant} " + ", ".join(parts) + f", all {faster(both):.2f}x"
        print(line)
    print(f"(geometric means over the {len(both)} runs every variant solved)")


if __name__ == "__main__":
    main()
