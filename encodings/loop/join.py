"""Several loops joined into one by exchanges along graph edges (`join`): a model's sub-loops made an answer.

The published CEGAR for Hamiltonian cycles (Ohashi, Soh, Le Berre et al., SAT 2025, option `2opt`)
joins the sub-cycles of a model before it blocks them: a model of k loops that cover every vertex is
often one exchange away from a Hamiltonian cycle. Moves, each on the loops' own edges:
- 2-opt: loops L and M, an edge (a, b) of L and (c, d) of M, and graph edges a-c and b-d: drop
  (a, b) and (c, d), add (a, c) and (b, d); the two loops become one;
- 3-opt: three loops, an edge of each, (a, b), (c, d) and (e, f), and graph edges a-c, d-e and f-b:
  drop the three, add those; the three loops become one.
The smallest loop is joined first, to the first partner found walking it (a deterministic order);
a 3-opt search gives up after THREE_OPT_WORK candidates.
What comes out is one loop over the same vertices, or None when some loop has no move left; the
caller decides whether it is an answer (the kind's rules, the required vertices: a puzzle's loop
must still satisfy its clues), as for any model. `merge` (the published `2opt3`) goes on past a loop
with no move, joining whichever loops still can, and gives the loops left: their vertex sets are the
cuts the published CEGAR blocks instead of the model's own loops.
"""

from __future__ import annotations

from loopbench_encodings.loop.arrays import LoopArrays

MOVES = ("2opt", "3opt")
THREE_OPT_WORK = 200_000  # candidate third vertices a 3-opt search looks at before it gives up
SETTLED_CHECK = 8  # up to this many loops, a walk whose partners are all settled is not made


def join(arrays: LoopArrays, loops: list[list[int]], moves: str = "3opt") -> list[int] | None:
    """The edges (by index) of one loop over the vertices of `loops` (each given by its vertices in
    walking order), made by 2-opt moves (and 3-opt ones with `moves="3opt"`); None if they do not join."""
    if len(loops) < 2:
        return None
    return _joining(arrays, loops, moves, further=False)[0]


def merge(arrays: LoopArrays, loops: list[list[int]],
          moves: str = "2opt") -> tuple[list[int] | None, list[list[int]]]:
    """`loops` joined as far as the moves go: (the edges of one loop, or None; the vertices of each
    loop left, the joined ones together). A loop with no move is passed over, not the end."""
    return merge_labelled(arrays, loops, None, moves)[:2]


def merge_labelled(arrays: LoopArrays, loops: list[list[int]], where: list[int] | None,
                   moves: str = "2opt") -> tuple[list[int] | None, list[list[int]], list[int], list[int]]:
    """`merge`, given (or else making) the loop each vertex is on (`where`: its index in `loops`, -1:
    none; `LoopArrays.labelled_walk` gives it), and giving back besides that labelling after the joins
    (a vertex labelled with the loop it ended in) and the labels of the loops left, in their order."""
    if len(loops) < 2:
        return None, [list(vertices) for vertices in loops], where or [], list(range(len(loops)))
    return _joining(arrays, loops, moves, further=True, where=where)


def _joining(arrays: LoopArrays, loops: list[list[int]], moves: str, further: bool,
             where: list[int] | None = None
             ) -> tuple[list[int] | None, list[list[int]], list[int], list[int]]:
    """`join`'s and `merge`'s moves: smallest loop first; `further`: past a loop with no move. Gives
    the one loop's edges (or None), the loops left, the labelling after the joins and the labels left."""
    n = arrays.num_vertices
    if where is None:
        where = [-1] * n  # the loop each vertex is on
        for k, vertices in enumerate(loops):
            for v in vertices:
                where[v] = k
    else:
        where = list(where)  # the caller's stays as it was given
    nb: list = [None] * n  # each vertex's two neighbours on its loop (a list: moves swap them)
    for vertices in loops:
        for v, before, after in zip(vertices, vertices[-1:] + vertices[:-1], vertices[1:] + vertices[:1],
                                        strict=True):
            nb[v] = [before, after]
    members: list[list[int]] = list(loops)  # a joined loop's list is made anew, never the caller's changed
    border = _border(arrays, where)
    neighbours = _neighbours(arrays)
    adjacent = _adjacent(arrays)
    between = arrays.between
    alive = set(range(len(loops)))

    def swap(v: int, old: int, new: int) -> None:
        pair = nb[v]
        pair[pair.index(old)] = new

    def absorb(into: int, *others: int) -> None:
        for k in others:
            for v in members[k]:
                where[v] = into
            members[into] = members[into] + members[k]
            members[k] = []
            alive.discard(k)

    # A 2-opt move joins two loops whichever of them is walked, so a loop found stuck has no 2-opt
    # move with any loop that has not changed since: `_two_opt` skips those partners (the same move is
    # found first, only sooner). `changed[k]` and `stuck[k]` are ticks of one clock.
    stuck: dict[int, int] = {}  # loops with no move left (a loop that takes in another may have one again)
    changed = [0] * len(loops)
    tick = 0
    while len(alive) > 1 and (free := alive - stuck.keys()):
        small = min(free, key=lambda k: (len(members[k]), k))
        since = changed[small]
        into = None
        # with few loops, look first whether any is left to try (two loops: the second walk is saved)
        if len(alive) > SETTLED_CHECK or any(stuck.get(k, -1) <= since for k in alive if k != small):
            into = _two_opt(small, members, where, nb, neighbours, adjacent, swap, absorb, stuck, since,
                            border)
        if into is None and moves == "3opt":
            into = _three_opt(small, members, where, nb, neighbours, between, swap, absorb)
        tick += 1
        if into is None:
            if not further:
                return None, [], where, []
            stuck[small] = tick
        else:
            stuck.pop(into, None)
            changed[into] = tick
    ids = sorted(alive)
    left = [members[k] for k in ids]
    if len(left) > 1:
        return None, left, where, ids
    return sorted({between(v, w) for v in left[0] for w in nb[v]}), left, where, ids


def _neighbours(arrays: LoopArrays) -> list[list[int]]:
    """Each vertex's neighbours in the graph, made once per graph (its cache)."""
    made = arrays.cache.get("join_neighbours")
    if made is None:
        ends = arrays.ends
        made = arrays.cache["join_neighbours"] = [[ends[i][0] + ends[i][1] - v for i in here]
                                                  for v, here in enumerate(arrays.incident)]
    return made  # type: ignore[return-value]


def _adjacent(arrays: LoopArrays) -> list[frozenset[int]]:
    """Each vertex's neighbours as a set, for the membership tests of 2-opt (its cache)."""
    made = arrays.cache.get("join_adjacent")
    if made is None:
        made = arrays.cache["join_adjacent"] = [frozenset(here) for here in _neighbours(arrays)]
    return made  # type: ignore[return-value]


def _two_opt(small, members, where, nb, neighbours, adjacent, swap, absorb, stuck, since,
             border) -> int | None:
    """The first 2-opt move from loop `small` (walked in order) to another loop, made; its partner.
    A partner stuck (found with no move) after `since`, when `small` last changed, has none with it.
    Only vertices at the border (`_border`) can have a move; at each, its neighbours on other loops that
    may have one are found first; the moves are then tried in the order a walk over a's two loop
    neighbours, its graph neighbours and theirs would try them."""
    get = stuck.get
    for a in filter(border.__getitem__, members[small]):
        across = [c for c in neighbours[a] if (other := where[c]) >= 0 and other != small
                  and get(other, -1) <= since]
        if not across:
            continue
        for b in nb[a]:
            near = adjacent[b]
            for c in across:
                for d in nb[c]:
                    if d in near:
                        other = where[c]
                        swap(a, b, c), swap(b, a, d), swap(c, d, a), swap(d, c, b)
                        absorb(other, small)
                        return other
    return None


def _border(arrays: LoopArrays, where: list[int]) -> bytearray:
    """1 at each vertex on a loop with a graph neighbour on another loop: the only vertices a 2-opt move
    can start at. Joins only make loops larger, so a vertex off the border stays off it (one pass over
    the graph's arcs in numpy, before the moves)."""
    import numpy as np

    from .arcs import arc_table

    tail, head = arc_table(arrays)[:2]
    label = np.asarray(where)
    at_tail, at_head = label[tail], label[head]
    marks = np.zeros(arrays.num_vertices, dtype=np.uint8)
    marks[tail[(at_tail >= 0) & (at_head >= 0) & (at_tail != at_head)]] = 1
    return bytearray(marks.tobytes())


def _three_opt(small, members, where, nb, neighbours, between, swap, absorb) -> int | None:
    work = THREE_OPT_WORK  # a dense graph's neighbourhoods squared could take seconds: give up instead
    for a in members[small]:
        for b in nb[a]:
            for c in neighbours[a]:
                second = where[c]
                if second < 0 or second == small:
                    continue
                for d in nb[c]:
                    for e in neighbours[d]:
                        third = where[e]
                        work -= 1
                        if work < 0:
                            return None
                        if third < 0 or third in (small, second):
                            continue
                        for f in nb[e]:
                            if between(f, b) >= 0:
                                swap(a, b, c), swap(b, a, f), swap(c, d, a)
                                swap(d, c, e), swap(e, f, d), swap(f, e, b)
                                absorb(second, small, third)
                                return second
    return None
