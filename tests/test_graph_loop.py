"""The loop strategies on general graphs: every Hamiltonian cycle counted, against brute force.

Each strategy is asked again and again with the answers found so far excluded, until it says
unsat; the answers, judged by the graph kind's checker, must be exactly the cycles a plain
search over vertex orders finds. High-degree vertices (a wheel's hub) exercise the cardinality
encoding of "degree 0 or 2", and a vertex of degree 1 the up-front unsat with its reason.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from harness import kinds, registry, sets
from harness.encoding import Limits
from harness.instances import Instance
from harness.kinds.graph.model import Graph, solution_string
from harness.presets import PRESETS
from harness.run.execute import execute

# Configurations as `harness.run --encoding` takes them, resolved for graphs (`sat` is its graph default);
# every preset serving graphs is among them, and `sat-plain` is `sat`'s plain defaults, the cut families'
STRATEGIES = [("circuit", {}), ("lazy", {}), ("lazy", {"cuts": "cutset"}), ("sat", {}), ("sat-plain", {}),
              ("sat-plain", {"cuts": "cutset"}), ("sat-plain", {"cuts": "disc"}),
              ("sat-plain", {"components": "networkx"}), *((p, {}) for p in PRESETS if p != "sat-plain"),
              ("propagator", {}),
              ("propagator", {"eager": "all"}), ("propagator", {"cuts": "cutset"}), ("asp", {}), ("dfs", {}),
              ("eager", {}), ("eager", {"order": "crt"}), ("eager", {"solver": "glucose42"}),
              ("eager", {"amo": "product"}), ("frontier", {}), ("frontier", {"order": "given"}),
              ("frontier", {"order": "rcm"}), ("mip", {}), ("mip", {"separate": "integral"})]
LIMITS = Limits(time_s=60.0)


def graph(n: int, edges) -> Graph:
    return Graph(n, tuple(edges))


def cycle(n: int) -> Graph:
    return graph(n, [(i, (i + 1) % n) for i in range(n)])


def complete(n: int) -> Graph:
    return graph(n, itertools.combinations(range(n), 2))


def wheel(rim: int) -> Graph:
    """A hub (vertex 0, degree `rim`) joined to every vertex of a rim cycle."""
    return graph(rim + 1, [(0, i) for i in range(1, rim + 1)] + [(i, i % rim + 1) for i in range(1, rim + 1)])


def petersen_like(n: int, k: int) -> Graph:
    """The generalized Petersen graph GP(n, k)."""
    return graph(2 * n, [(i, (i + 1) % n) for i in range(n)] + [(i, n + i) for i in range(n)]
                 + [(n + i, n + (i + k) % n) for i in range(n)])


def grid(rows: int, cols: int) -> Graph:
    right = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
    down = [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
    return graph(rows * cols, right + down)


GRAPHS = {
    "C7": cycle(7), "K4": complete(4), "K5": complete(5), "K6": complete(6), "wheel7": wheel(7),
    "wheel10": wheel(10), "petersen": petersen_like(5, 2), "prism4": petersen_like(4, 1),
    "GP(6,2)": petersen_like(6, 2), "grid3x4": grid(3, 4), "grid3x3": grid(3, 3), "grid4x4": grid(4, 4),
}


def brute_force(g: Graph) -> set[str]:
    """Every Hamiltonian cycle, by trying each order of the vertices after vertex 0 (n <= 16 here)."""
    adjacent, found = g.edge_set, set()
    for rest in itertools.permutations(range(1, g.n)):
        if rest[0] > rest[-1]:
            continue  # each cycle once: its two directions are the same answer
        order = (0, *rest)
        pairs = [tuple(sorted((order[i], order[(i + 1) % g.n]))) for i in range(g.n)]
        if all(p in adjacent for p in pairs):
            found.add(solution_string(g.n, pairs))
    return found


def configured(name: str, options: dict):
    """The configuration `name` with `options` on top, resolved for graphs as a sweep resolves it."""
    found = registry.entry(name)
    found = replace(found, given={**found.given, **options})
    return registry.encodings()[found.encoding].made(found.resolve("graph").options)


def all_answers(name: str, options: dict, g: Graph) -> set[str]:
    encoding = configured(name, options)
    encoding.prepare()
    found: list[str] = []
    while True:
        out = encoding.solve(g, LIMITS, 0, tuple(found))
        if out.status != "sat":
            assert out.status == "unsat", (name, options, out.stats.get("reason"))
            return set(found)
        assert not kinds.check(g, out.solution), out.solution
        assert out.solution not in found
        found.append(out.solution)


@pytest.mark.parametrize("label", [k for k, g in GRAPHS.items() if g.n <= 10 or k == "grid4x4"])
def test_every_strategy_finds_every_hamiltonian_cycle(label):
    g = GRAPHS[label]
    expected = brute_force(g) if g.n <= 11 else None
    for name, options in STRATEGIES:
        got = all_answers(name, options, g)
        if expected is None:
            expected = got
        assert got == expected, (label, name, options, len(got), len(expected))


@pytest.mark.parametrize("label", [k for k, g in GRAPHS.items() if g.n <= 10])
def test_fix_keeps_every_hamiltonian_cycle(label):
    """`loop.fix`'s forced edges are in every answer, its forbidden ones in none, and it finds no answer
    only where there is none (what `fix=true`, in `sat`'s graph default, gives the solver as units)."""
    from loopbench_encodings import loop
    from loopbench_encodings.loop.fix import fixed_edges

    g = GRAPHS[label]
    problem = loop.problem(g)
    fixed = fixed_edges(problem)
    answers = [set(problem.edge_ids(s)) for s in brute_force(g)]
    assert bool(fixed.reason) <= (not answers), (label, fixed.reason)
    for edges in answers:
        assert set(fixed.on) <= edges and not set(fixed.off) & edges, label


def test_the_counts_are_the_known_ones():
    counts = {k: len(brute_force(g)) for k, g in GRAPHS.items() if g.n <= 10}
    # K_n has (n-1)!/2 Hamiltonian cycles; a wheel with r rim vertices has r; Petersen none.
    assert counts["K4"] == 3 and counts["K5"] == 12 and counts["K6"] == 60
    assert counts["wheel7"] == 7 and counts["C7"] == 1 and counts["petersen"] == 0
    assert counts["grid3x3"] == 0  # 9 vertices, bipartite with sides 5 and 4


def test_a_vertex_of_degree_one_is_unsat_with_its_reason():
    g = graph(5, [(0, 1), (1, 2), (2, 3), (3, 0), (2, 4)])  # vertex 5 (0-based 4) hangs off vertex 3
    for name, options in STRATEGIES:
        row = execute(Instance("pendant", "<pendant>", g), name, options, 0, LIMITS)
        assert row["status"] == "unsat", (name, row["detail"])
        assert "vertex 5 has degree 1" in row["detail"], (name, row["detail"])


@pytest.mark.parametrize("name", sorted({n for n, _ in STRATEGIES}))
def test_graph_smoke_answers_agree_with_the_known_ones(name):
    for inst in sets.resolve("graph-smoke"):
        row = execute(inst, name, {}, 0, LIMITS)
        expected = {"sat": "solved", "unsat": "unsat"}[inst.known_answer]
        assert row["status"] == expected, (inst.name, name, row["status"], row["detail"])


def test_unique_on_graphs():
    cases = {"C7": 1, "K4": 0, "wheel7": 0}
    for name, options in STRATEGIES:
        for label, unique in cases.items():
            row = execute(Instance(label, f"<{label}>", GRAPHS[label]), name, options, 0, LIMITS, unique=True)
            assert row["status"] == "solved" and row["unique"] == unique, (label, name, options)


@pytest.mark.parametrize("d", range(2, 8))
def test_the_degree_registers_allow_exactly_zero_or_two_edges_and_propagate(d):
    """A vertex of degree d above the direct clauses: every assignment of its d edges against the
    clauses (0 or 2 on, nothing else), and unit propagation as strong as the direct clauses'."""
    from pysat.solvers import Solver

    from loopbench_encodings.loop.cnf import _zero_or_two

    clauses: list[list[int]] = []
    top = _zero_or_two(tuple(range(1, d + 1)), d, clauses.extend)
    assert top == 3 * d - 2 and {abs(x) for c in clauses for x in c} == set(range(1, top + 1))
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for bits in itertools.product((0, 1), repeat=d):
            lits = [i + 1 if b else -(i + 1) for i, b in enumerate(bits)]
            assert solver.solve(assumptions=lits) == (sum(bits) in (0, 2)), bits
        for j in range(d):  # every other edge off: this one off too
            ok, implied = solver.propagate(assumptions=[-(i + 1) for i in range(d) if i != j])
            assert ok and -(j + 1) in implied
        ok, implied = solver.propagate(assumptions=[1, d])  # two on: the others off
        assert ok and all(-(i + 1) in implied for i in range(1, d - 1))
