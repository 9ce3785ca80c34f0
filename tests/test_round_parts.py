"""The CEGAR round's fast parts against their from-scratch definitions on random small graphs: the labelled
walk, the labelling `merge` gives back, the 2-opt border, the arc table and the directed cut-sets of every
loop at once."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness import kinds
from loopbench_encodings import loop
from loopbench_encodings.loop.arcs import arc_table, arcs_at, directed_cuts, directed_cuts_labelled
from loopbench_encodings.loop.join import _border, merge, merge_labelled

pytestmark = pytest.mark.unit


@st.composite
def loops_in_graphs(draw):
    """A graph made of disjoint loops over most of its vertices (a few left off every loop) and extra
    edges, and those loops' edges, as a model's chosen edges would be."""
    n = draw(st.integers(6, 40))
    order = draw(st.permutations(range(n)))
    loops, start = [], 0
    while n - start >= 3:
        size = draw(st.integers(3, max(3, n - start)))
        loops.append(list(order[start:start + size]))
        start += size
        if draw(st.booleans()) and n - start < 6:  # sometimes leave the last few vertices off the loops
            break
    edges = {tuple(sorted((vs[j - 1], vs[j]))) for vs in loops for j in range(len(vs))}
    for u, v in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n)):
        if u != v:
            edges.add((min(u, v), max(u, v)))
    return n, sorted(edges), loops


def arrays_of(n: int, edges: list[tuple[int, int]]):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "random.col"
        path.write_text(f"p edge {n} {len(edges)}\n" + "".join(f"e {u + 1} {v + 1}\n" for u, v in edges))
        return loop.problem(kinds.read_spec(str(path))).arrays


def walk_from_scratch(arrays, chosen):
    """The loops of `chosen`, each from its smallest edge i walked from ends[i][0], by smallest edge."""
    at = {}
    for i in chosen:
        for v in arrays.ends[i]:
            at.setdefault(v, []).append(i)
    seen, out = set(), []
    for i in sorted(chosen):
        if i in seen:
            continue
        vertices, edges, e, v = [], [], i, arrays.ends[i][0]
        while e not in seen:
            seen.add(e)
            edges.append(e)
            v = arrays.ends[e][1] if arrays.ends[e][0] == v else arrays.ends[e][0]
            vertices.append(v)
            e = next(x for x in at[v] if x != e)
        out.append((vertices, edges))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(loops_in_graphs())
def test_the_labelled_walk_is_the_walk_from_scratch_and_labels_each_vertex_with_its_loop(case):
    n, edges, loops = case
    arrays = arrays_of(n, edges)
    chosen = sorted(arrays.between(vs[j - 1], vs[j]) for vs in loops for j in range(len(vs)))
    walked, where = arrays.labelled_walk(chosen)
    assert walked == walk_from_scratch(arrays, chosen)
    assert where == [next((k for k, (vs, _) in enumerate(walked) if v in vs), -1) for v in range(n)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(loops_in_graphs())
def test_merge_labelled_joins_as_merge_and_its_labels_border_and_cuts_are_those_made_anew(case):
    n, edges, loops = case
    arrays = arrays_of(n, edges)
    chosen = sorted(arrays.between(vs[j - 1], vs[j]) for vs in loops for j in range(len(vs)))
    walked, where = arrays.labelled_walk(chosen)
    walks = [vs for vs, _ in walked]
    if len(walks) < 2:
        return
    border = _border(arrays, where)
    on = {v for vs in walks for v in vs}
    apart = [any(w in on and where[w] != where[v] for i in arrays.incident[v] for w in arrays.ends[i]
                 if w != v)
             for v in range(n)]
    assert list(border) == [int(v in on and a) for v, a in enumerate(apart)]
    given_where = list(where)
    joined, left, after, ids = merge_labelled(arrays, walks, where)
    assert where == given_where  # the caller's labelling is not changed
    assert (joined, left) == merge(arrays, walks)
    assert len(ids) == len(left)
    assert after == [next((k for k, vs in zip(ids, left, strict=True) if v in vs), -1) for v in range(n)]
    first = 3 * arrays.num_edges
    assert directed_cuts_labelled(arrays, first, after, ids) == [
        clause for vs in left for clause in directed_cuts(arrays, first, vs)]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(loops_in_graphs())
def test_the_arc_table_is_every_vertex_s_arcs_in_incident_order(case):
    n, edges, _ = case
    arrays = arrays_of(n, edges)
    rows = [(v, w, out, into) for v in range(n) for w, out, into in arcs_at(arrays, v)]
    columns = [tuple(column.tolist()) for column in arc_table(arrays)]
    assert columns == [tuple(c) for c in zip(*rows, strict=True)]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(loops_in_graphs(), st.data())
def test_separates_counts_as_the_required_vertices_looked_up(case, data):
    n, edges, _ = case
    arrays = arrays_of(n, edges)
    assert len(arrays.required) == n  # a graph's Hamiltonian cycle: every vertex required
    inside = data.draw(st.sets(st.integers(0, n - 1)))
    assert arrays.separates(list(inside)) == (0 < arrays.holds(inside) < len(arrays.required))
