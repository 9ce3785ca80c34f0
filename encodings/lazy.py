"""CP-SAT with lazy sub-loop cuts: solve, cut the sub-loops found, solve again (solve–resample).

Model: the local rules of _masyu_cpsat only (a bool per edge, an on-loop bool per cell,
degree 2·on so every cell has degree 0 or 2, pearl rules): every solution is a set of disjoint
loops. After each solve, _subloops.find_cuts splits the chosen edges into loops (networkx
components); if one loop visits every pearl (every cell when `full`) it is the answer.
Otherwise each cut is added to the same CpModel and the model is solved again:
`cuts=loop` forbids each wrong loop (add_bool_or of its negated edges), `cuts=cutset` asks a
loop holding only some pearls for an edge leaving it (add_bool_or of its boundary edges).
`hint=True` hints the previous (now cut off) solution. CP-SAT keeps nothing between solves, so
each round presolves afresh (../shared/notes/solver-apis.md §1, the Masyu subtour part).
All rounds share one time budget; options as in `circuit`, plus `cuts` and `hint`.
"""

from __future__ import annotations

import time

from harness.encoding import SAT, Limits, Outcome
from harness.grid import solution_string
from harness.kinds.masyu.model import Masyu

from ._masyu_cpsat import CpSatEncoding, Session, build
from ._subloops import CUT_FAMILIES, find_cuts, required_cells


class Lazy(CpSatEncoding):
    name = "lazy"
    puzzles = ("masyu",)
    imports = (*CpSatEncoding.imports, "networkx")
    defaults = {**CpSatEncoding.defaults, "cuts": "loop", "hint": False}
    choices = {"cuts": CUT_FAMILIES}

    def solve(self, puzzle: Masyu, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        session = Session(self.options, seed, deadline=time.perf_counter() + limits.time_s)
        start = time.perf_counter()
        m = build(puzzle)
        build_s = time.perf_counter() - start
        grid = puzzle.grid
        must_visit = required_cells(puzzle)
        num_cuts, outside_s = 0, 0.0

        def stats() -> dict:
            return {"build_s": build_s, "cuts": num_cuts, "outside_s": outside_s, **session.stats()}

        while True:
            status = session.solve(m.model)
            if status != SAT:
                return Outcome(status, stats=stats())
            began = time.perf_counter()
            chosen = m.chosen(session.solver)
            cuts = find_cuts(grid, must_visit, chosen, self.options["cuts"])
            if not cuts:
                outside_s += time.perf_counter() - began
                return Outcome(SAT, solution_string(grid, chosen), stats())
            for cut in cuts:
                if cut.require:
                    m.model.add_bool_or([m.edge[e] for e in cut.require])
                else:
                    m.model.add_bool_or([~m.edge[e] for e in cut.forbid])
            num_cuts += len(cuts)
            if self.options["hint"]:
                m.model.clear_hints()
                picked = set(chosen)
                for e, x in m.edge.items():
                    m.model.add_hint(x, e in picked)
            outside_s += time.perf_counter() - began
