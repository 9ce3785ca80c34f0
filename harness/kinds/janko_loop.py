"""What the janko.at single-loop genres share: a puzzle as janko.at's token grids, read, written and drawn.

A puzzle of these kinds (geradeweg, country, moonsun, castlewall, yajilin) is its `problem` grid of
janko.at tokens (`-` an empty cell) and, for the genres with regions, its `areas` grid of region
ids: the plain-text body is those rows, blank-separated, problem first. Each genre's model reads
the tokens (`TokenPuzzle.bad_token` says which it refuses) and its checker judges the rules.
The loop is stored as every loop kind's: one hex digit of direction bits per cell (harness.grid);
janko.at's solutions (`ns ew ne nw se sw` a loop cell, `-` off it, `x` Yajilin's shaded cell) are
read into that form (`loop_string`), so `matches_known` compares like with like.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from harness.errors import InstanceError
from harness.grid import DIRECTIONS, Cell, Direction, Grid, OnGrid, bits_string, parse_solution
from harness.kinds import Kind, Lines, grid_rows, size
from harness.kinds.bounds import grid_cells, number, shown
from harness.kinds.drawing import cell_axes

SIDES = {"n": Direction.UP, "s": Direction.DOWN, "e": Direction.RIGHT, "w": Direction.LEFT}
NO_REGION = "@"  # an `areas` id of cells in no region, which the loop never enters (janko.at's Country Road)
PIECES = {a + b: SIDES[a] | SIDES[b] for a, b in ("ns", "ew", "ne", "nw", "se", "sw")}


@dataclass(frozen=True)
class TokenPuzzle(OnGrid):
    """A puzzle as its token grids. Subclasses add `kind` and read the tokens (cached views)."""

    grid: Grid
    problem: tuple[tuple[str, ...], ...]
    areas: tuple[tuple[str, ...], ...] = ()

    has_areas: ClassVar[bool] = False

    @classmethod
    def bad_token(cls, token: str) -> str:
        """Why a problem token is refused ("" when it is fine)."""
        return ""

    def token(self, cell: Cell) -> str:
        return self.problem[cell[0]][cell[1]]

    def clues(self) -> dict[Cell, str]:
        """Every cell that is not `-`, with its token."""
        return {(r, c): t for r, row in enumerate(self.problem) for c, t in enumerate(row) if t != "-"}

    def regions(self) -> dict[str, list[Cell]]:
        """The cells of each region id, in row-major order (not the cells of no region, `@`)."""
        out: dict[str, list[Cell]] = {}
        for r, row in enumerate(self.areas):
            for c, a in enumerate(row):
                if a != NO_REGION:
                    out.setdefault(a, []).append((r, c))
        return out


def borders(puzzle: TokenPuzzle) -> dict[str, list[tuple[Cell, Cell]]]:
    """Each region's border: the pairs of neighbours, one in the region and one in another (neither
    in no region, `@`). A loop that visits a region once crosses its border twice."""
    grid, out = puzzle.grid, {a: [] for a in puzzle.regions()}
    for cell in grid.cells:
        for d in (Direction.RIGHT, Direction.DOWN):
            other = grid.step(cell, d)
            a, b = puzzle.areas[cell[0]][cell[1]], other and puzzle.areas[other[0]][other[1]]
            if other and NO_REGION not in (a, b) and a != b:
                out[a].append((cell, other))
                out[b].append((cell, other))
    return out


def read_grids(cls: type[TokenPuzzle], rows: int, cols: int, problem: Lines, areas: Lines,
               source: str) -> TokenPuzzle:
    """The puzzle from its grids' lines (numbered for errors); each problem token checked by `cls`."""
    tokens = grid_rows(problem, rows, cols, source)
    for n, row in tokens:
        for t in row:
            if why := cls.bad_token(t):
                raise InstanceError(source, f"cell {shown(t)}: {why}", n)
            if t.isdecimal():  # a clue the rules read with int(): held to the count limit
                number(t, "a clue", source, n)
    region_rows = grid_rows(areas, rows, cols, source) if cls.has_areas else []
    try:
        return cls(Grid(rows, cols), tuple(tuple(row) for _, row in tokens),
                   tuple(tuple(row) for _, row in region_rows))
    except ValueError as exc:  # what the model refuses of the grids as a whole
        raise InstanceError(source, str(exc), tokens[0][0] if tokens else None) from None


def _word(value: Any) -> str:
    """A JSON number or string as the token a size is read from (`size` refuses all but digits)."""
    if isinstance(value, str):
        return value
    return str(value) if isinstance(value, int) and value >= 0 else repr(value)


def loop_string(tokens: list[list[str]], rows: int, cols: int, source: str,
                off: tuple[str, ...] = ("-",)) -> str:
    """janko.at's solution grid as the loop string: a piece's two sides as direction bits, `off` as 0."""
    bits = []
    if (not isinstance(tokens, list) or len(tokens) != rows
            or any(not isinstance(row, list) or len(row) != cols for row in tokens)):
        raise InstanceError(source, f"the solution is not a {rows}x{cols} grid")
    for row in tokens:
        for t in row:
            if not isinstance(t, str):
                raise InstanceError(source, f"solution cell {shown(str(t))} is no token (a string)")
            if t in PIECES:
                bits.append(PIECES[t])
            elif t in off:
                bits.append(0)
            else:
                raise InstanceError(source, f"solution cell {shown(t)} is no loop piece "
                                            f"({', '.join(PIECES)}) nor {' '.join(off)}")
    return bits_string(cols, bits)


class GenreKind(Kind):
    """A janko.at loop genre's kind: plain text, compact form and scrape records from the token grids.

    A subclass sets `name`, `janko_names`, `model` (its TokenPuzzle) and `off_tokens` (what its
    solutions hold besides loop pieces); its folder holds `check.py` and `rules.py` (found by `Kind`).
    """

    model: ClassVar[type[TokenPuzzle]]
    off_tokens: ClassVar[tuple[str, ...]] = ("-",)
    scrape_file: ClassVar[str] = ""  # the genre's file in the corpus's janko-loop/ folder
    sample: ClassVar[tuple[str, ...]] = ()  # the puzzles (by name) of the bundle instances/<kind>/janko

    def import_corpus(self, corpus: Path) -> dict[str, list[Any]]:
        """The bundle `janko`: the `sample` puzzles of the scrape file, janko.at's solution each,
        kept only where the checker accepts it (`bundles.judge_solutions`)."""
        from harness import scrape
        from harness.bundles import Entry, judge_solutions

        path = corpus / "janko-loop" / self.scrape_file
        if not self.scrape_file or not path.is_file():
            return {}
        records = {r.name: r for r in scrape.read(path, self.name)}
        missing = [n for n in self.sample if n not in records or records[n].error]
        if missing:
            raise ValueError(f"{path}: no readable puzzle {', '.join(missing)}")
        chosen = (Entry(n, records[n].puzzle, records[n].solution) for n in self.sample)
        return {"janko": judge_solutions(chosen)}

    def parse_body(self, rows: int, cols: int, lines: Lines, source: str) -> TokenPuzzle:
        if self.model.has_areas and len(lines) != 2 * rows:
            raise InstanceError(source, f"expected {rows} rows of cells, then {rows} rows of region ids; "
                                        f"found {len(lines)} lines", lines[-1][0] if lines else 1)
        return read_grids(self.model, rows, cols, lines[:rows], lines[rows:], source)

    def body_lines(self, puzzle: TokenPuzzle) -> list[str]:
        return [" ".join(row) for row in (*puzzle.problem, *puzzle.areas)]

    def describe(self, puzzle: TokenPuzzle) -> str:
        regions = f", {len(puzzle.regions())} regions" if puzzle.has_areas else ""
        return f"{len(puzzle.clues())} clues{regions}"

    def read_janko_record(self, data: dict[str, Any], source: str) -> tuple[TokenPuzzle, str]:
        """The record's `problem` (all `-` when it has none, as some Country Road records) and
        `areas` grids, and its `solution` as the loop string."""
        if "size" in data:
            rows = cols = size(_word(data["size"]), "`size`", source)
        else:
            rows = size(_word(data.get("rows", "")), "`rows`", source)
            cols = size(_word(data.get("cols", "")), "`cols`", source)
        grid_cells(rows, cols, source)  # before the default problem grid is made
        grids = {}
        for key in ("problem", "areas") if self.model.has_areas else ("problem",):
            value = data.get(key, [["-"] * cols for _ in range(rows)] if key == "problem" else None)
            if not isinstance(value, list) or not all(isinstance(r, list) for r in value):
                raise InstanceError(source, f"`{key}` is missing or not a grid of tokens")
            if not all(isinstance(t, str | int) and not isinstance(t, bool) for row in value for t in row):
                raise InstanceError(source, f"`{key}` holds a cell that is not a token (a string, a number)")
            grids[key] = [(0, " ".join(map(str, row))) for row in value]
        try:
            puzzle = read_grids(self.model, rows, cols, grids["problem"], grids.get("areas", []), source)
        except InstanceError as exc:
            raise InstanceError(source, exc.problem) from None  # the JSON line is the place, not a row
        solution = data.get("solution")
        known = loop_string(solution, rows, cols, source, self.off_tokens) if solution else ""
        return puzzle, known

    def render_text(self, puzzle: TokenPuzzle, solution: str = "", ascii: bool = False) -> str:
        return render_text(puzzle, solution, ascii, self.shaded(puzzle, solution))

    def draw(self, puzzle: TokenPuzzle, solution: str = "", ax: Any = None, title: str = "") -> Any:
        return draw(puzzle, solution, ax, title, self.shaded(puzzle, solution))

    def shaded(self, puzzle: TokenPuzzle, solution: str) -> set[Cell]:
        """Cells drawn shaded for this solution (Yajilin's); none by default."""
        return set()


# --- drawing ------------------------------------------------------------------------------------------

GLYPHS = {False: "·╶╵└╴─┘┴╷┌│├┐┬┤┼", True: ".-|+--++|+|+++++"}


def render_text(puzzle: TokenPuzzle, solution: str, ascii: bool, shaded: set[Cell]) -> str:
    """The grid with each clue's token, the loop in box-drawing glyphs, shaded cells as █ (ascii #),
    every cell as wide as the longest token; then the region ids, if the genre has regions."""
    bits = parse_solution(puzzle.grid, solution) if solution else {}
    clues = puzzle.clues()
    width = max([1, *map(len, clues.values())])
    h_line, v_line = ("-", "|") if ascii else ("─", "│")
    lines = []
    for r in range(puzzle.rows):
        row, below = [], []
        for c in range(puzzle.cols):
            b = bits.get((r, c), 0)
            if (r, c) in clues:
                glyph = clues[(r, c)]
            elif (r, c) in shaded:
                glyph = "#" if ascii else "█"
            else:
                glyph = GLYPHS[ascii][b]
            left = (width - len(glyph)) // 2
            row.append((h_line if b & Direction.LEFT else " ") * left + glyph
                       + (h_line if b & Direction.RIGHT else " ") * (width - len(glyph) - left))
            row.append(h_line if b & Direction.RIGHT else " ")
            below.append((v_line if b & Direction.DOWN else " ").center(width) + " ")
        lines.append("".join(row).rstrip())
        if r + 1 < puzzle.rows:
            lines.append("".join(below).rstrip())
    if puzzle.areas:
        lines += ["", "regions:"] + [" ".join(a.rjust(2) for a in row) for row in puzzle.areas]
    return "\n".join(lines) + "\n"


def draw(puzzle: TokenPuzzle, solution: str, ax: Any, title: str, shaded: set[Cell]) -> Any:
    """The board: region borders thick, clues as their tokens, shaded cells black, the loop in red."""
    ax, cell_pt = cell_axes(puzzle.rows, puzzle.cols, ax, title)
    if puzzle.areas:
        for r in range(puzzle.rows):
            for c in range(puzzle.cols):
                if c + 1 < puzzle.cols and puzzle.areas[r][c] != puzzle.areas[r][c + 1]:
                    ax.plot([c + 0.5, c + 0.5], [r - 0.5, r + 0.5], color="0.2", lw=cell_pt / 10)
                if r + 1 < puzzle.rows and puzzle.areas[r][c] != puzzle.areas[r + 1][c]:
                    ax.plot([c - 0.5, c + 0.5], [r + 0.5, r + 0.5], color="0.2", lw=cell_pt / 10)
    for r, c in shaded:
        ax.add_patch(_square(r, c, "0.1"))
    for (r, c), t in puzzle.clues().items():
        ax.text(c, r, t, ha="center", va="center", fontsize=cell_pt * 0.8 / max(1.5, len(t)))
    bits = parse_solution(puzzle.grid, solution) if solution else {}
    for (r, c), b in bits.items():
        for d in (Direction.RIGHT, Direction.DOWN):
            if b & d:
                dr, dc = d.delta
                ax.plot([c, c + dc], [r, r + dr], color="tab:red", lw=cell_pt / 8, solid_capstyle="round")
    if title:
        ax.set_title(title)
    return ax


def _square(r: int, c: int, colour: str) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((c - 0.5, r - 0.5), 1, 1, color=colour, zorder=1)


def ray(grid: Grid, cell: Cell, d: Direction) -> list[Cell]:
    """The cells from `cell` (not included) going `d` to the grid's edge."""
    out, at = [], grid.step(cell, d)
    while at is not None:
        out.append(at)
        at = grid.step(at, d)
    return out


__all__ = ["DIRECTIONS", "GenreKind", "SIDES", "TokenPuzzle", "borders", "loop_string", "ray"]
