"""Side-by-side solve times of the CP-SAT encodings on the seed instances and the largest janko ones.

Run from the repository root: `python tests/benchmarks/bench_cpsat.py [--repeats 3] [--time-limit 120]`.
Not collected by pytest. Each cell is the median wall time of `execute()` (model building,
solving and the independent check) over the repeats, with seeds 0, 1, ...; `TO` marks a run that
ended `unknown`, and any other non-solved status is printed as is. Configurations: `circuit` and
`lazy` with their defaults (1 worker, linearization_level 0, quick-restart portfolio), and
`circuit` with 2 workers and CP-SAT's default parameters (the setting the targets were taken with).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness.encoding import Limits  # noqa: E402
from harness.run.execute import execute  # noqa: E402
from harness.sets import resolve  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "janko-java"
INSTANCES = [
    ROOT / "instances" / "masyu-seed" / "janko001.txt",  # 6x6
    CORPUS / "janko011.txt",  # 10x10
    ROOT / "instances" / "masyu-seed" / "janko080.txt",  # 16x16
    CORPUS / "janko793.txt",  # 20x20
    CORPUS / "janko759.txt",  # 30x40
    CORPUS / "janko270.txt",  # 31x45
    CORPUS / "janko280.txt",  # 31x45
    CORPUS / "janko760.txt",  # 40x58
]
CONFIGS = {
    "circuit w1 lin0 QR": ("circuit", {}),
    "lazy w1 lin0 QR": ("lazy", {}),
    "circuit w2 default": (
        "circuit",
        {"num_workers": 2, "linearization_level": 1, "search_branching": "AUTOMATIC_SEARCH"},
    ),
}
TARGETS = (
    "targets (issue): seed chapter's model 6x6 ~0.006 s, 16x16 ~0.065 s; "
    "w2 default params here: 10x10 0.07 s, 20x20 0.25 s, 40x40 2.0 s"
)


def cell(rows: list[dict]) -> str:
    bad = [r["status"] for r in rows if r["status"] != "solved" or r["verified"] != 1]
    if bad:
        return "TO" if all(s == "unknown" for s in bad) else "/".join(sorted(set(bad)))
    text = f"{statistics.median(r['solve_s'] for r in rows):.3f}"
    rounds = statistics.median(r["iterations"] for r in rows)
    if rounds > 1:
        text += f" ({rounds:g}r)"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=120.0)
    args = parser.parse_args()

    warm = resolve(str(INSTANCES[0]))[0]
    for encoding, options in CONFIGS.values():  # pay the imports before timing
        execute(warm, encoding, options, 0, Limits(args.time_limit))

    print(TARGETS)
    print(f"median of {args.repeats} runs, seconds; (Nr) = median solve rounds of lazy")
    print(f"{'instance':<10} {'size':>6}  " + "  ".join(f"{name:>20}" for name in CONFIGS))
    for path in INSTANCES:
        if not path.exists():
            print(f"{path.stem:<10} missing: {path}")
            continue
        instance = resolve(str(path))[0]
        size = f"{instance.puzzle.rows}x{instance.puzzle.cols}"
        cells = []
        for encoding, options in CONFIGS.values():
            rows = [
                execute(instance, encoding, options, seed, Limits(args.time_limit))
                for seed in range(args.repeats)
            ]
            cells.append(cell(rows))
        print(f"{path.stem:<10} {size:>6}  " + "  ".join(f"{c:>20}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
