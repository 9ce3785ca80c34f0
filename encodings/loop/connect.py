"""The connectivity watch: an IPASIR-UP propagator keeping the graph of edges not false able to hold a loop.

A loop through the required vertices crosses every cut that separates two of them an even number
of times, at least twice. On H, the graph of the edges not false, one depth-first search from a
required vertex finds the cuts of H with at most two edges (`cuts_of`): each back edge gets a
random 64-bit label and each tree edge the XOR of the labels of the back edges over it, so a tree
edge labelled 0 is a bridge of H, one labelled as a single back edge forms a 2-edge cut with it,
and tree edges labelled alike form 2-edge cuts pairwise (two consecutive ones on a root path bound
a side). Where a side S holds a required vertex (the root, outside it, is another):
- (a) a required vertex H does not reach: conflict, the clause "an edge of δ(C)" for its part C
  of H (every edge of it false);
- (b) a bridge b of H: conflict, the clause δ(S) less b (every edge of it false): a loop uses at
  least two edges of δ(S), so one that is not b;
- (c) a 2-edge cut {e, f}: e and f true, the reason of e being δ(S) less f (and of f, less e),
  made when the solver asks for it.
Before any search, at every propagate() call: a required vertex left with two edges not false gets
both (the cut around it alone, found from the edges made false since the last call; the degree
clauses leave this to search). Every clause is of edges to use, and `harness.proof.cuts` judges
it: δ(S) separates two required vertices, and δ(S) less one edge does once that edge is removed
too. (d) Closed sub-cycles are the loop watch's (`loop.watch`, behind this one: its callbacks are
called from these).
The search is O(V + E) in Python, so it runs only after an edge became false since the last one
(true edges leave H as it is; a backtrack only adds edges to H, which removes cuts) and, with a
`ratio`, once the on_assignment calls since the last search reach that search's work (vertices
and edges visited) divided by the ratio (no clock is read, so a run repeats). Only required
vertices are demands: a vertex on the loop because an edge of it is true would make a clause that
mixes edges to use and edges to leave out.
"""

from __future__ import annotations

import random

LABEL_SEED = 20261125  # fixed: the labels, and so every search, are the same in every run


def cuts_of(n: int, adjacency, value, is_required, total: int, root: int, labels):
    """The cuts of H (the edges whose `value` is not 2) with at most two edges, from a search at `root`.

    `adjacency[v]`: (edge variable, neighbour) pairs. Returns (conflict, forced, work): `conflict`,
    a clause of false edges, or None; `forced`: (edge variable, reason maker) pairs, the maker
    giving the reason clause when called; `work`: vertices and edges visited.
    """
    pre = [-1] * n
    parent = [-1] * n
    parent_edge = [0] * n
    order = [root]  # vertices in preorder
    xor = [0] * n  # per vertex: the XOR of the labels of the back edges at it
    back_label: dict[int, int] = {}  # label -> back edge variable
    pre[root] = 0
    stack = [(root, iter(adjacency[root]))]
    work = 0
    while stack:
        v, it = stack[-1]
        for var, w in it:
            work += 1
            if value[var] == 2 or var == parent_edge[v]:
                continue
            if pre[w] < 0:
                pre[w] = len(order)
                order.append(w)
                parent[w], parent_edge[w] = v, var
                stack.append((w, iter(adjacency[w])))
                break
            if pre[w] < pre[v]:  # a back edge up to an ancestor (seen once, from its lower end)
                lab = labels[var]
                xor[v] ^= lab
                xor[w] ^= lab
                back_label[lab] = var
        else:
            stack.pop()
    reached = len(order)
    work += reached
    req = [is_required[v] for v in order]
    if sum(req) < total:
        w = next(v for v in range(n) if is_required[v] and pre[v] < 0)
        return part_boundary(w, adjacency, value), [], work
    size = [1] * reached
    lab = [xor[v] for v in order]
    for i in range(reached - 1, 0, -1):  # children before parents
        p = pre[parent[order[i]]]
        size[p] += size[i]
        req[p] += req[i]
        lab[p] ^= lab[i]
    classes: dict[int, list[int]] = {}
    forced: list = []
    for i in range(reached - 1, 0, -1):
        tree = parent_edge[order[i]]
        if req[i]:
            if lab[i] == 0:  # a bridge of H: the side below it holds a required vertex, the root another
                side = Side(order, pre, i, size[i])
                return side.boundary(adjacency, tree), [], work
            other = back_label.get(lab[i])
            # one back edge over it: {tree, back edge}, the side below (nothing to do when both are
            # true, as along every path of true edges: most of the 2-edge cuts a search meets)
            if other is not None and (value[tree] != 1 or value[other] != 1):
                forced += pair(tree, other, Side(order, pre, i, size[i]), adjacency, value)
        classes.setdefault(lab[i], []).append(i)
    for members in classes.values():
        if len(members) < 2:
            continue
        members.sort()
        for upper, lower in zip(members, members[1:], strict=False):
            e, f = parent_edge[order[upper]], parent_edge[order[lower]]
            if value[e] == 1 and value[f] == 1 or lower >= upper + size[upper] or req[upper] == req[lower]:
                continue  # both true, not nested (labels alike by chance), or no required vertex between
            forced += pair(e, f, Side(order, pre, upper, size[upper], lower, size[lower]), adjacency, value)
    return None, forced, work


class Side:
    """The vertices of one search's subtree at preorder `top` (`size` of them), less the subtree at `hole`."""

    __slots__ = ("order", "pre", "top", "end", "hole", "hole_end")

    def __init__(self, order, pre, top: int, size: int, hole: int = -1, hole_size: int = 0) -> None:
        self.order, self.pre, self.top, self.end = order, pre, top, top + size
        self.hole, self.hole_end = hole, hole + hole_size

    def boundary(self, adjacency, skip: int = 0) -> list[int]:
        """The edge variables with one end on this side, less `skip`."""
        pre, top, end, hole, hole_end = self.pre, self.top, self.end, self.hole, self.hole_end
        out = []
        for k in range(top, end):
            if hole <= k < hole_end:
                continue
            for var, w in adjacency[self.order[k]]:
                x = pre[w]
                if var != skip and (not top <= x < end or hole <= x < hole_end):
                    out.append(var)
        return out


def pair(e: int, f: int, side: Side, adjacency, value) -> list:
    """The propagations of the 2-edge cut {e, f} of H around `side`: each edge not yet true, with a
    maker of its reason (the cut less the other edge, its own literal first)."""
    out = []
    for lit, other in ((e, f), (f, e)):
        if value[lit] != 1:
            out.append((lit, lambda lit=lit, other=other: [lit] + [x for x in side.boundary(adjacency, other)
                                                                   if x != lit]))
    return out


def part_boundary(w: int, adjacency, value) -> list[int]:
    """The edges leaving w's part of H, every one of them false."""
    seen = {w}
    todo = [w]
    while todo:
        v = todo.pop()
        for var, x in adjacency[v]:
            if value[var] != 2 and x not in seen:
                seen.add(x)
                todo.append(x)
    return [var for v in seen for var, x in adjacency[v] if x not in seen]


def adjacency_of(arrays) -> list[tuple[tuple[int, int], ...]]:
    """Each vertex's (edge variable, neighbour) pairs."""
    ends = arrays.ends
    return [tuple((i + 1, ends[i][0] + ends[i][1] - v) for i in here)
            for v, here in enumerate(arrays.incident)]


def labels_of(num_edges: int) -> list[int]:
    """A random 64-bit label per edge variable (index 0 unused), the same in every run."""
    rng = random.Random(LABEL_SEED)
    return [0] + [rng.getrandbits(64) for _ in range(num_edges)]


def static_cut(problem) -> str:
    """Why the graph itself holds no loop (required vertices apart, or joined by a bridge only), or "".

    With no edge false such a cut's clause is empty, which no solver's proof shows: the strategy
    answers before any solver, as `loop.refuse` does for a vertex of degree 1.
    """
    arrays = problem.arrays
    if len(arrays.required) < 2:
        return ""
    conflict, _, _ = cuts_of(arrays.num_vertices, adjacency_of(arrays), bytearray(arrays.num_edges + 1),
                             arrays.is_required, len(arrays.required), arrays.required[0],
                             labels_of(arrays.num_edges))
    if conflict is None:
        return ""
    return "required vertices are apart, or joined by a bridge only: a loop through them crosses a cut once"


def connect_watch(problem, watch, ratio: float = float("inf"), record=None, strict: bool = False):
    """The connectivity propagator for `problem`, with the loop watch `watch` behind it.

    `ratio`: see the module docstring (inf: a search at every propagate() call after an edge became
    false). `record(clause)` is called with every clause handed to the solver, the loop watch's
    included (cuts when added, the reason of every propagation as it is made, asked for or not): a
    proof's CNF must hold them. `strict` checks
    every reason and conflict against this watch's view of the assignment.
    """
    from pysat.engines import Propagator as Base

    arrays = problem.arrays
    n, m, ends = arrays.num_vertices, arrays.num_edges, arrays.ends
    adjacency = adjacency_of(arrays)
    is_required, total = arrays.is_required, len(arrays.required)
    root = arrays.required[0] if total else 0
    labels = labels_of(m)
    value = bytearray(m + 1)  # by variable: 0 unassigned, 1 true, 2 false
    live = [len(here) for here in arrays.incident]  # per vertex: its edges not false
    touched: list[int] = []  # required vertices left with two edges not false since the last propagate()
    trail: list[int] = []
    levels: list[int] = []
    fixed_vars: set[int] = set()
    reasons: dict = {}  # edge variable -> the maker of its reason (the latest propagation)
    pending: list[list[int]] = []
    queue: list[int] = []  # this watch's propagations not yet handed over, the next last
    counts = {"connect_local": 0, "connect_searches": 0, "connect_work": 0, "connect_conflicts": 0,
              "connect_propagations": 0, "connect_reasons": 0}
    dirty, since, due = True, 0, 0.0
    active = total >= 2  # with fewer required vertices no cut separates two

    def falsified(clause: list[int], but: int = 0) -> bool:
        return all(value[abs(x)] == (2 if x > 0 else 1) for x in clause if x != but)

    def local() -> list[int]:
        """The two edges left at a required vertex, set true: the cut around the vertex alone."""
        out = []
        while touched:
            v = touched.pop()
            if live[v] != 2:
                continue
            left = [var for var, _ in adjacency[v] if value[var] != 2]
            for var in left:
                if not value[var]:
                    out.append(var)
                    closed = [x for x, _ in adjacency[v] if value[x] == 2]
                    reasons[var] = lambda var=var, closed=closed: [var, *closed]
        counts["connect_local"] += len(out)
        return out

    def search() -> list[int]:
        nonlocal dirty, since, due
        counts["connect_searches"] += 1
        conflict, forced, work = cuts_of(n, adjacency, value, is_required, total, root, labels)
        counts["connect_work"] += work
        dirty, since, due = False, 0, work / ratio
        if conflict is not None:
            assert not strict or falsified(conflict), conflict
            counts["connect_conflicts"] += 1
            pending.append(conflict)
            return []
        out = []
        for lit, maker in forced:
            if not value[lit]:
                reasons[lit] = maker
                out.append(lit)
        counts["connect_propagations"] += len(out)
        return out

    class ConnectWatch(Base):
        """Cuts of H with at most two edges, then the loop watch; see the module docstring."""

        def stats(self) -> dict:
            return {**watch.stats(), **counts}

        def out_of_time(self) -> bool:
            return watch.out_of_time()  # the loop watch reads the clock and stops the solve

        def on_assignment(self, lit: int, fixed: bool = False) -> None:
            nonlocal dirty, since
            watch.on_assignment(lit, fixed)
            var = abs(lit)
            since += 1
            if fixed:
                fixed_vars.add(var)
            if value[var]:
                return
            trail.append(lit)
            if lit < 0:
                value[var] = 2
                dirty = True
                for v in ends[var - 1]:
                    live[v] -= 1
                    if live[v] == 2 and is_required[v] and active:
                        touched.append(v)
            else:
                value[var] = 1

        def on_new_level(self) -> None:
            watch.on_new_level()
            levels.append(len(trail))

        def on_backtrack(self, to: int) -> None:
            watch.on_backtrack(to)
            if len(levels) > to:
                start = levels[to]
                del levels[to:]
                undone = trail[start:]
                del trail[start:]
                for lit in undone:
                    value[abs(lit)] = 0
                    if lit < 0:
                        a, b = ends[-lit - 1]
                        live[a] += 1
                        live[b] += 1
                for lit in undone:  # fixed literals stay
                    if abs(lit) in fixed_vars and not value[abs(lit)]:
                        trail.append(lit)
                        value[abs(lit)] = 2 if lit < 0 else 1
                        if lit < 0:
                            a, b = ends[-lit - 1]
                            live[a] -= 1
                            live[b] -= 1
                touched.clear()
                queue.clear()

        def decide(self) -> int:
            return 0

        def propagate(self) -> list[int]:
            out = watch.propagate()
            if not (out or pending or not active or watch.has_clause()):
                if not queue:
                    if touched:
                        queue.extend(local())
                    if not queue and dirty and since >= due:
                        queue.extend(search())
                    queue.reverse()
                # one at a time, the loop watch between them: a batch of true edges could close a
                # cycle before the watch sets the closing edge false (seen: thousands of wrong models)
                while queue and not out:
                    lit = queue.pop()
                    if not value[lit]:
                        out = [lit]
                if out and not levels:  # at the root, its reason as a clause: see `loop.watch` (ROOT)
                    pending.append(reasons[out[0]]())
                    return []
            if out and record is not None:
                # CaDiCaL does not ask the reason of every literal its proof rests on (one propagated
                # at the root, for one): with a proof, every reason goes into the CNF as it is made
                for lit in out:
                    record(reasons[lit]() if lit > 0 else watch.provide_reason(lit))
            return out

        def provide_reason(self, lit: int) -> list[int]:
            if lit > 0 and lit in reasons:
                counts["connect_reasons"] += 1
                reason = reasons[lit]()
                # lit itself may be false: a conflict, when a literal propagated with it made it so
                assert not strict or falsified(reason, lit), (lit, reason)
            else:
                reason = watch.provide_reason(lit)
                assert not strict or falsified(reason, lit), (lit, reason)
            return reason

        def check_model(self, model: list[int]) -> bool:
            return watch.check_model(model)

        def has_clause(self) -> bool:
            return bool(pending) or watch.has_clause()

        def add_clause(self) -> list[int]:
            clause = pending.pop() if pending else watch.add_clause()
            if record is not None and clause:  # the empty one is the watch's stop at its deadline, no cut
                record(clause)
            return clause

    return ConnectWatch()
