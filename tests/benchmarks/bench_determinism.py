"""The same seed, the same search: each strategy's statistics quiet and beside two CPU hogs, side by side.

Run from the repository root: `python tests/benchmarks/bench_determinism.py [--time-limit 60]
[--encodings sat,propagator,circuit,lazy] [--instances graph-gp-nonham-202-s2026-000 ...]
[--set graph-hard] [--seed 3]`. Not collected by pytest. Each instance is solved by each
encoding twice in this process: once on a quiet machine (as quiet as it is), once while two
processes spin on the CPU; the rounds (`iterations`), cuts, conflicts and solve calls (`chunks`)
of the two runs are printed side by side with `same` or `DIFFERENT`, and the CPU seconds of each.
A deterministic strategy prints `same` on every line whatever the load (issue 30's target).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness import registry, sets  # noqa: E402
from harness.encoding import Limits  # noqa: E402

MEASURES = ("status", "iterations", "cuts", "conflicts", "chunks")
DEFAULT_INSTANCES = ("graph-gp-nonham-202-s2026-000", "graph-flower-52-s2026-000",
                     "graph-knight-400-s2026-000")


def _spin(until: float) -> None:
    while time.time() < until:
        pass


def run(encoding: str, puzzle, limit: float, seed: int) -> tuple[dict, float]:
    name, *pairs = encoding.split(":")
    options = dict(pair.split("=", 1) for pair in pairs)
    began = time.process_time()
    outcome = registry.create(name, **options).solve(puzzle, Limits(time_s=limit), seed)
    stats = {"status": outcome.status, **outcome.stats}
    return {m: stats.get(m) for m in MEASURES}, time.process_time() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--encodings", default="sat,sat:cuts=cutset,propagator,circuit,lazy")
    parser.add_argument("--set", default="graph-hard")
    parser.add_argument("--instances", nargs="*", default=list(DEFAULT_INSTANCES))
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    wanted = set(args.instances)
    chosen = [i for i in sets.instances(args.set) if i.name in wanted]
    print(f"{'instance':34} {'encoding':18} {'measure':10} {'quiet':>10} {'two hogs':>10}")
    for instance in chosen:
        for encoding in args.encodings.split(","):
            quiet, quiet_s = run(encoding, instance.puzzle, args.time_limit, args.seed)
            hogs = [multiprocessing.Process(target=_spin, args=(time.time() + 10 * args.time_limit,))
                    for _ in range(2)]
            for hog in hogs:
                hog.start()
            try:
                loaded, loaded_s = run(encoding, instance.puzzle, args.time_limit, args.seed)
            finally:
                for hog in hogs:
                    hog.kill()
                    hog.join()
            head = f"{instance.name:34} {encoding:18}"
            for m in MEASURES:
                verdict = "same" if quiet[m] == loaded[m] else "DIFFERENT"
                print(f"{head} {m:10} {quiet[m]!s:>10} {loaded[m]!s:>10}  {verdict}")
            print(f"{head} {'cpu_s':10} {quiet_s:10.2f} {loaded_s:10.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
