"""The loop's edges oriented: two arc variables an edge, at most one arc out of and into a vertex (`arcs`).

An answer's loop can be walked one way round, so orienting it costs no answer: each edge variable
is on exactly when one of its two arcs is (`e <-> a_uv | a_vu`, never both), and every vertex has
at most one arc out and at most one arc in (exactly one of each when it is required). With the
degree clauses this is the arc model of the published CEGAR for Hamiltonian cycles (Ohashi, Soh,
Le Berre et al., SAT 2025: one arc out and one in per vertex, two-cycles forbidden), kept beside
the edge variables, so answers and proofs stay over the edges (`directed_cuts` gives a cut-set over
the arcs, the published blocking clauses, for `sat:directed=true`). Arc variables are numbered
from `first + 1`: arc u->v of edge i is `first + 2i + 1`, v->u `first + 2i + 2` (u < v); the
at-most-one auxiliaries of vertices of degree above PAIRWISE_MAX follow them: a sequential counter's
d - 1 (`pysat.card`), or with `amo="product"` the 2-product encoding's about 2 sqrt(d) (J. Chen, "A
New SAT Encoding of the At-Most-One Constraint", ModRef 2010: on an FHCP graph of degree 1,000 the
counters are most of the formula's variables).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from math import isqrt

from loopbench_encodings.loop.arrays import Clause, LoopArrays
from loopbench_encodings.loop.cnf import BATCH

PAIRWISE_MAX = 6  # up to this degree "at most one" is a clause per pair; a sequential counter above
AMO = ("counter", "product")  # how "at most one" is said above PAIRWISE_MAX


def arc_clauses(arrays: LoopArrays, first: int, asymmetry: bool = False) -> tuple[list[Clause], int]:
    """The clauses of the module docstring and the last variable they use; `asymmetry`: and the
    clauses that keep one of each loop's two directions (`asymmetry_clauses`)."""
    out: list[Clause] = []
    for batch in arc_batches(arrays, first, asymmetry, batch=0):
        out += batch
    return out, arc_top(arrays, first)


def arc_top(arrays: LoopArrays, first: int, amo: str = "counter") -> int:
    """The last variable of `arc_batches`: the arcs, then the auxiliaries of "at most one" for each of a
    vertex's arcs out and arcs in when its degree d is above PAIRWISE_MAX (d - 1 for a counter). Known
    before any clause is made, so a solver can be told its variables first."""
    count = product_variables if amo == "product" else (lambda d: d - 1)
    auxiliaries = sum(count(len(here)) for here in arrays.incident if len(here) > PAIRWISE_MAX)
    return first + 2 * arrays.num_edges + 2 * auxiliaries


def product_grid(n: int) -> tuple[int, int]:
    """The 2-product's rows and columns for n literals: about sqrt(n) each, rows * columns >= n."""
    columns = isqrt(n - 1) + 1
    return -(-n // columns), columns


def product_variables(n: int) -> int:
    """The auxiliaries `product_at_most_one` takes for n literals."""
    if n <= PAIRWISE_MAX:
        return 0
    rows, columns = product_grid(n)
    return rows + columns + product_variables(rows) + product_variables(columns)


def product_at_most_one(lits: list[int], top: int, out: list[Clause]) -> int:
    """At most one of `lits`, Chen's 2-product: the literals on a grid, a variable for each row and each
    column, each literal implying its row's and its column's, then at most one row and at most one
    column (the same way, pairwise when few). Two literals on differ in row or column; one on turns every
    other off by unit propagation. Its auxiliaries from `top + 1` (`product_variables` of them); returns
    the last."""
    if len(lits) <= PAIRWISE_MAX:
        out += ([-a, -b] for k, a in enumerate(lits) for b in lits[k + 1:])
        return top
    rows, columns = product_grid(len(lits))
    row = range(top + 1, top + 1 + rows)
    column = range(top + 1 + rows, top + 1 + rows + columns)
    for k, x in enumerate(lits):
        out += ([-x, row[k // columns]], [-x, column[k % columns]])
    top = product_at_most_one(list(row), top + rows + columns, out)
    return product_at_most_one(list(column), top, out)


def arc_batches(arrays: LoopArrays, first: int, asymmetry: bool = False, batch: int = BATCH,
                amo: str = "counter") -> Iterator[list[Clause]]:
    """`arc_clauses`' clauses in its order as lists of about `batch` clauses (0: one list of them all),
    each made when the one before has been read: a dense graph's millions are never all held at once.

    The order: each edge's four clauses in edge order, then at each vertex its arcs out and its arcs
    in (each in edge order): one of them if the vertex is required, at most one of them (`amo`: by a
    sequential counter or by `product_at_most_one` above PAIRWISE_MAX)."""
    out: list[Clause] = []
    for i in range(arrays.num_edges):
        e, forth, back = i + 1, first + 2 * i + 1, first + 2 * i + 2
        out += ([-e, forth, back], [e, -forth], [e, -back], [-forth, -back])
        if batch and len(out) >= batch:
            yield out
            out = []
    top = first + 2 * arrays.num_edges
    required, ends = arrays.is_required, arrays.ends
    for v, here in enumerate(arrays.incident):
        edges = sorted(here)
        # `arcs_at`'s numbering, inlined on this hot path (a dense graph's hundreds of thousands of edges)
        outs = [first + 2 * i + (1 if ends[i][0] == v else 2) for i in edges]
        ins = [first + 2 * i + (2 if ends[i][0] == v else 1) for i in edges]
        for lits in (outs, ins):
            if required[v]:
                out.append(lits)
            if len(lits) <= PAIRWISE_MAX:
                out += ([-a, -b] for k, a in enumerate(lits) for b in lits[k + 1:])
            elif amo == "product":
                top = product_at_most_one(lits, top, out)
            else:
                from pysat.card import CardEnc, EncType

                most = CardEnc.atmost(lits, bound=1, top_id=top, encoding=EncType.seqcounter)
                out += most.clauses
                top = max(top, most.nv)
        if batch and len(out) >= batch:
            yield out
            out = []
    if asymmetry:
        out += asymmetry_clauses(arrays, first)
    yield out


def asymmetry_clauses(arrays: LoopArrays, first: int) -> list[Clause]:
    """At the vertex of lowest degree (the smallest such), the loop leaves towards the smaller of its
    two neighbours on the loop.

    Every loop through v can be walked so (its other direction is then ruled out), and a loop not
    through v is untouched: the published `lowest-asymmetry` in the edge-and-arc model. For
    neighbours x < y of v: not (arc v->y and arc x->v).
    """
    incident = arrays.incident
    candidates = [v for v in range(arrays.num_vertices) if len(incident[v]) >= 2]
    if not candidates:
        return []
    v = min(candidates, key=lambda w: (len(incident[w]), w))
    arcs = sorted((w, first + out, first + into) for w, out, into in arcs_at(arrays, v))
    return [[-out_y, -in_x] for k, (_, _, in_x) in enumerate(arcs) for _, out_y, _ in arcs[k + 1:]]


def directed_cuts(arrays: LoopArrays, first: int, vertices) -> list[Clause]:
    """A set of vertices' cut-set as the published CEGAR blocks it (option `asp2`): an arc leaving it,
    and an arc entering it, two clauses over the arcs numbered from `first + 1`.

    Valid wherever the edge cut-set is (the set holds a required vertex and misses one): a loop
    through both crosses the boundary, and walked one way round it leaves the set and enters it."""
    inside = bytearray(arrays.num_vertices)
    for v in vertices:
        inside[v] = 1
    leaving, entering = [], []
    at = _arcs_at_every_vertex(arrays)
    for v in sorted(vertices):
        for w, out, into in at[v]:
            if not inside[w]:
                leaving.append(first + out)
                entering.append(first + into)
    return [leaving, entering]


def directed_cuts_labelled(arrays: LoopArrays, first: int, where: list[int], ids: list[int]) -> list[Clause]:
    """`directed_cuts` of every set labelled in `ids`, in that order, from one labelling of the vertices
    (`where[v]`: the set v is in, -1: none; each label of `where` that is not -1 is in `ids`): the same
    clauses, made by one pass over the graph's arcs in numpy rather than a pass per set.

    The arcs are kept in `directed_cuts`' order (by tail vertex, then its incident order); those whose
    ends are labelled apart are taken, grouped by the tail's label (a stable sort keeps that order)."""
    import numpy as np

    tail, head, out, into = arc_table(arrays)
    label = np.asarray(where)
    at_tail = label[tail]
    taken = np.flatnonzero((at_tail >= 0) & (at_tail != label[head]))
    group = at_tail[taken]
    order = np.argsort(group, kind="stable")
    taken, group = taken[order], group[order]
    starts = np.searchsorted(group, ids, side="left").tolist()
    stops = np.searchsorted(group, ids, side="right").tolist()
    leaving, entering = (out[taken] + first).tolist(), (into[taken] + first).tolist()
    return [clause for a, b in zip(starts, stops, strict=True) for clause in (leaving[a:b], entering[a:b])]


def arc_table(arrays: LoopArrays):
    """Every vertex's `arcs_at` as four numpy arrays (tail, head, arc out, arc in), by tail and incident
    order, made once per graph (its cache)."""
    made = arrays.cache.get("arc_table")
    if made is None:  # in numpy from the incidence lists: a list of tuples a vertex costs a run of few rounds
        import numpy as np

        incident = arrays.incident
        degrees = np.fromiter(map(len, incident), dtype=np.int64, count=len(incident))
        edge = np.fromiter(chain.from_iterable(incident), dtype=np.int64, count=int(degrees.sum()))
        tail = np.repeat(np.arange(len(incident), dtype=np.int64), degrees)
        ends = np.array(arrays.ends, dtype=np.int64).reshape(-1, 2)[edge]
        backward = (ends[:, 0] != tail).astype(np.int64)  # the tail is the second end: arc 2i + 2 out
        head = ends[:, 0] + ends[:, 1] - tail
        made = arrays.cache["arc_table"] = (tail, head, 2 * edge + 1 + backward, 2 * edge + 2 - backward)
    return made


def arcs_at(arrays: LoopArrays, v: int) -> tuple[tuple[int, int, int], ...]:
    """Vertex v's (neighbour, arc out to it, arc in from it) in incident order, the arcs numbered from
    1 (u->w of edge i is 2i + 1, w->u 2i + 2, u < w): add `first` for the variables."""
    ends = arrays.ends
    return tuple((ends[i][1], 2 * i + 1, 2 * i + 2) if ends[i][0] == v else (ends[i][0], 2 * i + 2, 2 * i + 1)
                 for i in arrays.incident[v])


def _arcs_at_every_vertex(arrays: LoopArrays) -> list[tuple[tuple[int, int, int], ...]]:
    """`arcs_at` of every vertex, made once per graph (its cache), for cuts made round after round."""
    made = arrays.cache.get("arcs_at")
    if made is None:
        made = arrays.cache["arcs_at"] = [arcs_at(arrays, v) for v in range(arrays.num_vertices)]
    return made  # type: ignore[return-value]
