"""The graph generator: same seed same bytes, each family's shape, constructed cycles, and the known answers
checked where a search can (Petersen, GP(11,2), J_5 and odd grids have no Hamiltonian cycle; small
knight's and GP(n,2) graphs have one)."""

from __future__ import annotations

import gzip
import sys

import networkx as nx
import pytest

from harness import bundles, generate, kinds, sets
from harness.kinds.graph import generate as graphs
from harness.kinds.graph.generate import FAMILIES, HAMILTONIAN, NON_HAMILTONIAN, make
from harness.kinds.graph.model import Graph


def nx_graph(g: Graph) -> nx.Graph:
    out = nx.Graph()
    out.add_nodes_from(range(g.n))
    out.add_edges_from(g.edges)
    return out


def hamiltonian_cycle(g: Graph) -> list[int] | None:
    """A Hamiltonian cycle by exhaustive search (pruned: each unvisited vertex keeps two ways in), or None."""
    adj = g.neighbours
    on = [False] * g.n
    path = [0]
    on[0] = True
    sys.setrecursionlimit(max(1000, 4 * g.n))

    def free(v: int) -> int:
        return sum(1 for w in adj[v] if not on[w] or w in (0, path[-1]))

    def extend() -> bool:
        if len(path) == g.n:
            return 0 in adj[path[-1]]
        if any(not on[v] and free(v) < 2 for v in range(g.n)):
            return False
        # fewest onward moves first (Warnsdorff): finds cycles fast, changes nothing when there is none
        onward = [w for w in adj[path[-1]] if not on[w]]
        for w in sorted(onward, key=lambda w: sum(not on[x] for x in adj[w])):
            on[w] = True
            path.append(w)
            if extend():
                return True
            path.pop()
            on[w] = False
        return False

    return path if extend() else None


def test_same_seed_same_bytes(tmp_path):
    for run in ("a", "b"):
        for family in ("cubic", "flower"):
            assert generate.main(["graph", "--family", family, "--size", "30", "--count", "2", "--seed", "7",
                                  "--out", str(tmp_path / run / family),
                                  "--bundle", str(tmp_path / run / f"{family}.tsv.gz")]) == 0
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert len(files) == 2 * (2 + 1 + 1)  # per family: two graphs, solutions.tsv, the bundle
    for rel in files:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel
    other = make("cubic", 30, 8)
    assert other.puzzle != make("cubic", 30, 7).puzzle  # the seed matters


@pytest.mark.parametrize("name", ["smoke", "hard"])
def test_the_bundled_sets_are_what_the_command_writes(name, tmp_path):
    assert generate.main(["graph", "--set", name, "--seed", "2026", "--out", str(tmp_path),
                          "--bundle", str(tmp_path / "b.tsv.gz")]) == 0
    bundled = sets.INSTANCES_DIR / "graph" / f"{name}.tsv.gz"
    assert gzip.decompress((tmp_path / "b.tsv.gz").read_bytes()) == gzip.decompress(bundled.read_bytes())
    if name == "smoke":
        text = (tmp_path / "graph-petersen-10-s2026-000.txt").read_text()
        assert text.startswith("# known: non-hamiltonian\n# family: petersen n=5 k=2, seed 2026\n"
                               "graph 10 15\n")


def test_the_cli_names_the_size_it_used(tmp_path, capsys):
    assert generate.main(["graph", "--family", "cubic", "--size", "99", "--out", str(tmp_path)]) == 0
    assert "graph-cubic-100-s0-000: 100 vertices (nearest to 99), 150 edges, hamiltonian, cycle known" in \
        capsys.readouterr().err
    bad_args = (["--family", "cubic"], ["--family", "no", "--size", "9"], ["--set", "smoke", "--count", "0"])
    for bad in bad_args:
        with pytest.raises(SystemExit):
            generate.main(["graph", *bad, "--out", str(tmp_path)])


SHAPES = [  # family, size asked, vertices, edges, degrees
    ("cubic", 6, 6, 9, {3}), ("cubic", 101, 102, 153, {3}), ("knight", 64, 64, 168, {2, 3, 4, 6, 8}),
    ("knight", 10, 36, 80, {2, 3, 4, 6, 8}), ("grid", 100, 100, 180, {2, 3, 4}),
    ("grid", 15, 16, 24, {2, 3, 4}),
    ("grid", 9, 12, 17, {2, 3, 4}), ("grid-odd", 81, 81, 144, {2, 3, 4}), ("grid-odd", 15, 15, 22, {2, 3, 4}),
    ("prism", 10, 10, 15, {3}), ("gp", 100, 100, 150, {3}), ("gp", 22, 24, 36, {3}),
    ("gp-nonham", 100, 106, 159, {3}), ("gp-nonham", 1, 10, 15, {3}), ("flower", 20, 20, 30, {3}),
    ("flower", 30, 28, 42, {3}), ("petersen", 99, 10, 15, {3}), ("tutte", 1, 46, 69, {3}),
    ("cycle", 12, 12, 12, {2}), ("complete", 4, 4, 6, {3}), ("pendant", 16, 17, 25, {1, 3, 4}),
]


@pytest.mark.parametrize("family, size, n, m, degrees", SHAPES)
def test_family_shapes(family, size, n, m, degrees):
    entry = make(family, size, 2026)
    g = entry.puzzle
    assert (g.n, len(g.edges), set(g.degrees())) == (n, m, degrees)
    assert entry.name == f"graph-{family}-{n}-s2026-000"
    assert entry.meta["known"] == FAMILIES[family][1] and entry.meta["family"] == family
    if entry.solution:
        assert entry.meta["known"] == HAMILTONIAN and kinds.check(g, entry.solution) == []
    if family in ("gp", "gp-nonham"):
        k = int(entry.meta["params"].split()[0].removeprefix("n="))
        assert (k % 6 == 5) == (family == "gp-nonham")


@pytest.mark.parametrize("family", [f for f, (_, known) in FAMILIES.items() if known == HAMILTONIAN])
def test_every_constructed_cycle_passes_the_checker(family):
    for size in (6, 30, 101, 400):
        for i in range(2):
            entry = make(family, size, 11, i)
            if family in ("cubic", "grid", "prism", "cycle", "complete"):
                assert entry.solution, entry.name
            if entry.solution:
                assert kinds.check(entry.puzzle, entry.solution) == [], entry.name


def test_labels_are_shuffled():
    grid = make("grid", 100, 2026)
    assert grid.solution.split()[:4] != ["1", "2", "3", "4"]
    assert sum(v - u == 1 for u, v in grid.puzzle.edges) < 40  # an unshuffled 10x10 grid has 90


def test_tutte_graph():
    g = make("tutte", 46, 2026).puzzle
    h = nx_graph(g)
    assert (h.number_of_nodes(), h.number_of_edges()) == (46, 69)
    assert set(dict(h.degree()).values()) == {3}
    assert nx.check_planarity(h)[0]
    assert nx.node_connectivity(h) == 3
    assert nx.is_isomorphic(h, nx.tutte_graph())


def test_petersen_and_flower_are_what_they_say():
    assert nx.is_isomorphic(nx_graph(make("petersen", 10, 1).puzzle), nx.petersen_graph())
    j5 = nx_graph(make("flower", 20, 1).puzzle)
    assert nx.girth(j5) == 5 and nx.node_connectivity(j5) == 3  # J_5: a snark of girth 5
    assert nx.is_isomorphic(nx_graph(make("gp-nonham", 10, 1).puzzle), nx.petersen_graph())  # GP(5,2)


@pytest.mark.parametrize("family, size", [("petersen", 10), ("gp-nonham", 22), ("flower", 20),
                                          ("grid-odd", 9), ("grid-odd", 15), ("pendant", 9), ("tutte", 46),
                                          ("gp-nonham", 34), ("flower", 28)])
def test_small_non_hamiltonian_members_have_no_cycle(family, size):
    entry = make(family, size, 3)
    assert entry.meta["known"] == NON_HAMILTONIAN
    assert hamiltonian_cycle(entry.puzzle) is None


@pytest.mark.parametrize("family, size", [("knight", 36), ("gp", 24), ("gp", 36), ("gp", 40), ("cubic", 40)])
def test_small_hamiltonian_members_have_a_cycle(family, size):
    g = make(family, size, 3).puzzle
    order = hamiltonian_cycle(g)
    assert order is not None
    text = " ".join(str(v + 1) for v in order)
    assert kinds.check(g, text) in ([], [f"the cycle must go from vertex 1 to its smaller neighbour "
                                         f"{order[-1] + 1} first, not {order[1] + 1}"])


def test_nearest_size():
    assert graphs.nearest(7, lambda k: k % 2 == 0, 6) == 8  # a tie goes up
    assert graphs.nearest(3, lambda k: k % 2 == 0, 6) == 6
    assert graphs.nearest(6.6, lambda k: k % 2 == 0, 2) == 6  # not 8, one step out from round(6.6)
    assert graphs.nearest(7.5, lambda k: k % 2 == 1, 5) == 7  # round(7.5) is 8, from which 9 comes first
    assert graphs.nearest(8, lambda k: k % 2 == 1, 5) == 9  # 7 and 9 tie
    assert graphs.nearest(14.4, lambda k: k % 6 == 5, 5) == 17


def test_bundled_rows_carry_family_and_known():
    rows = bundles.read_bundle(sets.INSTANCES_DIR / "graph" / "hard.tsv.gz")
    assert {r["known"] for r in rows} == {HAMILTONIAN, NON_HAMILTONIAN}
    assert all(r["family"] and r["seed"] == "2026" for r in rows)
    assert max(int(r["rows"]) for r in rows) == 5000
