"""Old vs new, side by side: the loop encodings (PySAT's `sat` and `propagator`, and `circuit`, `lazy`,
`asp` with the same options on both sides) on one instance set, interleaved.

Run from the repository root: `PYTHONPATH=$PWD/.pp python tests/benchmarks/bench_pysat.py --old
/tmp/floor-old [--instances masyu-hard] [--repeats 1] [--time-limit 60] [--variants sat,prop]`.
`--old` is a checkout of the commit to compare with (its `.pp` folder set up like this one's).
Not collected by pytest. Two worker processes, one per checkout, run `execute()` (CNF building,
solving, cutting and the independent check) one at a time, alternating old and new run by run
(which goes first alternates by instance), so both see the same load. Each variant pairs new
options with the old options they replace. Printed per variant and side: instances solved and
verified, median solve_s, median share of solve_cpu_s inside the solve calls (`in solve`; an older
checkout's phases are wall time, a share of solve_s) and, where the propagator reports callback_cpu_s,
inside the SAT solver proper (`in SAT`: solve calls minus the Python callbacks), median rounds (sat:
solve() calls; propagator: check_model calls), median build_s; then the median over instances of
the ratio new/old of solve_s (both solved) and, for
propagators, median propagations and reasons asked. Without `--old` only the new side runs.
`--parts` (this checkout only, in this process) instead times each part of `sat`'s work per
instance, the best of `--repeats` (at least 3) CPU-time readings, and prints the medians in ms:
the build (loop problem, LoopArrays with its grid shape made afresh and found made, degree
clauses afresh and kept, the kind's rules, the clauses handed to CaDiCaL through PySAT's
bootstrap and straight, set_phases) and, over one default run's rounds, the solve calls and
what happens between them (reading the model, walking the loops, deciding the cuts, adding them,
the solution string).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# label: (new encoding and options, old encoding and options)
VARIANTS = {
    "sat": (("sat", {}), ("sat", {})),
    "sat-nx": (("sat", {"components": "networkx"}), ("sat", {})),
    "sat-implied": (("sat", {"implied": "true"}), ("sat", {})),
    "prop-implied": (("propagator", {"implied": "true"}), ("propagator", {})),
    "prop": (("propagator", {}), ("propagator", {})),
    "prop-pearlfree": (("propagator", {"eager": "pearlfree"}), ("propagator", {})),
    "prop-propagate": (("propagator", {"eager": "propagate"}), ("propagator", {})),
    "prop-propagate-nx": (("propagator", {"eager": "propagate", "components": "networkx"}),
                          ("propagator", {})),
    "prop-all": (("propagator", {"eager": "all"}), ("propagator", {"eager": "all"})),
    "circuit": (("circuit", {}), ("circuit", {})),
    "lazy": (("lazy", {}), ("lazy", {})),
    "asp": (("asp", {}), ("asp", {})),
}
DEFAULT_VARIANTS = "sat,sat-nx,prop-pearlfree,prop-propagate"


def worker() -> None:
    """Answer one JSON request per line with the run's row; what the encodings print goes to stderr."""
    from harness import fingerprint
    from harness.encoding import Limits
    from harness.run.execute import execute
    from harness.sets import resolve

    out, sys.stdout = sys.stdout, sys.stderr
    sets: dict[str, dict] = {}
    # found once, as a sweep's coordinator hands them to its workers: execute() finding them per run
    # reads every kind's sources (27 ms a run), which slowed the small solves after it by about 1 ms
    # (results/graph/HISTORY.md, "Puzzles against the code before issue 32")
    harness_code = fingerprint.harness_scope().as_dict()
    codes: dict[str, dict] = {}
    for line in sys.stdin:
        req = json.loads(line)
        if req["instances"] not in sets:
            sets[req["instances"]] = {i.name: i for i in resolve(req["instances"])}
        instance = sets[req["instances"]][req["name"]]
        if req["encoding"] not in codes:
            codes[req["encoding"]] = fingerprint.scope(req["encoding"]).as_dict()
        row = execute(instance, req["encoding"], req["options"], req["seed"], Limits(time_s=req["time_s"]),
                      code=codes[req["encoding"]], harness_code=harness_code)
        out.write(json.dumps(row, default=str) + "\n")
        out.flush()


class Side:
    """A worker process running one checkout's code."""

    def __init__(self, checkout: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(checkout / ".pp")}
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker"], env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(self, **request) -> dict:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        from harness.extra import row_extra

        row = json.loads(self.proc.stdout.readline())
        return {**row, **row_extra(row)}

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def median(values) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(x, spec: str = ".3f") -> str:
    return "-" if x is None else format(x, spec)


def summary(rows: list[dict]) -> dict:
    ok = [r for r in rows if r["status"] == "solved" and r["verified"] == 1]

    def share(r, minus_callbacks):
        # CPU over CPU where the phases are CPU time (`*_cpu_s`); an older checkout's are wall time
        cpu = "solver_cpu_s" in r
        solver, callback = ("solver_cpu_s", "callback_cpu_s") if cpu else ("solver_s", "callback_s")
        if minus_callbacks and callback not in r:
            return None
        inside = r[solver] - (r.get(callback, 0.0) if minus_callbacks else 0.0)
        return inside / r["solve_cpu_s" if cpu else "solve_s"]

    return {
        "solved": len(ok), "runs": len(rows),
        "solve_s": median(r["solve_s"] for r in ok),
        "in_solve": median(share(r, False) for r in ok),
        "in_sat": median(share(r, True) for r in ok),
        "rounds": median(r.get("check_model_calls", r["iterations"]) for r in ok),
        "build_s": median(r["build_s"] for r in ok),
        "propagations": median(r.get("propagations") for r in ok),
        "reasons": median(r.get("reasons") for r in ok),
    }


def best_ms(fn, repeats: int) -> float:
    """The least CPU time of `repeats` calls of fn, in ms (a pause of the machine lengthens one call)."""
    import time

    out = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        out = min(out, time.process_time() - t0)
    return out * 1000


def instance_parts(puzzle, repeats: int) -> dict[str, float]:
    """Each part of `sat`'s work on one puzzle, in ms of CPU time (see the module docstring)."""
    import time

    from pysat.solvers import Solver

    from loopbench_encodings import loop
    from loopbench_encodings.cegar.solvers import new_solver
    from loopbench_encodings.loop import arrays as arrays_module
    from loopbench_encodings.loop import grid as graph_module
    from loopbench_encodings.loop.cnf import _degree_clauses, degree_clauses, loop_clauses
    from loopbench_encodings.rules import of

    def fresh_arrays():
        graph_module._SHAPES.clear()
        return loop.problem(puzzle).arrays

    problem = loop.problem(puzzle)
    arrays = problem.arrays
    clauses = loop_clauses(puzzle, problem)
    phases = list(range(-1, -arrays.num_edges - 1, -1))
    out = {
        "build: loop problem": best_ms(lambda: loop.problem(puzzle), repeats),
        "build: arrays, shape made": best_ms(fresh_arrays, repeats),
        "build: arrays, shape kept": best_ms(lambda: arrays_module.LoopArrays(problem), repeats),
        "build: degree clauses made": best_ms(lambda: _degree_clauses(arrays.incident_vars, arrays.num_edges),
                                              repeats),
        "build: degree clauses kept": best_ms(lambda: degree_clauses(arrays), repeats),
        "build: rules cnf": best_ms(lambda: of(puzzle.kind).cnf(puzzle, arrays), repeats),
        "build: all clauses (shape kept)": best_ms(lambda: loop_clauses(puzzle, problem), repeats),
        "build: clauses, PySAT bootstrap": best_ms(
            lambda: Solver(name="cadical195", bootstrap_with=clauses).delete(), repeats),
        "build: clauses, straight to CaDiCaL": best_ms(
            lambda: new_solver("cadical195", clauses).delete(), repeats),
    }
    with new_solver("cadical195", clauses) as solver:
        out["build: set_phases"] = best_ms(lambda: solver.set_phases(phases), repeats)
    names = ("round: solve calls", "round: get_model + chosen", "round: walk loops",
             "round: cut clauses (walk included)", "round: add cuts")
    spent = dict.fromkeys(names, 0.0)
    clock = time.process_time
    with new_solver("cadical195", clauses) as solver:
        solver.set_phases(phases)
        while True:
            t0 = clock()
            solver.solve()
            t1 = clock()
            chosen = arrays.chosen(solver.get_model())
            t2 = clock()
            arrays.walk(chosen)
            t3 = clock()
            cuts = arrays.cut_clauses(chosen, "loop")
            t4 = clock()
            for clause in cuts:
                solver.add_clause(clause)
            t5 = clock()
            for key, dt in zip(names, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
                spent[key] += dt * 1000
            if not cuts:
                break
    out.update(spent)
    out["solution string"] = best_ms(lambda: arrays.solution(chosen), repeats)
    return out


def parts(names: list[str], instances: str, repeats: int) -> None:
    """Print the median and the largest over instances of each part of `sat`'s work."""
    from harness.sets import resolve

    by_name = {i.name: i for i in resolve(instances)}
    table: dict[str, list[float]] = {}
    for name in names:
        for key, value in instance_parts(by_name[name].puzzle, repeats).items():
            table.setdefault(key, []).append(value)
    print(f"\n{instances}: {len(names)} instances, sat's parts, ms of CPU time each (best of {repeats})")
    print(f"{'part':<38} {'median':>8} {'max':>8}")
    for key, values in table.items():
        print(f"{key:<38} {statistics.median(values):8.3f} {max(values):8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, help="a checkout of the commit to compare with")
    parser.add_argument("--instances", default="masyu-hard")
    parser.add_argument("--variants", default=DEFAULT_VARIANTS, help=f"from {', '.join(VARIANTS)}")
    parser.add_argument("--repeats", type=int, default=1, help="seeds 0, 1, ... (a non-zero seed shuffles)")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--first", type=int, help="only the first N instances of the set")
    parser.add_argument("--per-instance", action="store_true", help="print each run's solve_s as it ends")
    parser.add_argument("--parts", action="store_true", help="time each part of sat's work (no workers)")
    args = parser.parse_args()
    from harness.sets import resolve

    names = [i.name for i in resolve(args.instances)][: args.first]
    if args.parts:
        parts(names, args.instances, max(args.repeats, 3))
        return
    labels = args.variants.split(",")
    sides = {"new": Side(ROOT)} | ({"old": Side(args.old.resolve())} if args.old else {})
    rows: dict[tuple[str, str], list[dict]] = {(label, side): [] for label in labels for side in sides}
    try:
        for k, name in enumerate(names):
            for seed in range(args.repeats):
                for label in labels:
                    order = list(sides) if k % 2 == 0 else list(reversed(sides))
                    got = {}
                    for side in order:
                        encoding, options = VARIANTS[label][0 if side == "new" else 1]
                        got[side] = sides[side].run(instances=args.instances, name=name, encoding=encoding,
                                                    options=options, seed=seed, time_s=args.time_limit)
                        rows[label, side].append(got[side])
                    if args.per_instance:
                        cells = " ".join(f"{s}={got[s]['solve_s']:.3f}/{got[s]['status']}" for s in sides)
                        print(f"{name:<28} {label:<18} {cells}", flush=True)
    finally:
        for side in sides.values():
            side.close()

    print(f"\n{args.instances}: {len(names)} instances x {args.repeats} seed(s), limit {args.time_limit:g} s")
    head = ("variant", "side", "solved", "solve_s", "in solve", "in SAT", "rounds", "build_s", "props",
            "reasons", "new/old")
    print("{:<18} {:<4} {:>7} {:>8} {:>8} {:>7} {:>7} {:>8} {:>7} {:>7} {:>8}".format(*head))
    for label in labels:
        ratio = None
        if "old" in sides:
            pairs = zip(rows[label, "new"], rows[label, "old"], strict=True)
            ratio = median(n["solve_s"] / o["solve_s"] for n, o in pairs
                           if all(r["status"] == "solved" and r["verified"] == 1 for r in (n, o)))
        for side in sides:
            s = summary(rows[label, side])
            print(f"{label:<18} {side:<4} {s['solved']:>3}/{s['runs']:<3} {fmt(s['solve_s']):>8} "
                  f"{fmt(s['in_solve'], '.0%'):>8} {fmt(s['in_sat'], '.0%'):>7} {fmt(s['rounds'], 'g'):>7} "
                  f"{fmt(s['build_s']):>8} {fmt(s['propagations'], 'g'):>7} {fmt(s['reasons'], 'g'):>7} "
                  f"{fmt(ratio if side == 'new' else None, '.2f'):>8}")


if __name__ == "__main__":
    worker() if sys.argv[1:] == ["--worker"] else main()
