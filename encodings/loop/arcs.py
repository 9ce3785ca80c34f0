"""The loop's edges oriented: two arc variables an edge, at most one arc out of and into a vertex (`arcs`).

An answer's loop can be walked one way round, so orienting it costs no answer: each edge variable
is on exactly when one of its two arcs is (`e <-> a_uv | a_vu`, never both), and every vertex has
at most one arc out and at most one arc in (exactly one of each when it is required). With the
degree clauses this is the arc model of the published CEGAR for Hamiltonian cycles (Ohashi, Soh,
Le Berre et al., SAT 2025: one arc out and one in per vertex, two-cycles forbidden), kept beside
the edge variables, so answers and proofs stay over the edges (`directed_cuts` gives a cut-set over
the arcs, the published blocking clauses, for `sat:directed=true`). Arc variables are numbered
from `first + 1`: arc u->v of edge i is `first + 2i + 1`, v->u `first + 2i + 2` (u < v); the
counters of vertices of degree above PAIRWISE_MAX follow them.
"""

from __future__ import annotations

from loopbench_encodings.loop.arrays import Clause, LoopArrays

PAIRWISE_MAX = 6  # up to this degree "at most one" is a clause per pair; a sequential counter above


def arc_clauses(arrays: LoopArrays, first: int, asymmetry: bool = False) -> tuple[list[Clause], int]:
    """The clauses of the module docstring and the last variable they use; `asymmetry`: and the
    clauses that keep one of each loop's two directions (`asymmetry_clauses`)."""
    out: list[Clause] = []
    n = arrays.num_vertices
    outs: list[list[int]] = [[] for _ in range(n)]
    ins: list[list[int]] = [[] for _ in range(n)]
    for i, (u, v) in enumerate(arrays.ends):
        e, forth, back = i + 1, first + 2 * i + 1, first + 2 * i + 2
        out += ([-e, forth, back], [e, -forth], [e, -back], [-forth, -back])
        outs[u].append(forth)
        ins[v].append(forth)
        outs[v].append(back)
        ins[u].append(back)
    top = first + 2 * arrays.num_edges
    required = arrays.is_required
    for v in range(n):
        for lits in (outs[v], ins[v]):
            if required[v]:
                out.append(list(lits))
            if len(lits) <= PAIRWISE_MAX:
                out += ([-a, -b] for k, a in enumerate(lits) for b in lits[k + 1:])
            else:
                from pysat.card import CardEnc, EncType

                most = CardEnc.atmost(lits, bound=1, top_id=top, encoding=EncType.seqcounter)
                out += most.clauses
                top = max(top, most.nv)
    if asymmetry:
        out += asymmetry_clauses(arrays, first)
    return out, top


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
    ends = arrays.ends
    arcs = []  # (neighbour, arc v->neighbour, arc neighbour->v)
    for i in incident[v]:
        u, w = ends[i]
        forth, back = first + 2 * i + 1, first + 2 * i + 2  # u->w, w->u
        arcs.append((w, forth, back) if u == v else (u, back, forth))
    arcs.sort()
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
    arcs_at = _arcs_at(arrays)
    for v in sorted(vertices):
        for w, out, into in arcs_at[v]:
            if not inside[w]:
                leaving.append(first + out)
                entering.append(first + into)
    return [leaving, entering]


def _arcs_at(arrays: LoopArrays) -> list[tuple[tuple[int, int, int], ...]]:
    """Each vertex's (neighbour, arc out to it, arc in from it) in incident order, the arcs numbered
    from 1 (u->w of edge i is 2i + 1, w->u 2i + 2): made once per graph (its cache)."""
    made = arrays.cache.get("arcs_at")
    if made is None:
        ends = arrays.ends
        made = arrays.cache["arcs_at"] = [
            tuple((ends[i][1], 2 * i + 1, 2 * i + 2) if ends[i][0] == v
                  else (ends[i][0], 2 * i + 2, 2 * i + 1) for i in here)
            for v, here in enumerate(arrays.incident)]
    return made  # type: ignore[return-value]
