"""The independent Castle Wall checker, from the rules alone (no code shared with any encoding)."""

from __future__ import annotations

from harness.grid import Direction
from harness.kinds.castlewall.model import INSIDE, CastleWall
from harness.kinds.janko_loop import SIDES, ray
from harness.kinds.loopcheck import read_loop


def check(puzzle: CastleWall, solution: str) -> list[str]:
    grid = puzzle.grid
    bits, problems = read_loop(grid, solution)
    if bits is None:
        return problems
    for (r, c), wall in puzzle.walls().items():
        if bits[(r, c)]:
            problems.append(f"the loop enters the wall at {(r, c)}")
            continue
        if wall.colour:
            # a ray from the cell's centre leftwards, just above it, crosses the loop where a cell
            # on its way has a line going up
            inside = sum(1 for k in range(c) if bits[(r, k)] & Direction.UP) % 2 == 1
            if inside != (wall.colour == INSIDE):
                problems.append(f"the wall at {(r, c)} lies {'inside' if inside else 'outside'} the loop")
        if wall.number is not None:
            d = SIDES[wall.arrow]
            # every cell on the ray but the last: its line onwards along the arrow is one segment
            length = sum(1 for cell in ray(grid, (r, c), d) if bits[cell] & d)
            if length != wall.number:
                problems.append(f"the wall at {(r, c)} counts {wall.number} segments going "
                                f"{d.name.lower()}, the loop has {length}")
    return problems
