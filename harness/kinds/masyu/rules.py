"""Masyu's rules for the loop strategies: the loop problem on the cells, and the pearl rules per backend.

The loop runs through cell centres; it must visit every pearl (every cell of a `full` puzzle).
A white pearl is passed straight (no horizontal edge with a vertical one; an axis that leaves
the grid is unused) and the loop turns in at least one of the two cells it passes to (the edge
beyond one of them is off). A black pearl is a turn (never two opposite edges) and each edge it
uses continues straight through the neighbour (the edge beyond is on; none beyond the border
means the edge is off). Written once as CP-SAT constraints, once as CNF clauses on the edge
variables the loop machinery owns, and once as ASP integrity constraints over its `next`/`link`.
`cnf_implied`, `cpsat_implied` and `asp_implied` add, per backend, the same constraints that follow
from those rules and a pearl's degree 2 only through a conflict (`implied=true`, the default of
every loop strategy: sat, propagator, circuit, lazy, asp), so a strategy comparison compares one model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from harness.grid import Cell, Direction, Grid, edge
from harness.kinds.masyu.model import Masyu, Pearl
from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.grid import on_grid

AXES = ((Direction.LEFT, Direction.RIGHT), (Direction.UP, Direction.DOWN))


def loop_problem(puzzle: Masyu) -> LoopProblem:
    required = puzzle.grid.cells if puzzle.full else puzzle.pearls
    return on_grid(puzzle.grid, required)


def _arm(grid: Grid, cell: Cell, d: Direction, steps: int) -> tuple[Cell, Cell] | None:
    """The edge `steps` cells away from `cell` going `d` (1: the cell's own edge), or None past the border."""
    a = cell
    for _ in range(steps - 1):
        a = grid.step(a, d)
        if a is None:
            return None
    b = grid.step(a, d)
    return None if b is None else edge(a, b)


# --- CP-SAT -----------------------------------------------------------------------------------------

def cpsat(puzzle: Masyu, m: Any) -> None:
    """Add the pearl rules to `m` (a `loop.cpsat.LoopModel`: `m.model`, `m.edge[e]`)."""
    grid = puzzle.grid

    def arm(cell: Cell, d: Direction, steps: int = 1) -> Any:
        e = _arm(grid, cell, d, steps)
        return None if e is None else m.edge[e]

    for c, pearl in puzzle.pearls.items():
        if pearl is Pearl.WHITE:
            _white_cpsat(m.model, arm, c)
        else:
            _black_cpsat(m.model, arm, c)


def _white_cpsat(model: Any, arm: Callable, c: Cell) -> None:
    for d, back_d in AXES:
        there, back = arm(c, d), arm(c, back_d)
        if there is None or back is None:
            for v in (there, back):
                if v is not None:
                    model.add_bool_or([~v])
            continue
        model.add(there == back)
        # Passing along this axis, the loop must turn at one end: the edge beyond one neighbour is off.
        beyond = (arm(c, d, 2), arm(c, back_d, 2))
        if all(v is not None for v in beyond):  # `in` would compare variables with ==
            model.add_bool_or([~there, ~beyond[0], ~beyond[1]])


def _black_cpsat(model: Any, arm: Callable, c: Cell) -> None:
    for d, back_d in AXES:
        there, back = arm(c, d), arm(c, back_d)
        if there is not None and back is not None:
            model.add_bool_or([~there, ~back])
    for d in Direction:
        out = arm(c, d)
        if out is None:
            continue
        beyond = arm(c, d, 2)
        if beyond is None:
            model.add_bool_or([~out])
        else:
            model.add_implication(out, beyond)


def cpsat_implied(puzzle: Masyu, m: Any) -> None:
    """`cnf_implied`'s constraints on `m`'s edges: per black pearl, an edge of each axis; per white
    pearl, the first edge of an axis with both edges in the grid (none: the model is infeasible)."""
    grid = puzzle.grid
    for c, pearl in puzzle.pearls.items():
        def near(d: Direction, c: Cell = c) -> Any:
            e = _arm(grid, c, d, 1)
            return None if e is None else m.edge[e]

        if pearl is Pearl.WHITE:
            m.model.add_bool_or([near(a) for a, b in AXES if near(a) is not None and near(b) is not None])
        else:
            for a, b in AXES:
                m.model.add_bool_or([v for v in (near(a), near(b)) if v is not None])

# --- CNF ----------------------------------------------------------------------------------------------

def cnf(puzzle: Masyu, arrays: Any) -> list[list[int]]:
    """The pearl rules as clauses over the edge variables of `arrays` (a `loop.arrays.LoopArrays`).

    Edges are found by index arithmetic (`_arms`), not by stepping through cells: this runs per
    pearl on every build, hundreds of pearls on a large puzzle.
    """
    rows, cols, h = arrays.rows, arrays.cols, arrays.horizontal
    out: list[list[int]] = []
    for (r, c), pearl in puzzle.pearls.items():
        near, far = _arms(rows, cols, h, r, c)
        out += (_white_cnf if pearl is Pearl.WHITE else _black_cnf)(near, far)
    return out


def _arms(rows: int, cols: int, h: int, r: int, c: int) -> tuple[list[int], list[int]]:
    """The variables of the edges 1 and 2 cells away from (r, c), in `Direction` order (right, up,
    left, down); 0 past the border. Variable i + 1 is edge i: horizontal edge r * (cols - 1) + c
    joins (r, c) to its right, vertical edge h + r * cols + c joins it to the cell below."""
    right = r * (cols - 1) + c + 1
    down = h + r * cols + c + 1
    near = [right if c < cols - 1 else 0, down - cols if r > 0 else 0,
            right - 1 if c > 0 else 0, down if r < rows - 1 else 0]
    far = [right + 1 if c < cols - 2 else 0, down - 2 * cols if r > 1 else 0,
           right - 2 if c > 1 else 0, down + cols if r < rows - 2 else 0]
    return near, far


RIGHT, UP, LEFT, DOWN = range(4)  # positions in `_arms`' lists
AXIS_PAIRS = ((LEFT, RIGHT), (UP, DOWN))


def _white_cnf(near: list[int], far: list[int]) -> list[list[int]]:
    """Straight through (no horizontal edge with a vertical one), and a turn beside it."""
    out = []
    for h in (LEFT, RIGHT):
        for v in (UP, DOWN):
            if near[h] and near[v]:
                out.append([-near[h], -near[v]])
    for a, b in AXIS_PAIRS:
        if near[a] and near[b] and far[a] and far[b]:  # past a border the neighbour must turn
            out.append([-near[a], -near[b], -far[a], -far[b]])
    return out


def _black_cnf(near: list[int], far: list[int]) -> list[list[int]]:
    """A turn (not both edges of an axis), and each used edge continues straight one more cell."""
    out = []
    for a, b in AXIS_PAIRS:
        if near[a] and near[b]:
            out.append([-near[a], -near[b]])
    for d in (RIGHT, UP, LEFT, DOWN):
        if near[d]:
            out.append([-near[d], far[d]] if far[d] else [-near[d]])
    return out


def cnf_implied(puzzle: Masyu, arrays: Any) -> list[list[int]]:
    """Clauses implied by `cnf` and the degree clauses, one per pearl axis or pearl.

    A black pearl turns, so it uses an edge of each axis (an edge of the axis that does not leave
    the grid; none: unsat). A white pearl goes straight along an axis with both edges in the grid,
    so the first edge of one such axis is on (none: unsat). Unit propagation reaches neither
    without a conflict; given up front they cut CaDiCaL's conflicts on masyu-pm-hard-large from a
    median 1,134 to 646, and change no answer.
    """
    rows, cols, h = arrays.rows, arrays.cols, arrays.horizontal
    out: list[list[int]] = []
    for (r, c), pearl in puzzle.pearls.items():
        near, _ = _arms(rows, cols, h, r, c)
        if pearl is Pearl.WHITE:
            out.append([near[a] for a, b in AXIS_PAIRS if near[a] and near[b]])
        else:
            out += ([x for x in (near[a], near[b]) if x] for a, b in AXIS_PAIRS)
    return out


# --- ASP ------------------------------------------------------------------------------------------

ASP_RULES = """
#defined white/1. #defined black/1.
go(X,D) :- next(X,D,Y), link(X,Y).
axis(r,l). axis(d,u).
horizontal(l;r). vertical(u;d).
:- white(X), go(X,D), go(X,E), horizontal(D), vertical(E).
:- white(X), go(X,D), go(X,E), axis(D,E), next(X,D,Y), next(X,E,Z), go(Y,D), go(Z,E).
:- black(X), go(X,D), go(X,E), axis(D,E).
:- black(X), go(X,D), next(X,D,Y), not go(Y,D).
"""


LETTERS = {Direction.RIGHT: "r", Direction.UP: "u", Direction.LEFT: "l", Direction.DOWN: "d"}  # as ASP_RULES


def asp_implied(puzzle: Masyu) -> str:
    """`cnf_implied`'s constraints over `asp`'s `go`: a black pearl goes along each axis (a direction
    past the border has no `go`), a white one along the first direction of an axis that fits."""
    grid = puzzle.grid
    lines = []
    for c, pearl in sorted(puzzle.pearls.items()):
        if pearl is Pearl.WHITE:
            groups = [[a for a, b in AXES if _arm(grid, c, a, 1) and _arm(grid, c, b, 1)]]
        else:
            groups = [list(axis) for axis in AXES]
        x = f"({c[0]},{c[1]})"
        for group in groups:
            # A white pearl with no axis that fits has no answer: the constraint's body is the pearl.
            body = ", ".join(f"not go({x},{LETTERS[d]})" for d in group) or f"white({x})"
            lines.append(f":- {body}.")
    return "\n".join(lines) + "\n"


def asp(puzzle: Masyu) -> str:
    """The pearl rules over the loop program of `loop.asp` (`next`, `link`): pearl facts and constraints.

    White: straight (no horizontal with a vertical edge; degree 2 then leaves one axis), and not
    straight on through both neighbours. Black: no axis passed straight, and each edge it uses
    goes on straight through the neighbour (`not go`: past the border there is no such edge).
    """
    facts = [f"{'white' if pearl is Pearl.WHITE else 'black'}(({r},{c}))."
             for (r, c), pearl in sorted(puzzle.pearls.items())]
    return "\n".join(facts) + ASP_RULES
