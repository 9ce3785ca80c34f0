"""The part of every loop kind's checker that knows only the grid: is the solution one closed loop?

Masyu draws its loop through cell centres, Slitherlink along the (R+1)x(C+1) vertex grid; both
store it as the direction-bit string of harness.grid, so the shape rules are judged here once.
The kinds' checkers add their clue rules on top. Written from the rules, like the checkers.
"""

from __future__ import annotations

from harness.grid import DIRECTIONS, Cell, Grid, parse_solution


def read_loop(grid: Grid, solution: str, noun: str = "cell", plural: str = "cells") -> tuple[
        dict[Cell, int] | None, list[str]]:
    """Each point's direction bits and every way the lines fail to be one non-empty closed loop.

    The bits come back as None when no further rule can be judged on them: the string is
    malformed, a line is one-sided, leaves the grid, ends or branches, or there is no line at all.
    Several loops are reported but the bits are returned, so the clue rules are judged too.
    `noun`/`plural` name the points in the messages (`cell`, `vertex`).
    """
    try:
        bits = parse_solution(grid, solution)
    except ValueError as exc:
        return None, [str(exc)]
    problems = _consistency(grid, bits, noun)
    if problems:
        return None, problems
    on_loop = [point for point in grid.cells if bits[point]]
    if not on_loop:
        return None, ["the solution draws no loop"]
    return bits, _single_loop(grid, bits, on_loop, plural)


def _consistency(grid: Grid, bits: dict[Cell, int], noun: str) -> list[str]:
    problems = []
    for point, b in bits.items():
        for d in DIRECTIONS:
            if not b & d:
                continue
            nxt = grid.step(point, d)
            if nxt is None:
                problems.append(f"{noun} {point} leaves the grid going {d.name.lower()}")
            elif not bits[nxt] & d.opposite:
                problems.append(f"{noun} {point} goes {d.name.lower()} but {nxt} does not come back")
        degree = bin(b).count("1")
        if degree not in (0, 2):
            problems.append(f"{noun} {point} has {degree} loop ends (must be 0 or 2)")
    return problems


def _single_loop(grid: Grid, bits: dict[Cell, int], on_loop: list[Cell], plural: str) -> list[str]:
    seen = {on_loop[0]}
    stack = [on_loop[0]]
    while stack:
        point = stack.pop()
        for d in DIRECTIONS:
            if bits[point] & d:
                nxt = grid.step(point, d)
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    if len(seen) == len(on_loop):
        return []
    return [f"the lines form more than one loop ({len(seen)} of {len(on_loop)} {plural} connected)"]
