"""sat's `split=hubs` (`loop.split`): parts found where hubs join blocks, their pairings, and answers the
checker accepts on such graphs, `unsat` only when no part can hold its paths, the whole graph solved as
before where nothing splits."""

from __future__ import annotations

import random

import pytest

from harness import kinds, registry, sets
from harness.encoding import Limits
from harness.kinds.graph.model import Graph
from loopbench_encodings import loop
from loopbench_encodings.loop.split import Split, ends_of, hubs, matchings, one_cycle, pairings, parts

LIMITS = Limits(time_s=60.0)


def ladder_blocks(blocks: int, rungs: int, hub_on: str = "all") -> Graph:
    """`blocks` ladders of `rungs` rungs in a ring, each with a hub joined to its vertices (`all`, or
    `even`: only those of its entry's colour, so no path enters at the entry and leaves by the hub), the
    hub joined to the next ladder's entry, vertex 0 of it."""
    size = 2 * rungs + 1  # the ladder's vertices, then its hub
    edges = []
    for b in range(blocks):
        first, hub = b * size, b * size + 2 * rungs
        for r in range(rungs):
            top, bottom = first + 2 * r, first + 2 * r + 1
            edges.append((top, bottom))
            if r + 1 < rungs:
                edges += [(top, top + 2), (bottom, bottom + 2)]
        # vertex first + 2r + s has colour (r + s) % 2, the entry's 0
        edges += [(hub, first + i) for i in range(2 * rungs)
                  if hub_on == "all" or (i // 2 + i % 2) % 2 == 0]
        edges.append((hub, (b + 1) % blocks * size))
    return Graph(blocks * size, tuple(edges))


def random_blocks(seed: int, blocks: int = 3, rungs: int = 20) -> Graph:
    """Ladders in a ring, each with a hub joined to a random 20 of its vertices (for odd seeds, all of
    one colour: a ladder is bipartite) and to a random 3 of the next one's: a part has six boundary
    edges, and some of these graphs have no Hamiltonian cycle."""
    rng = random.Random(seed)
    size = 2 * rungs + 1
    edges = []
    for b in range(blocks):
        first, hub = b * size, b * size + 2 * rungs
        for r in range(rungs):
            edges.append((first + 2 * r, first + 2 * r + 1))
            if r + 1 < rungs:
                edges += [(first + 2 * r, first + 2 * r + 2), (first + 2 * r + 1, first + 2 * r + 3)]
        colour = rng.randrange(2)  # vertex 2r + s has colour (r + s) % 2
        own = [i for i in range(2 * rungs) if seed % 2 == 0 or (i // 2 + i % 2) % 2 == colour]
        edges += [(hub, first + i) for i in rng.sample(own, 20)]
        edges += [(hub, (b + 1) % blocks * size + i) for i in rng.sample(range(2 * rungs), 3)]
    return Graph(blocks * size, tuple(edges))


def test_hubs_and_parts_of_ladders_in_a_ring():
    graph = ladder_blocks(3, 15)
    assert hubs([len(a) for a in graph.neighbours]) == {30, 61, 92}
    found = parts(graph.neighbours)
    assert [len(p.vertices) for p in found] == [31, 31, 31]
    assert [sorted(p.boundary) for p in found] == [[(0, 92), (30, 31)], [(31, 30), (61, 62)],
                                                   [(62, 61), (92, 0)]]


def test_no_parts_without_hubs_or_with_one_block():
    assert all(parts(i.puzzle.neighbours) == [] for i in sets.instances("graph-smoke"))
    one = ladder_blocks(1, 15)  # the hub's edge to the next entry is an edge of its own block
    assert parts(one.neighbours) == []


def test_pairings_pair_path_ends_and_a_vertex_named_twice_is_a_path_alone():
    assert list(pairings([1, 2])) == [((1, 2),)]
    assert sorted(pairings([4, 3, 2, 1])) == [((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3))]
    assert list(pairings([5, 1, 5, 2])) == [((1, 2), (5, 5))]
    assert list(pairings([5, 5, 5, 2])) == []


def test_matchings_join_boundary_vertices_but_never_one_to_itself():
    assert matchings([1, 2]) == {((1, 2),)}
    assert matchings([5, 1, 5, 2]) == {((1, 5), (2, 5))}
    assert len(matchings([1, 2, 3, 4])) == 3
    assert matchings([5, 5]) == set()


def test_ends_of_reads_the_pairing_an_answer_made():
    assert ends_of([(1, 7), (7, 2), (3, 8), (8, 4)], [1, 2, 3, 4]) == ((1, 2), (3, 4))
    assert ends_of([(1, 7), (7, 3)], [1, 3, 5, 5]) == ((1, 3), (5, 5))


def test_outside_walks_top_edges_and_other_parts_pairings():
    graph = ladder_blocks(3, 15)
    two = Split(graph.edges, parts(graph.neighbours), lambda g: None, {})
    used = [(0, 92), (30, 31), (61, 62)]
    at = {}
    for e in used:
        at.setdefault(e[0], []).append(e)
        at.setdefault(e[1], []).append(e)
    combo = [((0, 30),), ((31, 61),), ((62, 92),)]
    # part 0 leaves by 30, through part 1 (31 to 61) and part 2 (62 to 92), and comes back at 0
    assert two.outside(at, combo, 0) == ((0, 30),)
    assert two.outside(at, combo, 2) == ((62, 92),)


def test_one_cycle_joins_top_edges_and_paths():
    assert one_cycle([(1, 2), (3, 4)], (((2, 3),), ((4, 1),)))
    assert not one_cycle([(1, 2), (3, 4)], (((1, 2),), ((3, 4),)))


def test_split_solves_ladders_in_a_ring_and_the_checker_accepts():
    graph = ladder_blocks(4, 20)
    outcome = registry.create("sat", split="hubs").solve(graph, LIMITS, 0)
    assert outcome.status == "sat"
    assert kinds.check(graph, outcome.solution) == []
    assert outcome.stats["parts"] == 4
    assert outcome.stats["sub_sat"] >= 4


def test_split_says_unsat_only_when_a_part_cannot_hold_its_path_as_the_whole_solve_does():
    graph = ladder_blocks(3, 25, hub_on="even")  # 26 of its edges at each hub: still hubs
    assert len(parts(graph.neighbours)) == 3
    whole = registry.create("sat").solve(graph, LIMITS, 0)
    split = registry.create("sat", split="hubs").solve(graph, LIMITS, 0)
    assert (whole.status, split.status) == ("unsat", "unsat")
    assert split.stats["sub_unsat"] >= 1 and "sub_unknown" not in split.stats


def test_split_agrees_with_the_whole_solve_on_random_hub_graphs():
    seen = {"sat": 0, "unsat": 0}
    for seed in range(24):
        graph = random_blocks(seed)
        assert [len(p.boundary) for p in parts(graph.neighbours)] == [6, 6, 6]
        whole = registry.create("sat").solve(graph, LIMITS, 0)
        split = registry.create("sat", split="hubs").solve(graph, LIMITS, 0)
        assert split.status == whole.status, seed
        seen[split.status] += 1
        if split.status == "sat":
            assert kinds.check(graph, split.solution) == []
    assert min(seen.values()) >= 3, seen


def test_split_solves_a_30_hub_fhcp_graph_passing_every_part_twice():
    graph = next(i.puzzle for i in sets.instances("fhcp-sample") if i.name == "graph247")
    outcome = registry.create_for("cegar-split", "graph").solve(graph, LIMITS, 0)
    assert outcome.status == "sat"
    assert kinds.check(graph, outcome.solution) == []
    used = {graph.edges[i] for i in loop.problem(graph).edge_ids(outcome.solution)}
    found = parts(graph.neighbours)
    assert len(found) == 5
    counts = [sum((min(e), max(e)) in used for e in p.boundary) for p in found]
    # a part on four boundary edges holds two paths: its pairing was read off its answer, met by the next
    assert set(counts) <= {2, 4} and 4 in counts, counts


@pytest.mark.parametrize("instance", sets.instances("graph-smoke"), ids=lambda i: i.name)
def test_split_keeps_the_whole_solve_where_nothing_splits(instance):
    outcome = registry.create("sat", split="hubs").solve(instance.puzzle, LIMITS, 0)
    plain = registry.create("sat").solve(instance.puzzle, LIMITS, 0)
    assert outcome.status == plain.status
    assert outcome.stats.get("parts", 0) == 0 and "sub_solves" not in outcome.stats
    assert outcome.stats.get("conflicts") == plain.stats.get("conflicts")  # the same search, step for step
    if outcome.status == "sat":
        assert kinds.check(instance.puzzle, outcome.solution) == []


def test_split_cannot_log_a_proof():
    with pytest.raises(ValueError, match="split=hubs"):
        registry.create("sat", split="hubs", proof="true")


class Instalments:
    """A sub-solve that stays undecided and records the CPU seconds each `advance` gave it."""

    def __init__(self, log: list, resumes: bool = True) -> None:
        self.given, self.closed, self.resumes = [], False, resumes
        log.append(self)

    def advance(self, seconds: float):
        from harness.encoding import UNKNOWN, Outcome

        self.given.append(seconds)
        return Outcome(UNKNOWN)

    def close(self) -> None:
        self.closed = True


def test_an_undecided_sub_solve_is_resumed_with_the_difference_and_the_last_pass_gets_the_time_left():
    graph = ladder_blocks(3, 15)
    log: list[Instalments] = []
    two = Split(graph.edges, parts(graph.neighbours), lambda g: Instalments(log), {"sub_solves": 0,
                                                                                     "sub_cpu_s": 0.0})
    key = (0, ((0, 30),))
    assert two.interface(*key, 2.0, 100.0) == "unknown"
    assert two.interface(*key, 2.0, 100.0) == "unknown"  # had its budget: not asked again
    assert two.interface(*key, 8.0, 100.0) == "unknown"
    assert two.interface(*key, 32.0, 5.0) == "unknown"  # less left than it had: the rest of the time
    assert len(log) == 1 and log[0].given == [2.0, 6.0, 5.0]
    assert two.tried[key] == 13.0 and two.stats["sub_resumed"] == 2
    two.close()
    assert log[0].closed and two.live == {}


def test_a_search_that_cannot_resume_starts_again_only_when_it_gets_more_than_it_had():
    graph = ladder_blocks(3, 15)
    log: list[Instalments] = []
    two = Split(graph.edges, parts(graph.neighbours), lambda g: Instalments(log, resumes=False),
                {"sub_solves": 0, "sub_cpu_s": 0.0})
    key = (0, ((0, 30),))
    assert two.interface(*key, 8.0, 100.0) == "unknown"
    assert two.interface(*key, 32.0, 5.0) == "unknown"  # 5 s from scratch would reach less than 8 did
    assert two.interface(*key, 32.0, 100.0) == "unknown"
    assert [s.given for s in log] == [[8.0], [32.0]] and all(s.closed for s in log) and two.live == {}


def test_at_most_live_max_sub_solves_are_kept_the_least_recently_asked_closed_first():
    from loopbench_encodings.loop.split import LIVE_MAX

    graph = ladder_blocks(3, 15)
    log: list[Instalments] = []
    two = Split(graph.edges, parts(graph.neighbours), lambda g: Instalments(log), {"sub_solves": 0,
                                                                                     "sub_cpu_s": 0.0})
    keys = [(0, ((0, 30),) * (i + 1)) for i in range(LIVE_MAX + 1)]  # distinct outsides of part 0
    for key in keys:
        two.interface(*key, 2.0, 100.0)
    assert len(two.live) == LIVE_MAX and log[0].closed and not any(s.closed for s in log[1:])
    two.interface(*keys[0], 8.0, 100.0)  # closed: started again with the pass's budget
    assert log[-1].given == [8.0] and log[1].closed


def test_a_search_given_instalments_is_the_search_given_its_time_at_once():
    from harness.encoding import SAT, UNKNOWN
    from loopbench_encodings.cegar import driver
    from loopbench_encodings.cegar.model import Strategy

    # a search of about 1,000 rounds and 50,000 conflicts (seconds of CPU): several instalments anywhere
    instance = next(i for i in sets.instances("graph-hard-hamiltonian") if i.name == "graph-gp-500-s2026-000")
    sat = registry.create_for("cegar", "graph")
    strategy = Strategy(sat.options, sat.cadical_options)
    search = driver.Resumable(strategy, instance.puzzle, 0, 4096)
    outcomes = [search.advance(0.05)]
    while outcomes[-1].status == UNKNOWN and len(outcomes) < 10_000:
        outcomes.append(search.advance(0.05))
    last = outcomes[-1]
    assert last.status == SAT and len(outcomes) > 1  # it took several instalments, not one
    assert search.state is None  # closed once decided
    assert kinds.check(instance.puzzle, last.solution) == []
    at_once = driver.solve(strategy, instance.puzzle, LIMITS, 0)
    assert (last.solution, last.stats["iterations"], last.stats["conflicts"], last.stats["cuts"]) == (
        at_once.solution, at_once.stats["iterations"], at_once.stats["conflicts"], at_once.stats["cuts"])
    assert "reason" not in last.stats


def test_a_search_with_a_helper_starts_afresh_on_each_instalment():
    from harness.encoding import SAT
    from loopbench_encodings.cegar import driver

    instance = next(i for i in sets.instances("graph-smoke") if i.name == "graph-gp-24-s2026-000")
    strategy = registry.create_for("propagator", "graph").strategy()
    search = driver.Resumable(strategy, instance.puzzle, 0, 4096)
    assert not search.resumes  # its watch ends a solve past the deadline with the empty clause
    outcome = search.advance(30.0)
    assert outcome.status == SAT and kinds.check(instance.puzzle, outcome.solution) == []
    assert search.state is None  # nothing kept
