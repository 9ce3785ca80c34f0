"""Old against new, search statistics side by side: every `sat` configuration of issue 44 on the smoke
sets and fhcp-sample's first graphs, each run bounded by counts, so both sides must print the same.

Run from the repository root: `python tests/benchmarks/bench_parts.py --old-python
/work/venvs/old/bin/python [--rounds 40] [--conflicts 20000] [--fhcp 20] [--only sat,cegar]`.
`--old-python` is the interpreter of a venv whose `loopbench_encodings` and `harness` are the older
checkout's (`pip install --no-deps -e CHECKOUT` into a venv of its own); this venv's are the new side.
Not collected by pytest. Each side is a worker process calling the encoding's `solve` directly (seed
0); `Limits.progress`, which `sat` calls before each solve call, stops a run once its rounds or
conflicts pass the bounds, so where a run stops depends on counts, never on the clock (the time limit,
`--time-limit`, is only a guard: a run it stops is marked `time` and its counts may differ);
`restart=luby` runs get 130 rounds, past its first restart, on fhcp-sample's first 5 graphs. `split`
configurations also run on fhcp-sample's graph247, which `split=hubs` splits (none of the first 20
does): its parts' sub-solves get 2 s of CPU and more (`loop.split`), so its counts can differ where
one is stopped by its clock. Printed: per configuration and set the runs whose status, answer,
rounds, cuts, conflicts (and the configuration's own counts: tried alone, joined, merged, restarts,
coloured_at, parts, check_model_calls, propagations) are the same on both sides, then every run
that differs, with both sides' counts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from harness.presets import PRESETS

# label: (encoding, options, the sets it runs on: `loop` the loop kinds' smoke sets, `grid` the grid
# ones and slither-hard's first (colour matters on grids only, and no smoke puzzle reaches
# `colour=late`'s conflicts), `graph` graph-smoke and fhcp-sample, `plain` Walls and Marupeke)
CONFIGS = {
    "sat": ("sat", {}, ("loop", "graph", "plain")),
    "cegar-split": ("sat", PRESETS["cegar-split"].options, ("graph",)),
    "cegar": ("sat", PRESETS["cegar"].options, ("graph",)),
    "asym-free-split": ("sat", {"arcs": "asymmetry", "degree": "free", "split": "hubs"}, ("graph",)),
    "colour-late": ("sat", {"colour": "late"}, ("grid",)),
    "colour-on": ("sat", {"colour": "on"}, ("grid",)),
    "colour-off": ("sat", {"colour": "off"}, ("grid",)),
    # a restart comes after RESTART_ROUNDS (100) rounds: those runs get RESTART_BOUND rounds, on the
    # first RESTART_GRAPHS of fhcp-sample only (the small ones), to stay in minutes
    "restart-luby": ("sat", {"restart": "luby"}, ("loop", "graph")),
    "join-2opt": ("sat", {"join": "2opt"}, ("loop", "graph")),
    "join-3opt": ("sat", {"join": "3opt"}, ("loop", "graph")),
    "propagator": ("propagator", {}, ("loop", "graph")),
    "connect": ("connect", {}, ("loop", "graph")),
}
RESTART_BOUND, RESTART_GRAPHS = 130, 5
HUB_GRAPH = "graph247"  # fhcp-sample's graph that `split=hubs` splits (5 parts; tests/test_split.py)
GRID_SETS = ("masyu-smoke", "slither-smoke")
LOOP_SETS = (*GRID_SETS, "castlewall-smoke", "country-smoke", "geradeweg-smoke", "moonsun-smoke",
             "yajilin-smoke")
GRAPH_SETS = ("graph-smoke", "fhcp-sample")
PLAIN_SETS = ("walls-smoke", "marupeke-smoke")
GROUPS = {"loop": LOOP_SETS, "grid": (*GRID_SETS, "slither-hard"), "graph": GRAPH_SETS, "plain": PLAIN_SETS}
# the counts compared: the driver's, and each part's own where it reports them
COUNTS = ("iterations", "cuts", "conflicts", "chunks", "tried_alone", "join_tried", "joined", "merged",
          "fixed_on", "fixed_off", "restarts", "coloured_at", "conflicts_before_faces", "parts", "top_models",
          "sub_solves", "check_model_calls", "propagations", "reasons", "cycles_seen", "connect_searches",
          "connect_conflicts", "connect_propagations")


class Bound(Exception):
    """Raised from `Limits.progress` once a run has passed its rounds or conflicts."""


def worker() -> None:
    """Answer one JSON request per line with the run's counts; what the encodings print goes to stderr."""
    from harness import registry, sets
    from harness.encoding import Limits

    out, sys.stdout = sys.stdout, sys.stderr
    found: dict[str, dict] = {}
    for line in sys.stdin:
        req = json.loads(line)
        if req["set"] not in found:
            found[req["set"]] = {i.name: i for i in sets.instances(req["set"])}
        puzzle = found[req["set"]][req["name"]].puzzle
        encoding = registry.create(req["encoding"], **req["options"])
        encoding.prepare()
        last: dict = {}

        def progress(stats: dict, last=last, req=req) -> None:
            last.clear()
            last.update(stats)
            if stats.get("iterations", 0) >= req["rounds"] or stats.get("conflicts", 0) >= req["conflicts"]:
                raise Bound

        t0 = time.process_time()
        try:
            outcome = encoding.solve(puzzle, Limits(time_s=req["time_s"], progress=progress), 0)
            status, stats, solution = outcome.status, outcome.stats, outcome.solution
            if status == "unknown" and "time limit" in stats.get("reason", ""):
                status = "time"
        except Bound:
            status, stats, solution = "bound", last, ""
        counts = {k: stats[k] for k in COUNTS if k in stats}
        answer = hashlib.sha256(solution.encode()).hexdigest()[:8] if solution else ""
        out.write(json.dumps({"status": status, "answer": answer, "counts": counts,
                              "cpu_s": time.process_time() - t0}) + "\n")
        out.flush()


class Side:
    """A worker process running one venv's code (its cwd outside any checkout, so the venv's wins)."""

    def __init__(self, python: str) -> None:
        self.proc = subprocess.Popen([python, str(Path(__file__).resolve()), "--worker"], text=True, cwd="/",
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env={**os.environ, "PYTHONPATH": ""})

    def ask(self, request: dict) -> None:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()

    def answer(self) -> dict:
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def shown(run: dict) -> str:
    counts = " ".join(f"{k}={v}" for k, v in run["counts"].items())
    return f"{run['status']} {run['answer'] or '-'} {counts}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-python", help="the older checkout's venv's python (without: new side only)")
    parser.add_argument("--only", help=f"configurations, comma-separated, from {', '.join(CONFIGS)}")
    parser.add_argument("--rounds", type=int, default=40, help="a run stops past this many rounds")
    parser.add_argument("--conflicts", type=int, default=20_000, help="or past this many conflicts")
    parser.add_argument("--fhcp", type=int, default=20, help="fhcp-sample's first N graphs")
    parser.add_argument("--hard", type=int, default=8, help="slither-hard's first N puzzles")
    parser.add_argument("--time-limit", type=float, default=30.0, help="CPU seconds, a guard only")
    parser.add_argument("--verbose", action="store_true", help="print every run's counts")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from harness import sets

    labels = args.only.split(",") if args.only else list(CONFIGS)
    sides = {"new": Side(sys.executable)} | ({"old": Side(args.old_python)} if args.old_python else {})
    names = {s: [i.name for i in sets.instances(s)] for g in GROUPS.values() for s in g}
    names["fhcp-sample"] = names["fhcp-sample"][: args.fhcp]
    names["slither-hard"] = names["slither-hard"][: args.hard]
    same_total, differ, t0 = 0, [], time.time()
    try:
        for label in labels:
            encoding, options, groups = CONFIGS[label]
            for set_name in dict.fromkeys(s for g in groups for s in GROUPS[g]):
                same, runs, cpu = 0, 0, dict.fromkeys(sides, 0.0)
                restarts = options.get("restart", "off") != "off"
                rounds = max(args.rounds, RESTART_BOUND) if restarts else args.rounds
                first = RESTART_GRAPHS if restarts and set_name == "fhcp-sample" else None
                more = [HUB_GRAPH] if options.get("split") == "hubs" and set_name == "fhcp-sample" else []
                for name in [*names[set_name][:first], *more]:
                    request = {"set": set_name, "name": name, "encoding": encoding, "options": options,
                               "rounds": rounds, "conflicts": args.conflicts, "time_s": args.time_limit}
                    for side in sides.values():  # both at once: two processes
                        side.ask(request)
                    got = {s: side.answer() for s, side in sides.items()}
                    runs += 1
                    for s, run in got.items():
                        cpu[s] += run["cpu_s"]
                    if args.verbose:
                        cells = " | ".join(f"{s}: {shown(r)}" for s, r in got.items())
                        print(f"  {label} {set_name} {name}: {cells}")
                    keys = [(r["status"], r["answer"], r["counts"]) for r in got.values()]
                    if all(k == keys[0] for k in keys):
                        same += 1
                    else:
                        differ.append((label, set_name, name, got))
                same_total += same
                times = " ".join(f"{s} {c:.1f} s" for s, c in cpu.items())
                print(f"{label:<16} {set_name:<17} {same:>3}/{runs:<3} the same   (CPU {times})", flush=True)
    finally:
        for side in sides.values():
            side.close()
    print(f"\n{same_total} runs the same, {len(differ)} differ ({time.time() - t0:.0f} s wall; "
          f"bounds: {args.rounds} rounds, {args.conflicts} conflicts, guard {args.time_limit:g} s CPU)")
    for label, set_name, name, got in differ:
        print(f"differs: {label} {set_name} {name}")
        for s, run in got.items():
            print(f"  {s}: {shown(run)}")


if __name__ == "__main__":
    worker() if sys.argv[1:] == ["--worker"] else main()
