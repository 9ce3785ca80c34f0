"""Each puzzle kind's rules for the solver backends: found by kind, checked against declared protocols.

A loop kind's rules (masyu, slitherlink) give the loop problem and its local rules once per
backend, for the loop strategies of `loopbench_encodings.loop` (`LoopRules`); a kind without a
loop (walls, marupeke) gives its whole model per backend (`WholeRules`). A strategy serves the
kinds whose rules have what it needs (`kinds_with`); a kind's rules name no strategy, and no
strategy names a kind. The rules of a kind live in its own folder (`harness/kinds/<kind>/rules.py`,
returned by `Kind.rules()`), a plug-in's too; this package holds only the protocols and the
lookup. Rules are checked when first looked up: a module with part of a protocol's required
members is an error naming what it lacks, never a kind silently served by fewer strategies.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any, Protocol


class LoopRules(Protocol):
    """A loop kind's rules: what every loop strategy needs (circuit, lazy, sat, propagator)."""

    def loop_problem(self, puzzle: Any) -> Any:
        """The `loop.LoopProblem`: the graph, the vertices the loop must visit, edge groups it must use."""

    def cpsat(self, puzzle: Any, m: Any) -> None:
        """The local rules on a `loop.cpsat.LoopModel` (`m.model`, `m.x`, `m.on`, `m.edge`)."""

    def cnf(self, puzzle: Any, arrays: Any) -> list[list[int]]:
        """The local rules as clauses; variable i + 1 is edge i. Auxiliary variables come from
        `arrays.new_variables(count)` (`loop.arrays.LoopArrays`), never from a number of the rules' own."""


class LoopRulesOptional(Protocol):
    """What a loop kind's rules may add; each missing member means "none" (or the strategy passes it by)."""

    def asp(self, puzzle: Any) -> str:
        """The local rules in ASP over `loop.asp`'s program (`on/2`, `link/2`, `loop/1`, `next/3`):
        without it, `asp` does not serve the kind."""

    def cpsat_implied(self, puzzle: Any, m: Any) -> None:
        """Constraints implied by the rules, for CP-SAT (`implied=true`)."""

    def cnf_implied(self, puzzle: Any, arrays: Any) -> list[list[int]]:
        """The same as clauses."""

    def asp_implied(self, puzzle: Any) -> str:
        """The same in ASP."""

    def implied_clauses(self, puzzle: Any) -> list[list[int]]:
        """Implied constraints as clauses over the edges only, which every backend takes alike."""

    def cnf_covers_demands(self, puzzle: Any) -> bool:
        """Whether `cnf` already holds a subset of every required-vertex and `hits` clause."""

    cycle_only: bool  # True: the loop problem is the whole puzzle (every vertex, no local rules)


class WholeRules(Protocol):
    """A kind without a loop: its whole model, per backend. Each backend's three come together."""

    def cpsat(self, puzzle: Any, model: Any) -> Any:
        """Build the model on a CpModel; return its variables."""

    def cpsat_solution(self, puzzle: Any, variables: Any, solver: Any) -> str: ...

    def cpsat_exclude(self, puzzle: Any, model: Any, variables: Any, solution: str) -> None: ...

    def cnf(self, puzzle: Any, pool: Any) -> list[list[int]]:
        """The whole CNF over a PySAT IDPool."""

    def cnf_solution(self, puzzle: Any, pool: Any, model: list[int]) -> str: ...

    def cnf_exclude(self, puzzle: Any, pool: Any, solution: str) -> list[int]: ...


def members(protocol: type) -> tuple[str, ...]:
    """A protocol's members, as declared (methods and annotated attributes), in declaration order."""
    names = [n for n in vars(protocol) if not n.startswith("_")]
    names += [n for n in getattr(protocol, "__annotations__", {}) if n not in names]
    return tuple(names)


LOOP = members(LoopRules)
LOOP_OPTIONAL = members(LoopRulesOptional)
WHOLE_GROUPS = (("cpsat", "cpsat_solution", "cpsat_exclude"), ("cnf", "cnf_solution", "cnf_exclude"))


def problems(module: Any) -> list[str]:
    """What a rules module lacks of the protocol it starts to meet: a loop kind's (it has
    `loop_problem`) needs every member of `LoopRules`; a whole model's, each backend's three together."""
    has = {n for n in (*LOOP, *LOOP_OPTIONAL, *sum(WHOLE_GROUPS, ())) if hasattr(module, n)}
    if "loop_problem" in has:
        return [f"LoopRules needs {n}" for n in LOOP if not callable(getattr(module, n, None))]
    out = []
    for group in WHOLE_GROUPS:
        if has.intersection(group[1:]):
            out += [f"WholeRules needs {n} beside {group[1]}" for n in group if n not in has]
    return out


@cache
def of(kind: str) -> ModuleType | None:
    """The rules module of a puzzle kind (`Kind.rules()`), or None when it has none or is unknown.

    Checked (`problems`): a TypeError names the kind, the module and what it lacks.
    """
    from harness import kinds

    found = kinds.kinds().get(kind)
    module = found.rules() if found is not None else None
    if module is not None and (missing := problems(module)):
        raise TypeError(f"the rules of puzzle kind {kind!r} ({getattr(module, '__name__', module)}) "
                        f"are incomplete: {'; '.join(missing)} (encodings/rules/__init__.py)")
    return module


def kinds_with(*names: str) -> tuple[str, ...]:
    """The puzzle kinds whose rules module defines every one of `names` (a strategy's `puzzles`)."""
    from harness import kinds

    return tuple(k for k in kinds.kinds() if (m := of(k)) is not None and all(hasattr(m, n) for n in names))
