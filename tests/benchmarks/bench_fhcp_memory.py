"""Peak memory per strategy on the densest FHCP graphs: one real sweep (`harness.run`), VmHWM per run.

Run from the repository root: `python tests/benchmarks/bench_fhcp_memory.py [--corpus DIR]
[--graphs 10] [--limit 60] [--encoding circuit,lazy,sat,propagator,asp] [--db FILE]`. Not collected
by pytest. The densest graphs (most edges per vertex) of the FHCP corpus folder (`graphN.hcp.gz`, as
published) are run by `python -m harness.run` into a results database (a temporary one unless
`--db`: a database already holding runs is resumed), one run at a time, under the CPU limit and a
memory limit of 4 GB; the table is each run's peak resident memory (`peak_rss_mb`: VmHWM of the
worker) with its status and CPU seconds, then the worst per strategy against the 2 GB target.
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness import kinds  # noqa: E402
from harness.instances import instance_name  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "fhcp" / "hcp"
TARGET_MB = 2048


def corpus(folder: Path) -> list[Path]:
    """The folder's `graph*.hcp.gz` files; a folder missing or without any stops the benchmark with one
    line naming it (exit 2): the default is only right in a checkout with ../shared beside it."""
    files = sorted(folder.glob("graph*.hcp.gz")) if folder.is_dir() else []
    if not files:
        problem = "no graph*.hcp.gz in it" if folder.is_dir() else "no such folder"
        print(f"bench_fhcp_memory: --corpus {folder}: {problem} (give the folder of FHCP's graphN.hcp.gz)",
              file=sys.stderr)
        raise SystemExit(2)
    return files


def densest(folder: Path, count: int) -> list[tuple[str, int, int]]:
    """The `count` graphs with the most edges per vertex: (path, vertices, edges), densest first."""
    sizes = []
    for path in corpus(folder):
        graph = kinds.read_spec(str(path))
        sizes.append((str(path), graph.n, len(graph.edges)))
    return sorted(sizes, key=lambda s: -s[2] / s[1])[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="folder of graphN.hcp.gz files")
    parser.add_argument("--graphs", type=int, default=10)
    parser.add_argument("--limit", type=float, default=60.0, help="CPU seconds per run")
    parser.add_argument("--encoding", default="circuit,lazy,sat,propagator,asp")
    parser.add_argument("--db", help="results database to keep (default: a temporary one)")
    args = parser.parse_args()
    graphs = densest(args.corpus, args.graphs)
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or str(Path(folder) / "memory.sqlite")
        command = [sys.executable, "-m", "harness.run", "--encoding", args.encoding, "--instances",
                   *(g[0] for g in graphs), "--time-limit", str(args.limit), "--memory-limit", "4096",
                   "--wall-limit", str(10 * args.limit + 60), "--jobs", "1", "--db", db]
        print("$", " ".join(command[1:]), flush=True)
        subprocess.run(command, check=True, cwd=ROOT)
        with sqlite3.connect(db) as con:
            rows = con.execute("SELECT instance, encoding, status, peak_rss_mb, solve_cpu_s, cpu_s "
                               "FROM runs").fetchall()
    found = {(instance, encoding): rest for instance, encoding, *rest in rows}
    encodings = sorted({encoding for _, encoding, *_ in rows})
    print(f"\npeak memory, MB (status, CPU s); limit {args.limit:g} s CPU, target {TARGET_MB} MB")
    print("| graph | vertices | edges | " + " | ".join(encodings) + " |")
    print("|---|---:|---:|" + "---|" * len(encodings))
    worst: dict[str, float] = {}
    for path, n, m in graphs:
        name = instance_name(path)
        cells = []
        for encoding in encodings:
            status, peak, solve_cpu, cpu = found.get((name, encoding), ("-", None, None, None))
            worst[encoding] = max(worst.get(encoding, 0.0), peak or 0.0)
            took = solve_cpu if solve_cpu is not None else cpu
            cells.append(f"{peak:.0f} ({status}, {took:.1f})" if peak is not None else status)
        print(f"| {name} | {n} | {m} | " + " | ".join(cells) + " |")
    print("\nworst per strategy: " + ", ".join(
        f"{e} {worst[e]:.0f} MB{' OVER' if worst[e] > TARGET_MB else ''}" for e in encodings))


if __name__ == "__main__":
    main()
