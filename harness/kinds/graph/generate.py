"""Graphs whose answer is known by construction or by theorem (`python -m harness.generate graph --family F`).

Hamiltonian (a cycle is written with the graph where the construction gives one):
- `cubic`: a random Hamiltonian cycle plus a random perfect matching of chords that avoids the
  cycle's edges: cubic, Hamiltonian by construction (any even n >= 6).
- `knight`: the knight's-move graph of an m x m board, m even >= 6. Schwenk (1991), "Which
  rectangular chessboards have a knight's tour?", Math. Magazine 64(5): an m x n board (m <= n)
  has a closed tour unless m and n are both odd, m is 1, 2 or 4, or m = 3 and n is 4, 6 or 8.
  No cycle is written (the theorem gives none).
- `grid`: the r x c grid graph with r*c even, r, c >= 2: the snake cycle below is one.
- `prism`: GP(n, 1), the n-prism C_n x K_2 (n >= 3): out along the outer cycle, back along the inner.
- `gp`: the generalized Petersen graph GP(n, 2) with n ≢ 5 (mod 6), n >= 6: Hamiltonian by
  Alspach (1983), "The classification of Hamiltonian generalized Petersen graphs", J. Combin.
  Theory B 34: GP(n, 2) is Hamiltonian iff n ≢ 5 (mod 6). No cycle is written.
- `cycle`: the cycle C_n (n >= 3), uniquely Hamiltonian; `complete`: K_n (n >= 3).
Non-Hamiltonian:
- `gp-nonham`: GP(n, 2) with n ≡ 5 (mod 6) (Alspach 1983, above; GP(5, 2) is Petersen's graph).
- `flower`: Isaacs's flower snark J_k, k odd >= 5 (Isaacs 1975, "Infinite families of nontrivial
  trivalent graphs which are not Tait colorable", Amer. Math. Monthly 82). A snark is cubic and
  not 3-edge-colourable, and a Hamiltonian cubic graph is (the cycle is even, n being even: two
  colours alternate on it, the other edges form a perfect matching, the third colour), so no snark
  is Hamiltonian.
- `petersen`: Petersen's graph, a snark (as above). `tutte`: Tutte's graph (Tutte 1946, "On
  Hamiltonian circuits", J. London Math. Soc. 21), cubic, planar, 3-connected, 46 vertices.
- `grid-odd`: the r x c grid graph with r, c odd >= 3: bipartite with colour classes of sizes
  (rc+1)/2 and (rc-1)/2, and a cycle alternates the classes, so none covers every vertex.
- `pendant`: a `cubic` graph on n-1 vertices plus a vertex of degree 1 (n odd >= 7).

`--size` is the vertex count: each family takes the nearest one it can make (ties go up), and
`petersen` and `tutte` have one size. Vertex numbers are shuffled with the seed, so the cycle
of a construction is no pattern a strategy can find for free. Graph i of a family and vertex
count draws from its own `Random("graph FAMILY N seed S #i")`: same arguments, same bytes.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness import kinds
from harness.bundles import Entry, write_bundle
from harness.kinds.graph.model import Edge, Graph, solution_string

HAMILTONIAN, NON_HAMILTONIAN = "hamiltonian", "non-hamiltonian"


@dataclass(frozen=True)
class Made:
    """A family member before shuffling: vertex count, edges, a Hamiltonian cycle as a vertex order or
    None, and the parameters that name it (`m=10`)."""

    n: int
    edges: list[Edge]
    cycle: list[int] | None
    params: str


# --- sizes: the nearest valid one -------------------------------------------------------------------

def nearest(target: float, valid: Callable[[int], bool], least: int) -> int:
    """The valid whole number >= least closest to target (a tie goes to the larger)."""
    t = max(least, round(target))
    for step in range(10**6):
        if valid(t + step) or (t - step >= least and valid(t - step)):
            # the one found may be half a step farther than one just beyond it: look one further
            near = [k for k in range(max(least, t - step - 1), t + step + 2) if valid(k)]
            return min(near, key=lambda k: (abs(k - target), -k))
    raise ValueError(f"no valid size near {target}")


def _any(k: int) -> bool:
    return True


def _even(k: int) -> bool:
    return k % 2 == 0


def _odd(k: int) -> bool:
    return k % 2 == 1


# --- the families ----------------------------------------------------------------------------------

def cubic(size: int, rng: random.Random) -> Made:
    n = nearest(size, _even, 6)
    order = list(range(n))
    rng.shuffle(order)
    edges = [(order[i], order[(i + 1) % n]) for i in range(n)]
    while True:  # about e^-1 of the random pairings avoid every cycle edge, at any n
        rest = order[:]
        rng.shuffle(rest)
        chords = [(rest[i], rest[i + 1]) for i in range(0, n, 2)]
        on_cycle = {frozenset(e) for e in edges}
        if not any(frozenset(c) in on_cycle for c in chords):
            return Made(n, edges + chords, order, f"n={n}")


def pendant(size: int, rng: random.Random) -> Made:
    n = nearest(size, _odd, 7)
    base = cubic(n - 1, rng)
    return Made(n, base.edges + [(rng.randrange(n - 1), n - 1)], None, f"n={n} pendant")


def knight(size: int, rng: random.Random) -> Made:
    m = nearest(math.sqrt(size), _even, 6)
    edges = []
    for r in range(m):
        for c in range(m):
            for dr, dc in ((1, 2), (2, 1), (2, -1), (1, -2)):
                if 0 <= r + dr < m and 0 <= c + dc < m:
                    edges.append((r * m + c, (r + dr) * m + c + dc))
    return Made(m * m, edges, None, f"m={m}")


def grid_edges(rows: int, cols: int) -> list[Edge]:
    return [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)] + \
        [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]


def grid_shape(size: int, valid: Callable[[int], bool], least: int) -> tuple[int, int]:
    rows = nearest(math.sqrt(size), valid, least)
    return rows, nearest(size / rows, valid, least)


def grid(size: int, rng: random.Random) -> Made:
    rows = nearest(math.sqrt(size), _any, 2)
    cols = nearest(size / rows, lambda c: rows * c % 2 == 0, 2)
    # the snake: along row 0, back and forth over columns 1.. of the other rows, up column 0
    tall = rows % 2 == 0
    r_, c_ = (rows, cols) if tall else (cols, rows)  # r_ even
    path = [(0, c) for c in range(c_)]
    for r in range(1, r_):
        cs = range(c_ - 1, 0, -1) if r % 2 else range(1, c_)
        path += [(r, c) for c in cs]
    path += [(r, 0) for r in range(r_ - 1, 0, -1)]
    cycle = [r * cols + c if tall else c * cols + r for r, c in path]
    return Made(rows * cols, grid_edges(rows, cols), cycle, f"rows={rows} cols={cols}")


def grid_odd(size: int, rng: random.Random) -> Made:
    rows, cols = grid_shape(size, _odd, 3)
    return Made(rows * cols, grid_edges(rows, cols), None, f"rows={rows} cols={cols}")


def petersen_graph(n: int, k: int) -> list[Edge]:
    """GP(n, k): outer cycle 0..n-1, spokes i - n+i, inner star n+i - n+(i+k mod n)."""
    return [(i, (i + 1) % n) for i in range(n)] + [(i, n + i) for i in range(n)] + \
        [(n + i, n + (i + k) % n) for i in range(n)]


def prism(size: int, rng: random.Random) -> Made:
    n = nearest(size / 2, _any, 3)
    return Made(2 * n, petersen_graph(n, 1), list(range(n)) + list(range(2 * n - 1, n - 1, -1)),
                f"n={n} k=1")


def gp(size: int, rng: random.Random) -> Made:
    n = nearest(size / 2, lambda k: k % 6 != 5, 6)
    return Made(2 * n, petersen_graph(n, 2), None, f"n={n} k=2")


def gp_nonham(size: int, rng: random.Random) -> Made:
    n = nearest(size / 2, lambda k: k % 6 == 5, 5)
    return Made(2 * n, petersen_graph(n, 2), None, f"n={n} k=2")


def petersen(size: int, rng: random.Random) -> Made:
    return Made(10, petersen_graph(5, 2), None, "n=5 k=2")


def flower(size: int, rng: random.Random) -> Made:
    """J_k: stars a_i - b_i, c_i, d_i; the b's in a k-cycle; c_0..c_{k-1} d_0..d_{k-1} in a 2k-cycle."""
    k = nearest(size / 4, _odd, 5)
    a, b, c, d = (lambda i: i), (lambda i: k + i), (lambda i: 2 * k + i), (lambda i: 3 * k + i)
    edges = [e for i in range(k) for e in ((a(i), b(i)), (a(i), c(i)), (a(i), d(i)))]
    edges += [(b(i), b((i + 1) % k)) for i in range(k)]
    ring = [c(i) for i in range(k)] + [d(i) for i in range(k)]
    edges += [(ring[i], ring[(i + 1) % (2 * k)]) for i in range(2 * k)]
    return Made(4 * k, edges, None, f"k={k}")


# Tutte's graph: three Tutte fragments around a centre vertex 0; the adjacency as networkx's
# tutte_graph gives it (networkx 3.6, BSD licence), each edge listed once from its smaller end.
TUTTE = {
    0: (1, 2, 3), 1: (4, 26), 2: (10, 11), 3: (18, 19), 4: (5, 33), 5: (6, 29), 6: (7, 27),
    7: (8, 14), 8: (9, 38), 9: (10, 37), 10: (39,), 11: (12, 39), 12: (13, 35), 13: (14, 15),
    14: (34,), 15: (16, 22), 16: (17, 44), 17: (18, 43), 18: (45,), 19: (20, 45), 20: (21, 41),
    21: (22, 23), 22: (40,), 23: (24, 27), 24: (25, 32), 25: (26, 31), 26: (33,), 27: (28,),
    28: (29, 32), 29: (30,), 30: (31, 33), 31: (32,), 34: (35, 38), 35: (36,), 36: (37, 39),
    37: (38,), 40: (41, 44), 41: (42,), 42: (43, 45), 43: (44,),
}


def tutte(size: int, rng: random.Random) -> Made:
    return Made(46, [(u, v) for u, vs in TUTTE.items() for v in vs], None, "")


def cycle(size: int, rng: random.Random) -> Made:
    n = nearest(size, _any, 3)
    return Made(n, [(i, (i + 1) % n) for i in range(n)], list(range(n)), f"n={n}")


def complete(size: int, rng: random.Random) -> Made:
    n = nearest(size, _any, 3)
    return Made(n, [(u, v) for u in range(n) for v in range(u + 1, n)], list(range(n)), f"n={n}")


FAMILIES: dict[str, tuple[Callable[[int, random.Random], Made], str]] = {
    "cubic": (cubic, HAMILTONIAN), "knight": (knight, HAMILTONIAN), "grid": (grid, HAMILTONIAN),
    "prism": (prism, HAMILTONIAN), "gp": (gp, HAMILTONIAN), "cycle": (cycle, HAMILTONIAN),
    "complete": (complete, HAMILTONIAN),
    "gp-nonham": (gp_nonham, NON_HAMILTONIAN), "flower": (flower, NON_HAMILTONIAN),
    "grid-odd": (grid_odd, NON_HAMILTONIAN), "petersen": (petersen, NON_HAMILTONIAN),
    "tutte": (tutte, NON_HAMILTONIAN), "pendant": (pendant, NON_HAMILTONIAN),
}

# The bundled sets, as (family, size) pairs: `--set NAME` makes one graph of each.
SETS: dict[str, list[tuple[str, int]]] = {
    "smoke": [("petersen", 10), ("cycle", 12), ("complete", 4), ("prism", 6), ("cubic", 20),
              ("cubic", 60), ("knight", 36), ("grid", 42), ("grid-odd", 25),
              ("gp", 24), ("gp-nonham", 22), ("flower", 20), ("tutte", 46), ("pendant", 15)],
    "hard": [*(("cubic", n) for n in (100, 200, 500, 1000, 2000, 5000)),
             *(("knight", m * m) for m in (10, 20, 32, 44)),
             *(("grid", m * m) for m in (10, 20, 40, 70)),
             *(("gp", n) for n in (100, 500, 2000)),
             *(("gp-nonham", n) for n in (22, 58, 106, 202, 502, 1006)),
             *(("flower", 4 * k) for k in (5, 7, 9, 11, 13, 15, 21, 31)),
             *(("grid-odd", m * m) for m in (9, 15, 21, 31)),
             ("tutte", 46)],
}


# --- making graphs ---------------------------------------------------------------------------------

def make(family: str, size: int, seed: int, index: int = 0) -> Entry:
    """Graph `index` of a family near `size` vertices, shuffled, with its known answer and cycle."""
    build, known = FAMILIES[family]
    n = build(size, random.Random(0)).n  # the vertex count names the graph and seeds its randomness
    rng = random.Random(f"graph {family} {n} seed {seed} #{index}")
    made = build(size, rng)
    label = list(range(made.n))
    rng.shuffle(label)
    graph = Graph(made.n, tuple((label[u], label[v]) for u, v in made.edges))
    solution = ""
    if made.cycle is not None:
        order = [label[v] for v in made.cycle]
        solution = solution_string(made.n, zip(order, order[1:] + order[:1], strict=True))
    meta = {"known": known, "family": family, "params": made.params, "seed": str(seed)}
    return Entry(f"graph-{family}-{made.n}-s{seed}-{index:03d}", graph, solution, meta)


def entries(plan: Sequence[tuple[str, int]], count: int, seed: int) -> Iterator[Entry]:
    for family, size in plan:
        for i in range(count):
            entry = make(family, size, seed, i)
            problems = kinds.check(entry.puzzle, entry.solution) if entry.solution else []
            if problems:
                raise RuntimeError(f"{entry.name}: the construction's cycle is wrong: {problems[0]}")
            yield entry


def file_text(entry: Entry) -> str:
    """The plain text with `#` lines before the header: the known answer, family and parameters."""
    m = entry.meta
    head = f"# known: {m['known']}\n# family: {m['family']} {m['params']}".rstrip() + f", seed {m['seed']}\n"
    return head + kinds.write_text(entry.puzzle)


def write(made: Sequence[Entry], out: Path) -> None:
    """Each graph as `out/NAME.txt` and the known answers and cycles in `out/solutions.tsv`."""
    out.mkdir(parents=True, exist_ok=True)
    for e in made:
        (out / f"{e.name}.txt").write_text(file_text(e))
    rows = "".join(f"{e.name}\t{e.meta['known']}\t{e.solution}\n" for e in made)
    (out / "solutions.tsv").write_text("name\tknown\tsolution\n" + rows)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.generate graph",
                                description=__doc__.split("\n")[0],
                                epilog="families: " + ", ".join(FAMILIES))
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--family", choices=FAMILIES, help="the family (see the module's docstring)")
    what.add_argument("--set", choices=SETS, help="the bundled set's list of families and sizes")
    p.add_argument("--size", type=int, nargs="+", action="extend", metavar="N",
                   help="vertex counts (the nearest the family can make is used; several allowed)")
    p.add_argument("--count", type=int, default=1, metavar="K", help="graphs per size (default 1)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for the NAME.txt files and solutions.tsv")
    p.add_argument("--bundle", type=Path, metavar="FILE",
                   help="also write the graphs as a bundle (FILE.tsv.gz, for instances/)")
    args = p.parse_args(argv)
    if args.count < 1:
        p.error("--count must be at least 1")
    if args.family and not args.size:
        p.error("--family needs --size")
    if args.size and any(s < 1 for s in args.size):
        p.error("--size must be at least 1")
    plan = SETS[args.set] if args.set else [(args.family, s) for s in args.size]
    made = []
    for entry in entries(plan, args.count, args.seed):
        g = entry.puzzle
        asked = next(s for f, s in plan if f == entry.meta["family"] and  # say which size was used
                     FAMILIES[f][0](s, random.Random(0)).n == g.n)
        note = "" if asked == g.n else f" (nearest to {asked})"
        print(f"{entry.name}: {g.n} vertices{note}, {len(g.edges)} edges, {entry.meta['known']}"
              f"{', cycle known' if entry.solution else ''}", file=sys.stderr)
        made.append(entry)
    write(made, args.out)
    if args.bundle:
        write_bundle(args.bundle, made)
    print(f"wrote {len(made)} graphs to {args.out}" + (f" and {args.bundle}" if args.bundle else ""))
    return 0
