"""No watch propagates a literal at decision level 0: it hands the reason over as a clause, a unit there.

CaDiCaL 1.9.5 assigns an external propagation at level 0 with no reason, never marks it fixed and
never tells the propagator; a later `reduce` then died in `unprotect_reasons` (`connect` on the 70x70
grid of graph-hard, whose first search propagates at the root). Each helper here is wrapped to follow
CaDiCaL's decision level, and every literal it meant to set at the root must come back as fixed.
"""

from __future__ import annotations

from pysat.solvers import Solver
from test_graph_loop import complete, grid

from harness import kinds
from loopbench_encodings import loop
from loopbench_encodings.loop.cnf import loop_clauses
from loopbench_encodings.loop.connect import connect_watch
from loopbench_encodings.loop.watch import loop_watch


def followed(helper):
    """`helper` with its decision level followed: returns (at_root, clauses, fixed), the literals it
    handed over as propagations at level 0, the clauses it handed over there and the literals CaDiCaL
    reported fixed."""
    level, at_root, clauses, fixed = [0], [], [], set()
    on_new_level, on_backtrack = helper.on_new_level, helper.on_backtrack
    propagate, on_assignment, add_clause = helper.propagate, helper.on_assignment, helper.add_clause

    def new_level():
        level[0] += 1
        on_new_level()

    def backtrack(to):
        level[0] = to
        on_backtrack(to)

    def propagated():
        out = propagate()
        if not level[0]:
            at_root.extend(out)
        return out

    def assigned(lit, is_fixed=False):
        if is_fixed:
            fixed.add(lit)
        on_assignment(lit, is_fixed)

    def added():
        clause = add_clause()
        if not level[0]:
            clauses.append(clause)
        return clause

    helper.on_new_level, helper.on_backtrack, helper.propagate = new_level, backtrack, propagated
    helper.on_assignment, helper.add_clause = assigned, added
    return at_root, clauses, fixed


def attach(solver, problem, helper):
    solver.connect_propagator(helper)
    for var in range(1, problem.arrays.num_edges + 1):
        solver.observe(var)


def test_connect_hands_its_root_cuts_over_as_units():
    # the corners of a grid: two edges each, a 2-edge cut the first search (at the root) finds
    g = grid(4, 6)
    problem = loop.problem(g)
    arrays = problem.arrays
    corners = [v for v in range(g.n) if len(arrays.incident[v]) == 2]
    corner_edges = {i + 1 for v in corners for i in arrays.incident[v]}
    with Solver(name="cadical195", bootstrap_with=loop_clauses(g, problem)) as solver:
        helper = connect_watch(problem, loop_watch(problem, "loop", strict=True), strict=True)
        at_root, clauses, fixed = followed(helper)
        attach(solver, problem, helper)
        assert solver.solve()
        model = solver.get_model()
    assert at_root == []
    units = {clause[0] for clause in clauses if len(clause) == 1}  # no edge is false yet: the cut is {e, f}
    assert units & corner_edges and units <= fixed  # handed over as units, and so reported fixed
    assert not kinds.check(g, problem.solution(arrays.chosen(model)))


def test_the_loop_watch_hands_its_root_propagations_over_as_units():
    # K5 with edges 0-1 and 1-2 fixed between solves: the path 0-1-2 grows at the root, and closing it
    # with 0-2 would leave 3 and 4 off the loop, so the watch rules 0-2 out there
    g = complete(5)
    problem = loop.problem(g)
    arrays = problem.arrays
    edge = {tuple(sorted(arrays.ends[i])): i + 1 for i in range(arrays.num_edges)}
    with Solver(name="cadical195", bootstrap_with=loop_clauses(g, problem)) as solver:
        helper = loop_watch(problem, "loop", strict=True)
        at_root, clauses, fixed = followed(helper)
        attach(solver, problem, helper)
        assert solver.solve()
        solver.add_clause([edge[0, 1]])
        solver.add_clause([edge[1, 2]])
        assert solver.solve()
        model = solver.get_model()
    assert at_root == []
    assert {-edge[0, 2], -edge[0, 1], -edge[1, 2]} in map(set, clauses) and -edge[0, 2] in fixed
    chosen = arrays.chosen(model)
    assert not kinds.check(g, problem.solution(chosen))
    assert {edge[0, 1], edge[1, 2]} <= {i + 1 for i in chosen}
