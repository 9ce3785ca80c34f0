"""Side-by-side solve times and rounds of the PySAT encodings `sat` and `propagator`.

Run from the repository root: `python tests/benchmarks/bench_pysat.py [--repeats 3] [--time-limit 120]`.
Not collected by pytest. Each cell is the median wall time of `execute()` (CNF building, solving,
cutting and the independent check) over the repeats, with seeds 0, 1, ... (a non-zero seed
shuffles the clause order), then the median rounds (`r`: solve() calls for `sat`; the
propagator's is 1) and cuts (`c`). `prop` runs `eager=pearlfree` unless the column says `all`.
`TO` marks a run that ended `unknown`; any other non-solved status is printed as is.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness.encoding import Limits  # noqa: E402
from harness.instances import resolve  # noqa: E402
from harness.run.execute import execute  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "janko-java"
INSTANCES = [
    ROOT / "instances" / "masyu-seed" / "janko001.txt",  # 6x6
    ROOT / "instances" / "masyu-seed" / "janko080.txt",  # 16x16
    CORPUS / "janko793.txt",  # 20x20
    CORPUS / "janko759.txt",  # 30x40
    CORPUS / "janko270.txt",  # 31x45
    CORPUS / "janko280.txt",  # 31x45
    CORPUS / "janko760.txt",  # 40x58
]
CONFIGS = {
    "sat cd195 loop": ("sat", {}),
    "sat cd195 cutset": ("sat", {"cuts": "cutset"}),
    "sat g4 loop": ("sat", {"solver": "glucose4"}),
    "sat g4 cutset": ("sat", {"solver": "glucose4", "cuts": "cutset"}),
    "prop cd195 loop": ("propagator", {}),
    "prop cd195 cutset": ("propagator", {"cuts": "cutset"}),
    "prop cd300 loop": ("propagator", {"solver": "cadical300"}),
    "prop cd195 eager=all": ("propagator", {"eager": "all"}),
}


def cell(rows: list[dict]) -> str:
    bad = [r["status"] for r in rows if r["status"] != "solved" or r["verified"] != 1]
    if bad:
        return "TO" if all(s == "unknown" for s in bad) else "/".join(sorted(set(bad)))
    med = {k: statistics.median(r[k] for r in rows) for k in ("solve_s", "iterations", "cuts")}
    return f"{med['solve_s']:.3f} {med['iterations']:g}r {med['cuts']:g}c"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=120.0)
    args = parser.parse_args()
    limits = Limits(time_s=args.time_limit)

    width = max(map(len, CONFIGS)) + 2
    print(f"{'instance':<12}{'size':>7}  " + "".join(f"{name:>{width}}" for name in CONFIGS), flush=True)
    for path in INSTANCES:
        if not path.exists():
            print(f"{path.stem:<12} missing ({path})")
            continue
        (instance,) = resolve(str(path))
        size = f"{instance.puzzle.rows}x{instance.puzzle.cols}"
        cells = []
        for encoding, options in CONFIGS.values():
            rows = [execute(instance, encoding, options, seed, limits) for seed in range(args.repeats)]
            cells.append(cell(rows))
        print(f"{path.stem:<12}{size:>7}  " + "".join(f"{c:>{width}}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
