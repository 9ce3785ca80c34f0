"""Sub-loop detection and the cuts that forbid sub-loops, shared by the lazy loop strategies.

Given the edges a solver chose (every vertex of degree 0 or 2), the connected components are
loops. If there is one loop and it is complete (every required vertex on it, an edge of every
`hits` group used), the answer is found. Otherwise each wrong loop yields a cut, a clause over
the edges (literal i + 1: edge i is on; -(i + 1): it is off) that every backend adds as it is:
- `cuts=loop`: the loop's own edges cannot all be chosen together (forbid this exact sub-loop);
- `cuts=cutset`: a loop holding some but not all required vertices must have an edge leaving it
  (an edge of its boundary); other wrong loops are forbidden as in `loop`.
- `cuts=disc`: a wrong loop whose disc (the loop and, on a grid, what it encloses) must hold part of
  every answer but not all of it (a required vertex or a `hits` group in it, another out of it)
  asks for an edge leaving the disc: every shape inside the disc at once, not one; the longest loop
  and loops without such a disc are forbidden as in `loop`.
Every cut is valid for every answer: an answer holding all edges of a loop is that loop, so a
loop is forbidden alone only when it cannot be the answer by itself, and otherwise only
together with an edge of another loop. The decision is written once, on integer arrays
(`loop.arrays.LoopArrays.cut_clauses`).
"""

from __future__ import annotations

from collections.abc import Iterable

from loopbench_encodings.loop import LoopProblem
from loopbench_encodings.loop.arrays import Clause

CUT_FAMILIES = ("loop", "cutset", "disc")


def check_family(family: str) -> None:
    if family not in CUT_FAMILIES:
        raise ValueError(f"unknown cut family {family!r} (choose from {', '.join(CUT_FAMILIES)})")


def find_cuts(problem: LoopProblem, chosen: Iterable[int], family: str,
              components: str = "networkx") -> list[Clause]:
    """The cuts violated by the `chosen` edges (by index); an empty list means it is one complete loop."""
    check_family(family)
    return problem.arrays.cut_clauses(list(chosen), family, components)


def exclusion(problem: LoopProblem, solution: str) -> Clause:
    """The cut that rules out exactly one answer: a loop containing all its edges is that loop."""
    return [-i - 1 for i in problem.edge_ids(solution)]
