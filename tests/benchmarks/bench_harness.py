"""Harness figures: per-run overhead, kill latency, memory-limit precision, and 1-vs-2-worker throughput.

Run from the repository root: `python tests/benchmarks/bench_harness.py [--runs 400] [--skip-dask]`.
Not collected by pytest; prints figures, asserts nothing. Every sweep goes through
`harness.run.sweep.run` into a throwaway database, exactly as `python -m harness.run` would.

- overhead: (sweep wall time - summed solve_s) / runs, with long-lived workers, against one fresh
  interpreter per run (`runs_per_worker=1`); the dummy encoding over many instances, and every
  Masyu encoding over the bundled default set `masyu-default`.
- kill latency: CPU seconds past the limit when a spinning run is killed; memory: the recorded
  peak of an unbounded allocation against the memory limit.
- throughput: a CPU-bound sweep (dummy `burn`) with 1 and 2 local workers, then 1 and 2 Dask
  LocalCluster workers. Read the load average printed first: co-tenant load caps the speed-up.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness import registry  # noqa: E402
from harness.analysis import results  # noqa: E402
from harness.instances import Instance  # noqa: E402
from harness.kinds import read_text  # noqa: E402
from harness.run import sweep  # noqa: E402
from harness.sets import resolve  # noqa: E402


def empty_grids(count: int) -> list[Instance]:
    """`count` distinct pearl-less grids (distinct contents, so distinct run keys)."""
    found = []
    for rows in range(2, 100):
        for cols in range(2, 100):
            if len(found) == count:
                return found
            text = f"{rows} {cols}\n" + "\n".join("-" * cols for _ in range(rows)) + "\n"
            found.append(Instance(f"empty{rows}x{cols}", f"<empty{rows}x{cols}>", read_text(text)))
    return found


def timed_sweep(folder: Path, label: str, **settings) -> tuple[float, object]:
    db = folder / f"{label}.sqlite"
    start, cpu = time.perf_counter(), time.process_time()
    sweep.run(sweep.Sweep(db=db, **settings), progress=False)
    timed_sweep.coordinator_cpu = time.process_time() - cpu  # this process: supervisors and store
    return time.perf_counter() - start, results.load(db)


def overhead(folder: Path, runs: int, fresh_runs: int) -> None:
    print("\n## overhead per run = (sweep wall - summed solve_s) / runs, 1 local worker")
    dummy = {"instances": empty_grids(runs), "encodings": ["dummy"], "time_s": 10}
    cases = [("dummy, long-lived worker", dummy, None), ("dummy, fresh interpreter per run",
             {**dummy, "instances": dummy["instances"][:fresh_runs]}, 1)]
    try:
        default = resolve("masyu-default")
        names = [n for n in registry.names("masyu") if n != "dummy"]
        real = {"instances": default, "encodings": names, "time_s": 60}
        few = default[: max(1, fresh_runs // len(names))]
        cases += [("masyu-default x all, long-lived worker", real, None),
                  ("masyu-default x all, fresh interpreter", {**real, "instances": few}, 1)]
    except FileNotFoundError:
        print("(masyu-default is not bundled here: dummy only)")
    for label, settings, per_worker in cases:
        wall, df = timed_sweep(folder, label.replace(" ", "_").replace(",", ""), runs_per_worker=per_worker,
                               **settings)
        solve = df["solve_s"].fillna(0).sum()
        steady = statistics.median(df["wall_s"] - df["solve_s"].fillna(0))
        print(f"{label:40s} {len(df):4d} runs  wall {wall:6.2f} s  solve {solve:6.2f} s  "
              f"overhead {1000 * (wall - solve) / len(df):7.1f} ms/run  "
              f"(per-run wall_s - solve_s, median {1000 * steady:5.1f} ms)  "
              f"statuses {dict(df.status.value_counts())}")


def limits(folder: Path) -> None:
    print("\n## kill latency (spin) and memory-limit precision (unbounded alloc)")
    grid = empty_grids(1)
    for limit in (1.0, 2.0, 5.0):
        _, df = timed_sweep(folder, f"spin{limit}", instances=grid, encodings=["dummy"], time_s=limit,
                            options={"behave": "spin"})
        row = df.iloc[0]
        print(f"spin, CPU limit {limit:3.0f} s: {row.status}, cpu_s {row.cpu_s:.2f} "
              f"(+{row.cpu_s - limit:.2f} s), wall_s {row.wall_s:.2f} s  [{row.detail}]")
    _, df = timed_sweep(folder, "hang", instances=grid, encodings=["dummy"], time_s=1.0,
                        options={"behave": "hang"})
    row = df.iloc[0]
    print(f"hang, CPU limit 1 s (wall cap 6.5 s): {row.status}, wall_s {row.wall_s:.2f} s  [{row.detail}]")
    for limit in (300, 600, 1200):
        _, df = timed_sweep(folder, f"alloc{limit}", instances=grid, encodings=["dummy"], time_s=30,
                            memory_mb=limit, options={"behave": "alloc"})
        row = df.iloc[0]
        print(f"alloc, memory limit {limit:5d} MB: {row.status}, peak_rss_mb {row.peak_rss_mb:.0f} "
              f"({100 * (row.peak_rss_mb / limit - 1):+.1f} %)")


def throughput(folder: Path, runs: int, seconds: float, dask: bool) -> None:
    print(f"\n## throughput: {runs} runs each burning {seconds} s of CPU")
    settings = {"instances": empty_grids(runs), "encodings": ["dummy"], "time_s": 30,
                "options": {"behave": "burn", "seconds": str(seconds)}}
    kinds = [("local", 1), ("local", 2)] + ([("dask", 1), ("dask", 2)] if dask else [])
    rate = {}
    for kind, jobs in kinds:
        wall, df = timed_sweep(folder, f"{kind}{jobs}", executor=kind, jobs=jobs, **settings)
        # In-sweep span: from the first run's start to the last run's end (worker and cluster start excluded).
        span = (pd_time(df["finished_at"]).max() - pd_time(df["started_at"]).min()).total_seconds()
        rate[kind, jobs] = (len(df) / wall, len(df) / span)
        print(f"{kind:5s} jobs {jobs}: wall {wall:6.2f} s ({rate[kind, jobs][0]:.2f} runs/s), "
              f"in-sweep {span:6.2f} s ({rate[kind, jobs][1]:.2f} runs/s), "
              f"median cpu_s {df.cpu_s.median():.3f}, median wall_s {df.wall_s.median():.3f}, "
              f"coordinator CPU {timed_sweep.coordinator_cpu:.2f} s")
    for kind in ("local", "dask"):
        if (kind, 2) in rate:
            end, inner = (rate[kind, 2][i] / rate[kind, 1][i] for i in (0, 1))
            print(f"{kind}: 2 workers vs 1 = {end:.2f}x end to end, {inner:.2f}x in-sweep")


def pd_time(column):
    import pandas as pd

    return pd.to_datetime(column)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=400, help="runs of the overhead sweeps")
    parser.add_argument("--fresh-runs", type=int, default=20, help="runs of the fresh-interpreter sweeps")
    parser.add_argument("--burn-runs", type=int, default=24, help="runs of the throughput sweeps")
    parser.add_argument("--burn-seconds", type=float, default=0.5)
    parser.add_argument("--skip-dask", action="store_true")
    parser.add_argument("--only", choices=("overhead", "limits", "throughput"), action="append",
                        help="run only these parts (repeatable; default all)")
    args = parser.parse_args(argv)
    parts = args.only or ["overhead", "limits", "throughput"]
    print(f"# bench_harness: {os.cpu_count()} CPUs, load average {open('/proc/loadavg').read().split()[:3]}")
    with tempfile.TemporaryDirectory(prefix="bench-harness-") as tmp:
        folder = Path(tmp)
        if "overhead" in parts:
            overhead(folder, args.runs, args.fresh_runs)
        if "limits" in parts:
            limits(folder)
        if "throughput" in parts:
            throughput(folder, args.burn_runs, args.burn_seconds, not args.skip_dask)
    print(f"# load average at the end {open('/proc/loadavg').read().split()[:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
