"""Masyu as one CP-SAT model with AddCircuit, written as a plug-in against loopbench's public contract.

Model: a bool per grid edge and an on-loop bool per cell; a cell on the loop has two loop edges,
a cell off it none. A pearl is on the loop. White: the loop goes straight through (both
horizontal edges or both vertical ones) and turns in at least one of the two neighbours it
passes (that neighbour does not carry on in the same direction). Black: the loop turns (one
horizontal and one vertical edge) and goes straight on through the neighbour at both ends
(each used edge continues one more cell the same way). `full`: every cell on the loop. One loop:
each edge is two arcs (one per direction, at most one used) and each cell a self-loop arc meaning
"off the loop"; AddCircuit allows exactly one circuit through the cells that are on. Excluded
answers are forbidden edge set by edge set. Options: num_workers (1: runs comparable across
machines). Stops on the run's CPU-time budget (`limits.clock()`), never on the wall clock.
"""

from __future__ import annotations

from typing import Any

from harness.encoding import SAT, UNKNOWN, UNSAT, Encoding, Limits, Outcome, cpu_time
from harness.grid import DIRECTIONS, Direction, solution_edges, solution_string
from harness.kinds.masyu.model import Pearl

AXES = ((Direction.RIGHT, Direction.LEFT), (Direction.UP, Direction.DOWN))


class ExampleCircuit(Encoding):
    name = "example-circuit"
    puzzles = ("masyu",)
    defaults = {"num_workers": 1}
    imports = ("ortools.sat.python.cp_model",)
    excludes = True

    def solve(self, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        from ortools.sat.python import cp_model  # solver packages are imported inside the encoding

        clock = limits.clock()
        start = cpu_time()
        grid, model = puzzle.grid, cp_model.CpModel()
        x = {e: model.new_bool_var(f"e{e}") for e in grid.edges}
        on = {c: model.new_bool_var(f"on{c}") for c in grid.cells}

        def used(cell, direction):
            """The edge from `cell` one step in `direction` (None off the grid)."""
            other = grid.step(cell, direction)
            return None if other is None else x[min(cell, other), max(cell, other)]

        for c in grid.cells:
            model.add(sum(used(c, d) for d in DIRECTIONS if used(c, d) is not None) == 2 * on[c])
            if puzzle.full:
                model.add(on[c] == 1)
        for c, pearl in puzzle.pearls.items():
            model.add(on[c] == 1)
            if pearl is Pearl.WHITE:
                straight = []
                for d, back in AXES:
                    a, b = used(c, d), used(c, back)
                    if a is None or b is None:
                        continue
                    through = model.new_bool_var("")
                    model.add_bool_and([a, b]).only_enforce_if(through)
                    # A neighbour turns when it does not carry on one more cell the same way.
                    onward = [used(grid.step(c, d), d), used(grid.step(c, back), back)]
                    if all(o is not None for o in onward):
                        model.add_bool_or([~onward[0], ~onward[1]]).only_enforce_if(through)
                    straight.append(through)
                model.add_bool_or(straight)  # with no straight way through, the model is unsat
            else:
                for d, back in AXES:
                    a, b = used(c, d), used(c, back)
                    model.add(sum(e for e in (a, b) if e is not None) == 1)  # a turn: one of each axis
                for d in DIRECTIONS:
                    a = used(c, d)
                    if a is None:
                        continue
                    onward = used(grid.step(c, d), d)
                    if onward is None:
                        model.add(a == 0)  # no room to go straight on past the neighbour
                    else:
                        model.add_implication(a, onward)

        arcs = []
        for (u, v), e in x.items():
            forth, back = model.new_bool_var(""), model.new_bool_var("")
            model.add(e == forth + back)
            arcs += [(grid.index(u), grid.index(v), forth), (grid.index(v), grid.index(u), back)]
        arcs += [(grid.index(c), grid.index(c), ~on[c]) for c in grid.cells]
        model.add_circuit(arcs)
        for answer in exclude:  # some edge of that answer off, or some other edge on
            chosen = solution_edges(grid, answer)
            model.add_bool_or([~x[e] if e in chosen else x[e] for e in grid.edges])
        build_s = cpu_time() - start

        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.options["num_workers"]
        solver.parameters.random_seed = seed
        solver.parameters.max_time_in_seconds = max(clock.left(), 0.01)  # wall time: a backstop only
        with clock.watch(solver.stop_search):  # the CPU-time budget is what counts
            status = solver.solve(model)
        stats = {"build_s": build_s, "conflicts": solver.num_conflicts, "iterations": 1, "cuts": 0}
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            loop = [e for e, var in x.items() if solver.value(var)]
            return Outcome(SAT, solution_string(grid, loop), stats)
        return Outcome(UNSAT if status == cp_model.INFEASIBLE else UNKNOWN, stats=stats)
