"""A grid loop's inside and outside as CNF: a Boolean per face, an edge on exactly where its faces differ.

A face is a unit square of the loop's grid (for Slitherlink, a cell; for Masyu, the square between
four cell centres); everything beyond the grid is one face, always outside. Any drawing in which
every vertex has even degree (a set of loops) is the boundary of exactly one set of faces that
leaves the outside out (a planar graph's even subgraphs are sums of face boundaries), so these
clauses keep every answer, each with one colouring, and rule out none: they only add variables
that say which side of the loop a face is on. What they give a solver is global: a loop cannot
close without separating inside from outside, and a clause learnt over the faces speaks for every
edge around them. Variable `first + 1 + i * (cols - 1) + j` is the face whose top-left corner is
vertex (i, j).
"""

from __future__ import annotations

from .arrays import Clause
from .graph import LoopGraph


def colour_clauses(graph: LoopGraph, first: int) -> list[Clause]:
    """`edge <-> (face a xor face b)` for every edge of `graph`, the faces numbered after `first`.

    The faces are the unit squares of the grid capability (`shape`); a graph without it has none here.

    Four clauses an edge between two faces, two an edge on the rim (its outer face is false),
    none for a 1-wide grid's edges (a line has no face: they stay off, which degree 0/2 says already).
    """
    shape = graph.shape
    if shape is None:
        raise ValueError("colour_clauses needs a graph with the grid capability (its `shape`)")
    rows, cols, horizontal = shape.rows, shape.cols, shape.horizontal
    width = cols - 1  # faces a row

    def face(i: int, j: int) -> int:  # 0: the outside
        return first + 1 + i * width + j if 0 <= i < rows - 1 and 0 <= j < width else 0

    out: list[Clause] = []
    add = out.extend
    edges = [(i * width + j + 1, face(i - 1, j), face(i, j)) for i in range(rows) for j in range(width)]
    edges += [(horizontal + i * cols + j + 1, face(i, j - 1), face(i, j))
              for i in range(rows - 1) for j in range(cols)]
    for e, a, b in edges:
        if a and b:
            add(([-e, a, b], [-e, -a, -b], [e, -a, b], [e, a, -b]))
        elif a or b:
            inside = a or b
            add(([-e, inside], [e, -inside]))
        else:
            out.append([-e])
    return out
