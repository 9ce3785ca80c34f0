"""sat's published-CEGAR options: `fix` (forced edges), `join` (sub-loops joined; `merge`), `arcs` (the arc
model), `directed` (cut-sets over the arcs).

Each keeps every answer and adds none: the fixed edges agree with an answer found without them, a
joined loop is an answer only when the checker says so, the directed cuts hold for every Hamiltonian
cycle walked either way, and every option answers the smoke sets (graphs and puzzles) with answers
the independent checker accepts and the known verdicts.
"""

from __future__ import annotations

import json
import random

import pytest
from helpers import bundled

from harness import kinds, registry, sets
from harness.encoding import Limits
from harness.kinds.graph.model import Graph
from harness.options import every_option
from harness.proof.certify import CERTIFIED
from harness.run.execute import execute
from loopbench_encodings import loop
from loopbench_encodings.loop.arcs import PAIRWISE_MAX, arc_batches, arc_clauses, arc_top, directed_cuts
from loopbench_encodings.loop.fix import fixed_edges
from loopbench_encodings.loop.join import join, merge

LIMITS = Limits(time_s=30.0)


def plain_run(instance, options: dict) -> dict:
    """`sat` with these options over its plain defaults, on graphs too (whose own defaults are the CEGAR
    configuration's), resolved for the instance's kind as a sweep resolves them (one idle there left out)."""
    entry = registry.Entry("sat", "sat", options, every_option(registry.encodings()["sat"]))
    resolved = entry.resolve(instance.kind, strict=False).options
    return execute(instance, "sat", resolved, 0, LIMITS, resolved=True)


@pytest.mark.parametrize("instance", sets.instances("graph-smoke"), ids=lambda i: i.name)
def test_fixed_edges_agree_with_an_answer_found_without_them(instance):
    problem = loop.problem(instance.puzzle)
    fixed = fixed_edges(problem)
    outcome = registry.create("sat").solve(instance.puzzle, LIMITS, 0)
    if fixed.reason:
        assert outcome.status == "unsat"
        return
    if outcome.status == "sat":
        used = set(problem.edge_ids(outcome.solution))
        assert used.issuperset(fixed.on) and used.isdisjoint(fixed.off)


def test_a_cycle_graph_is_fixed_whole_and_a_pendant_vertex_is_no_answer():
    cycle = loop.problem(bundled("graph-cycle-12-s2026-000", "graph-smoke").puzzle)
    assert fixed_edges(cycle).on == list(range(12))
    pendant = fixed_edges(loop.problem(bundled("graph-pendant-15-s2026-000", "graph-smoke").puzzle))
    assert "1 edge left" in pendant.reason and not pendant.on


def test_two_triangles_of_a_prism_join_into_its_hamiltonian_cycle():
    problem = loop.problem(bundled("graph-prism-6-s2026-000", "graph-smoke").puzzle)
    arrays = problem.arrays
    loops = [[0, 2, 4], [1, 3, 5]]
    for triangle in loops:
        assert all(arrays.between(a, b) >= 0 for a in triangle for b in triangle if a < b)
    edges = join(arrays, loops, "2opt")
    assert edges is not None and len(edges) == 6
    (vertices, _), = arrays.walk(edges)
    assert sorted(vertices) == list(range(6))  # one loop through all six vertices
    assert join(arrays, [[0, 2, 4]], "2opt") is None  # one loop: nothing to join


def test_merge_joins_what_it_can_and_gives_the_loops_left(tmp_path):
    # squares 1-2-3-4 and 5-6-7-8 with rungs 1-5 and 2-6 (a 2-opt move), a triangle 9-10-11 hung on 3-9
    edges = [(1, 2), (2, 3), (3, 4), (4, 1), (5, 6), (6, 7), (7, 8), (8, 5), (1, 5), (2, 6),
             (9, 10), (10, 11), (11, 9), (3, 9)]
    graph = tmp_path / "merge.col"  # DIMACS
    graph.write_text(f"p edge 11 {len(edges)}\n" + "".join(f"e {u} {v}\n" for u, v in edges))
    arrays = loop.problem(kinds.read_spec(str(graph))).arrays
    loops = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10]]  # vertices from 0
    assert join(arrays, loops, "2opt") is None  # join gives up at the triangle, the smallest loop
    one, left = merge(arrays, loops)
    assert one is None and sorted(map(sorted, left)) == [list(range(8)), [8, 9, 10]]
    (cut,) = [[i + 1 for i in arrays.boundary(vertices)] for vertices in left[:1]]
    assert cut == [arrays.between(2, 8) + 1]  # the merged squares' cut-set: the edge to the triangle
    prism = loop.problem(bundled("graph-prism-6-s2026-000", "graph-smoke").puzzle).arrays
    one, left = merge(prism, [[0, 2, 4], [1, 3, 5]])
    assert one is not None and len(one) == 6 and len(left) == 1


def _merge_by_every_walk(arrays, loops):
    """`merge` as first written, the oracle: every loop not stuck walked in full, smallest first."""
    where, nb = [-1] * arrays.num_vertices, {}
    members = [list(vertices) for vertices in loops]
    for k, vertices in enumerate(members):
        for j, v in enumerate(vertices):
            where[v], nb[v] = k, [vertices[j - 1], vertices[(j + 1) % len(vertices)]]
    alive, stuck = set(range(len(loops))), set()
    while len(alive) > 1 and (free := alive - stuck):
        small = min(free, key=lambda k: (len(members[k]), k))
        move = next(((a, b, c, d) for a in members[small] for b in nb[a]
                     for c in (w for i in arrays.incident[a] for w in arrays.ends[i] if w != a)
                     if where[c] >= 0 and where[c] != small
                     for d in nb[c] if arrays.between(b, d) >= 0), None)
        if move is None:
            stuck.add(small)
            continue
        a, b, c, d = move
        other = where[c]
        for v, old, new in ((a, b, c), (b, a, d), (c, d, a), (d, c, b)):
            nb[v][nb[v].index(old)] = new
        for v in members[small]:
            where[v] = other
        members[other] += members[small]
        members[small] = []
        alive.discard(small)
        stuck.discard(other)
    return [members[k] for k in sorted(alive)]


def test_merge_finds_the_moves_of_a_walk_of_every_loop_on_random_graphs(tmp_path):
    # merge skips partners that a stuck loop's walk already ruled out; what it joins must not change
    rng = random.Random(32)
    for trial in range(60):
        n = rng.randrange(12, 60)
        order = rng.sample(range(n), n)
        loops, start = [], 0
        while n - start >= 3:
            size = min(rng.randrange(3, 9), n - start)
            size = n - start if n - start - size < 3 else size
            loops.append(order[start:start + size])
            start += size
        edges = {tuple(sorted((vs[j - 1], vs[j]))) for vs in loops for j in range(len(vs))}
        while rng.random() > 0.15 / len(loops) + 0.02:  # extra edges: a few per loop
            u, v = rng.sample(range(n), 2)
            edges.add((min(u, v), max(u, v)))
        graph = tmp_path / f"random-{trial}.col"
        lines = "".join(f"e {u + 1} {v + 1}\n" for u, v in sorted(edges))
        graph.write_text(f"p edge {n} {len(edges)}\n{lines}")
        arrays = loop.problem(kinds.read_spec(str(graph))).arrays
        _, left = merge(arrays, loops)
        assert left == _merge_by_every_walk(arrays, loops), trial


def test_directed_cuts_list_the_boundary_arcs_in_vertex_then_incidence_order():
    arrays = loop.problem(bundled("graph-prism-6-s2026-000", "graph-smoke").puzzle).arrays
    for inside in ([0], [0, 2, 4], [5, 1], [3, 0, 1, 4]):
        leaving, entering = [], []
        for v in sorted(inside):
            for i in arrays.incident[v]:
                u, w = arrays.ends[i]
                if u not in inside or w not in inside:
                    leaving.append(100 + 2 * i + (1 if u == v else 2))
                    entering.append(100 + 2 * i + (2 if u == v else 1))
        assert directed_cuts(arrays, 100, inside) == [leaving, entering]


def test_directed_cuts_hold_for_every_hamiltonian_cycle_either_way():
    from itertools import combinations, permutations

    arrays = loop.problem(bundled("graph-prism-6-s2026-000", "graph-smoke").puzzle).arrays
    n, first = arrays.num_vertices, 100
    cycles = []
    for rest in permutations(range(1, n)):
        walk = (0, *rest)
        if all(arrays.between(walk[k], walk[(k + 1) % n]) >= 0 for k in range(n)):
            cycles.append(walk)
    assert cycles  # the prism is Hamiltonian; both directions of each cycle are among the walks
    for walk in cycles:
        arcs = set()
        for k in range(n):
            u, w = walk[k], walk[(k + 1) % n]
            i = arrays.between(u, w)
            arcs.add(first + 2 * i + (1 if arrays.ends[i][0] == u else 2))
        for size in range(1, n):
            for inside in combinations(range(n), size):
                for clause in directed_cuts(arrays, first, inside):
                    assert arcs.intersection(clause), (walk, inside)


@pytest.mark.parametrize("options", [{"fix": "true"}, {"join": "2opt"}, {"join": "3opt"}, {"arcs": "true"},
                                     {"arcs": "asymmetry"}, {"join": "merge"},
                                     {"arcs": "true", "fix": "true", "join": "3opt", "cuts": "cutset"},
                                     {"directed": "true", "arcs": "true", "join": "merge", "fix": "true",
                                      "phase": "solver"},
                                     {"arcs": "asymmetry", "degree": "free"},
                                     {"arcs": "true", "degree": "auto", "join": "merge", "fix": "true"},
                                     {"directed": "true", "arcs": "true", "join": "merge", "fix": "true",
                                      "phase": "solver", "degree": "free"}],
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("collection", ["graph-smoke", "masyu-smoke", "slither-smoke"])
def test_every_option_answers_the_smoke_sets_and_the_checker_accepts(collection, options):
    for instance in sets.instances(collection):
        row = plain_run(instance, options)
        assert row["status"] in ("solved", "unsat"), instance.name
        if row["status"] == "solved":
            assert row["verified"] == 1, instance.name
        if instance.known_answer:  # a graph's theorem: Hamiltonian or not
            assert (row["status"] == "solved") == (instance.known_answer == "sat"), instance.name
        elif instance.known_solution:  # a puzzle with its answer: one answer, so found
            assert row["status"] == "solved", instance.name
        assert f'"{next(iter(options))}"' in row["options"]  # recorded in the options column


def test_fix_and_directed_cannot_log_a_proof_and_the_propagator_does_not_join():
    with pytest.raises(ValueError, match="fix=true"):
        registry.create("sat", fix="true", proof="true")
    with pytest.raises(ValueError, match="directed=true"):
        registry.create("sat", directed="true", arcs="true", proof="true")
    with pytest.raises(ValueError, match="needs arcs"):
        registry.create("sat", directed="true")
    with pytest.raises(ValueError, match="degree=free needs arcs"):
        registry.create("sat", degree="free")
    with pytest.raises(ValueError, match="cache=degree"):
        registry.create("sat", degree="free", arcs="true", cache="degree")
    with pytest.raises(ValueError, match="degree=auto needs arcs"):
        registry.create("sat", degree="auto")
    with pytest.raises(ValueError, match="join"):
        registry.create("propagator", join="2opt")


def test_degree_auto_runs_free_or_all_by_the_graphs_degree_2_share_and_says_which_first():
    """A cubic graph (no vertex of degree 2): `free`, the same search as `degree=free` with the seed; the
    same graph with every edge subdivided (3/5 of its vertices of degree 2): `all`, the same search as
    `degree=all`; a puzzle: `all`.
    The choice is reported before the search, so a run stopped past its limit keeps it."""
    from loopbench_encodings.sat import AUTO_FREE_UP_TO_SHARE2

    cubic = next(i for i in sets.resolve("graph-smoke") if i.name == "graph-cubic-60-s2026-000").puzzle
    assert all(len(a) == 3 for a in cubic.neighbours)
    n = cubic.n
    subdivided = Graph(n + len(cubic.edges), tuple(pair for i, (u, v) in enumerate(cubic.edges)
                                                   for pair in ((u, n + i), (n + i, v))))
    assert sum(len(a) == 2 for a in subdivided.neighbours) / subdivided.n > AUTO_FREE_UP_TO_SHARE2
    base = {"arcs": "true", "join": "merge", "fix": "true", "prepass": "off", "split": "off"}

    def solve(graph, degree, reported=None):
        encoding = registry.create("sat", **base, degree=degree)
        encoding.prepare()
        limits = Limits(time_s=30.0, progress=None if reported is None else reported.append)
        return encoding.solve(graph, limits, 3)

    reported: list[dict] = []
    auto = solve(cubic, "auto", reported)
    assert auto.stats["degree_auto"] == "free" and reported[0] == {"degree_auto": "free"}
    assert all(r["degree_auto"] == "free" for r in reported)
    free, every = solve(cubic, "free"), solve(cubic, "all")
    assert auto.stats["conflicts"] == free.stats["conflicts"] != every.stats["conflicts"]
    assert solve(subdivided, "auto").stats["degree_auto"] == "all"
    # a Hamiltonian one: every third edge of a Hamiltonian cycle of the cubic graph subdivided (1/4 of
    # its vertices of degree 2): `all`, the same search as `degree=all`, not `free`'s
    cycle = [int(v) - 1 for v in solve(cubic, "all").solution.split()]
    cut = {frozenset((cycle[i], cycle[(i + 1) % n])) for i in range(0, n, 3)}
    kept = tuple(e for e in cubic.edges if frozenset(e) not in cut)
    partly = Graph(n + len(cut), kept + tuple(pair for i, (u, v) in enumerate(sorted(map(sorted, cut)))
                                              for pair in ((u, n + i), (n + i, v))))
    chose_all = solve(partly, "auto")
    assert chose_all.status == "sat" and chose_all.stats["degree_auto"] == "all"
    assert chose_all.stats["conflicts"] == solve(partly, "all").stats["conflicts"] != \
        solve(partly, "free").stats["conflicts"]
    masyu = sets.instances("masyu-smoke")[0]
    row = plain_run(masyu, {"arcs": "true", "degree": "auto"})
    assert row["status"] == "solved" and json.loads(row["extra"])["degree_auto"] == "all"


def test_merged_cuts_pass_the_proof_checkers_cut_check():
    # the non-Hamiltonian smoke graphs, sat with `join=merge` logging a proof: every cut of a union of
    # loops is checked as a cut by harness.proof, and the unsat answer is certified
    merged = 0
    for instance in sets.instances("graph-smoke"):
        if instance.known_answer != "unsat" or loop.refuse(loop.problem(instance.puzzle), 0.0):
            continue  # Hamiltonian, or refused before any solve (a vertex of degree 1): no proof to log
        row = plain_run(instance, {"join": "merge", "proof": "true"})
        extra = json.loads(row["extra"])
        assert row["status"] == "unsat" and extra["proof"] == CERTIFIED, instance.name
        merged += extra["merged"]
    assert merged > 0  # some cut was of loops merged into one


def one_list_of_arc_clauses(arrays, first):
    """`loop.arcs`' clauses as its docstring states them, in one list, the way it made them before its
    batches: each edge's four, then at every vertex its arcs out and its arcs in (edge order), one of
    them where required, at most one of them (pairwise, or `pysat.card`'s sequential counter)."""
    from pysat.card import CardEnc, EncType

    out, top = [], first + 2 * arrays.num_edges
    outs = [[] for _ in range(arrays.num_vertices)]
    ins = [[] for _ in range(arrays.num_vertices)]
    for i, (u, v) in enumerate(arrays.ends):
        e, forth, back = i + 1, first + 2 * i + 1, first + 2 * i + 2
        out += [[-e, forth, back], [e, -forth], [e, -back], [-forth, -back]]
        outs[u].append(forth)
        ins[v].append(forth)
        outs[v].append(back)
        ins[u].append(back)
    for v in range(arrays.num_vertices):
        for lits in (outs[v], ins[v]):
            if arrays.is_required[v]:
                out.append(lits)
            if len(lits) <= PAIRWISE_MAX:
                out += [[-a, -b] for k, a in enumerate(lits) for b in lits[k + 1:]]
            else:
                most = CardEnc.atmost(lits, bound=1, top_id=top, encoding=EncType.seqcounter)
                out += most.clauses
                top = most.nv
    return out, top


@pytest.mark.parametrize("puzzle", [Graph(9, tuple((u, v) for u in range(9) for v in range(u + 1, 9))),
                                    bundled("graph-knight-36-s2026-000", "graph-smoke").puzzle,
                                    bundled("janko071").puzzle], ids=["K9", "knight-36", "masyu-janko071"])
def test_the_arc_clauses_come_in_batches_that_add_up_to_the_one_list(puzzle):
    """The same clauses in the same order, so `sat:arcs=true`, `propagator`, `connect` and `eager` search
    as before; K9's degree 8 takes counters, a Masyu grid has vertices not required."""
    arrays = loop.problem(puzzle).arrays
    first = 1000
    whole, top = one_list_of_arc_clauses(arrays, first)
    assert arc_clauses(arrays, first) == (whole, top) and arc_top(arrays, first) == top
    assert max(abs(lit) for clause in whole for lit in clause) == top
    for size in (1, 5, 64):
        batches = list(arc_batches(arrays, first, batch=size))
        assert [c for batch in batches for c in batch] == whole
        assert len(batches) > 1 and all(len(batch) < size + 2 * len(arrays.ends) for batch in batches)
    with_asymmetry, _ = arc_clauses(arrays, first, asymmetry=True)
    assert with_asymmetry[:len(whole)] == whole and len(with_asymmetry) > len(whole)


def test_the_luby_sequence():
    from loopbench_encodings.cegar.rebuild import luby

    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@pytest.fixture
def restart_every_round(monkeypatch):
    """`restart=luby` with a unit of one round: a new solver after every round, then on the Luby schedule."""
    from loopbench_encodings.cegar import rebuild

    monkeypatch.setattr(rebuild, "RESTART_ROUNDS", 1)


@pytest.mark.parametrize("options", [{"restart": "luby"}, {"restart": "luby", "colour": "off"},
                                     {"restart": "luby", "directed": "true", "arcs": "true", "join": "merge",
                                      "fix": "true", "phase": "solver"}],
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_restarts_keep_every_answer_of_the_smoke_sets(restart_every_round, options):
    restarts = 0
    for collection in ("graph-smoke", "masyu-smoke", "slither-smoke"):
        for instance in sets.instances(collection):
            row = plain_run(instance, options)
            assert row["status"] in ("solved", "unsat"), instance.name
            assert row["status"] != "solved" or row["verified"] == 1, instance.name
            if instance.known_answer:
                assert (row["status"] == "solved") == (instance.known_answer == "sat"), instance.name
            elif instance.known_solution:
                assert row["status"] == "solved", instance.name
            restarts += json.loads(row["extra"]).get("restarts", 0)
    assert restarts > 0  # the new solvers were made, and what they found held


def test_restarts_after_the_faces_came_in_keep_them(restart_every_round, monkeypatch):
    from loopbench_encodings.cegar import rebuild, solvers

    monkeypatch.setattr(rebuild, "COLOUR_FLOOR", 0)  # `colour=late` adds the faces before the first solve
    monkeypatch.setattr(rebuild, "COLOUR_AFTER", 0)
    given = []  # the number of clauses each new solver of a run was given
    start_solver = solvers.start_solver

    def counted(options, clauses, *args, **kwargs):
        clauses = list(clauses)
        given.append(len(clauses))
        return start_solver(options, clauses, *args, **kwargs)

    monkeypatch.setattr(solvers, "start_solver", counted)
    restarted = 0
    for collection in ("masyu-smoke", "slither-smoke"):
        for instance in sets.instances(collection):
            given.clear()
            row = plain_run(instance, {"restart": "luby"})
            assert row["status"] == "solved" and row["verified"] == 1, instance.name
            extra = json.loads(row["extra"])
            assert extra["coloured_at"] == 1, instance.name
            # the first solver, then the one with the faces, then each restart's: clauses are only added
            assert given == sorted(given) and len(given) == 2 + extra["restarts"], (instance.name, given)
            restarted += extra["restarts"]
    assert restarted > 0


def test_restarts_find_every_hamiltonian_cycle_and_log_a_proof_the_checker_certifies(restart_every_round):
    from test_graph_loop import GRAPHS, all_answers, brute_force

    for label in ("K6", "wheel7", "prism4", "petersen"):  # up to 10 vertices: brute force is quick
        g = GRAPHS[label]
        assert all_answers("sat-plain", {"restart": "luby", "cuts": "cutset"}, g) == brute_force(g), label
    restarted = 0
    for instance in sets.instances("graph-smoke"):
        if instance.known_answer != "unsat" or loop.refuse(loop.problem(instance.puzzle), 0.0):
            continue
        row = plain_run(instance, {"restart": "luby", "proof": "true"})
        extra = json.loads(row["extra"])
        assert row["status"] == "unsat" and extra["proof"] == CERTIFIED, instance.name
        restarted += extra["restarts"]
    assert restarted > 0  # a proof of a solver that started again, its cuts carried over, certified


def test_the_propagator_has_one_solve_and_no_restart():
    with pytest.raises(ValueError, match="restart"):
        registry.create("propagator", restart="luby")
