"""The loop problem as one CP-SAT model, and the solver plumbing the CP-SAT strategies share.

Variables: a bool per edge (on the loop) and a bool per vertex (the loop visits it).
Constraints: the edges at a vertex sum to 2·on (degree 0 or 2); every required vertex is on;
every `hits` group has an edge on; a problem with neither asks for some vertex on; then the
kind's local rules (`rules.<kind>.cpsat`). The single loop is not enforced here: `circuit` adds
AddCircuit, `lazy` adds cuts between solves.
`Session` holds one CpSolver, sets the shared options (num_workers, linearization_level,
search_branching, random_seed), spends one time budget over any number of solves, sums their
statistics and maps CP-SAT's statuses to the encoding statuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.encoding import SAT, UNKNOWN, UNSAT, Clock, Encoding, cpu_time
from harness.options import Option
from loopbench_encodings import loop, rules
from loopbench_encodings.loop import LoopProblem


@dataclass
class LoopModel:
    """A CP-SAT model of the loop problem's local rules: edge bools by index (`x`), on-loop bools by
    vertex (`on`), and `edge`, the edge bools by the names the kind's rules use (a pair of cells)."""

    model: Any  # ortools.sat.python.cp_model.CpModel
    x: list[Any]
    on: list[Any]
    edge: dict[Any, Any]

    def chosen(self, solver: Any) -> list[int]:
        """The edges (by index) set in the solver's last solution."""
        value = solver.boolean_value
        return [i for i, x in enumerate(self.x) if value(x)]

    def add_clause(self, clause: list[int]) -> None:
        """A cut or an excluded answer (`loop.cuts`: literal i + 1 is edge i on, -(i + 1) off)."""
        self.model.add_bool_or([self.x[lit - 1] if lit > 0 else ~self.x[-lit - 1] for lit in clause])


def build(puzzle: Any, problem: LoopProblem) -> LoopModel:
    """Everything but "one loop" for `puzzle`, as a fresh CpModel."""
    from ortools.sat.python import cp_model

    graph = problem.graph
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"e{i}") for i in range(graph.num_edges)]
    on = [model.new_bool_var(f"on{v}") for v in range(graph.num_vertices)]
    for v, here in enumerate(graph.incident):
        model.add(sum(x[i] for i in here) == 2 * on[v])
    for v in problem.required:
        model.add_bool_or([on[v]])
    for group in problem.hits:
        model.add_bool_or([x[i] for i in group])
    if not problem.required and not problem.hits:
        model.add_bool_or(on)
    m = LoopModel(model, x, on, dict(zip(graph.names, x, strict=True)))
    rules.of(puzzle.kind).cpsat(puzzle, m)
    return m


def _branching_name(name: str) -> str:
    _branching(name)
    return name


def _refuse_workers(n: int) -> int:
    raise ValueError(f"num_workers must be at least 1, got {n}")


class CpSatEncoding(Encoding):
    """Base of the CP-SAT loop strategies: the kinds they serve, their solver options, checked when made."""

    puzzles = loop.kinds()
    excludes = True
    imports = ("ortools.sat.python.cp_model",)
    declared = (
        # 0 means "all cores" to CP-SAT, which makes results depend on the machine
        Option("num_workers", 1, "CP-SAT's search workers (at least 1: 0, all cores, would make results "
               "depend on the machine)", check=lambda n: n if n >= 1 else _refuse_workers(n)),
        # 0 on graphs too: the best single setting measured there (results/graph/README.md, "CP-SAT on
        # graphs", with the sweeps of `lp.sqlite` before it); 1 proves parity-bound graphs (preset circuit-lp)
        Option("linearization_level", 0, "CP-SAT's LP relaxation: 0 none (why 0 is the default: "
               "results/HISTORY.md), 1 or 2 more", by_kind={"graph": 0}),
        Option("search_branching", "PORTFOLIO_WITH_QUICK_RESTART_SEARCH", "CP-SAT's search_branching "
               "(any of SatParameters.SearchBranching's names)", check=_branching_name),
    )


def _branching(name: str) -> Any:
    from ortools.sat.python import cp_model_helper

    members = cp_model_helper.SatParameters.SearchBranching.__members__
    if name not in members:
        raise ValueError(f"unknown search_branching {name!r} (choose from {', '.join(members)})")
    return members[name]


class Session:
    """One CpSolver with one CPU-time budget, solving a model once or many times and summing statistics."""

    def __init__(self, options: dict[str, Any], seed: int, clock: Clock) -> None:
        from ortools.sat.python import cp_model

        self.solver = cp_model.CpSolver()
        params = self.solver.parameters
        params.num_workers = options["num_workers"]
        params.linearization_level = options["linearization_level"]
        params.search_branching = _branching(options["search_branching"])
        params.random_seed = seed
        self.clock = clock
        self.statuses = {
            cp_model.OPTIMAL: SAT,  # a model without objective is OPTIMAL once a solution is found
            cp_model.FEASIBLE: SAT,
            cp_model.INFEASIBLE: UNSAT,
            cp_model.UNKNOWN: UNKNOWN,  # time ran out (or another limit) before a verdict
        }
        self.iterations = 0
        self.conflicts = 0
        self.deterministic_time = 0.0
        self.solver_s = 0.0
        self.reason = ""

    def solve(self, model: Any) -> str:
        """Solve with whatever time is left; `unknown` when none is, or when CP-SAT gives up."""
        if self.clock.expired():
            self.reason = "time limit reached before the solver ran"
            return UNKNOWN
        # CP-SAT's own limit is wall time; the budget is CPU time, so a watchdog stops the search.
        start = cpu_time()
        with self.clock.watch(self.solver.stop_search):
            status = self.solver.solve(model)
        self.solver_s += cpu_time() - start
        self.iterations += 1
        self.conflicts += self.solver.num_conflicts
        self.deterministic_time += self.solver.deterministic_time
        if status not in self.statuses:
            raise RuntimeError(f"CP-SAT returned status {self.solver.status_name(status)}")
        if self.statuses[status] == UNKNOWN:
            self.reason = f"CP-SAT stopped with UNKNOWN after {self.solver.wall_time:.3f} s"
        return self.statuses[status]

    def stats(self) -> dict[str, Any]:
        out = {
            "iterations": self.iterations,
            "conflicts": self.conflicts,
            "deterministic_time": self.deterministic_time,
            "num_workers": self.solver.parameters.num_workers,
            "solver_cpu_s": self.solver_s,
        }
        if self.reason:
            out["reason"] = self.reason
        return out
