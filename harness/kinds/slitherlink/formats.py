"""Slitherlink readers and writers for docs/FORMATS.md: text, puzz.link, Tatham's Loopy ids, janko blocks.

Every reader raises InstanceError naming the source (and the line, for text) on bad input.
Choices where the upstream tools are looser than we want a benchmark to be:
- puzz.link: pzprjs skips characters it does not know and leaves the cells past a short body
  empty; here an unknown character is an error, the body must reach the last cell (a short one is
  a truncated URL) and nothing may follow it. A run or a clue-with-gap may overshoot the last
  cell, as pzprjs's own writer does (`d` for a 3 in the last cell). The only flag is `f`.
- Loopy: only square grids (`t0`); sizes below Loopy's minimum of 3 are accepted; `#seed` ids and
  clues above 4 are refused.
- janko: a `solution` is a shading (`x` inside the loop, `-` outside); the loop is read off it
  and returned as a solution string, not judged here (the checker does that).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from harness.errors import InstanceError
from harness.grid import Edge, Grid, solution_string
from harness.kinds import Lines, grid_rows, parse_janko, size, trailing_flag
from harness.kinds.bounds import grid_cells
from harness.kinds.puzzlink import read_frame
from harness.kinds.slitherlink.model import KIND, MAX_CLUE, Slitherlink
from harness.kinds.tatham import read_runs, write_runs

UNKNOWN = "?"  # a clue cell whose number is not given
Clue = int | str | None  # one cell as read: a number, UNKNOWN, or None for no clue

TEXT_EMPTY = (".", "-")  # `.` is written; janko's `-` is read too
URL_PIDS = ("slither", "slitherlink")  # pzprjs writes `slither`; cspuz reads `slitherlink` too
_LOOPY_ID = re.compile(r"(?P<w>[0-9]+)(?:x(?P<h>[0-9]+))?(?P<params>(?:t[0-9]+)?(?:d[a-z])?)(?P<sep>[:#])"
                       r"(?P<desc>.*)", re.DOTALL)


def _puzzle(rows: int, cols: int, cells: Sequence[Clue], full: bool = False) -> Slitherlink:
    """A puzzle from its cells listed row-major."""
    clues = {divmod(i, cols): v for i, v in enumerate(cells) if isinstance(v, int)}
    unknown = frozenset(divmod(i, cols) for i, v in enumerate(cells) if v == UNKNOWN)
    return Slitherlink(Grid(rows, cols), clues, unknown, full)


def _cells(puzzle: Slitherlink) -> list[Clue]:
    return [UNKNOWN if cell in puzzle.unknown else puzzle.clues.get(cell) for cell in puzzle.grid.cells]


# --- plain text ---------------------------------------------------------------------------------

def parse_body(rows: int, cols: int, lines: Lines, source: str) -> Slitherlink:
    """The rows of clue tokens after the header (`.` no clue, 0-4, `?`), and an optional last line `full`."""
    body, full = trailing_flag(lines, "full")
    cells = [_token(token, f"row {r}", source, n)
             for r, (n, tokens) in enumerate(grid_rows(body, rows, cols, source)) for token in tokens]
    return _puzzle(rows, cols, cells, full)


def _token(token: str, where: str, source: str, line: int | None) -> Clue:
    if token in TEXT_EMPTY:
        return None
    if token == UNKNOWN:
        return UNKNOWN
    if token.isdecimal() and len(token) == 1 and int(token) <= MAX_CLUE:
        return int(token)
    raise InstanceError(source, f"unknown token {token!r} in {where} (expected `.`, `-`, `?` or a clue "
                                f"0-{MAX_CLUE})", line)


def body_lines(puzzle: Slitherlink) -> list[str]:
    """One line of tokens per row (`.`, `?`, 0-4), then `full` for an every-vertex puzzle."""
    cells = ["." if v is None else str(v) for v in _cells(puzzle)]
    lines = [" ".join(cells[r * puzzle.cols:(r + 1) * puzzle.cols]) for r in range(puzzle.rows)]
    return lines + (["full"] if puzzle.full else [])


# --- puzz.link / pzv URLs -----------------------------------------------------------------------

def read_url(url: str) -> Slitherlink:
    """Decode `…?slither/[v:…/][f/]COLS/ROWS/BODY[/]` (ids slither, slitherlink; any host)."""
    rows, cols, body, full = read_frame(url, URL_PIDS, "Slitherlink", "every vertex on the loop")
    return _puzzle(rows, cols, decode_body(body, rows * cols, url), full)


def decode_body(body: str, n: int, source: str) -> list[Clue]:
    """pzprjs's 4-cell code: `0`-`4` a clue; `5`-`9` a clue and 1 empty cell; `a`-`e` a clue and 2;
    `g`-`z` 1-20 empty cells; `.` a `?` clue. Reading stops when the `n` cells are filled."""
    cells: list[Clue] = []
    for i, ch in enumerate(body):
        if len(cells) >= n:
            raise InstanceError(source, f"body too long: the grid is full at position {i}, "
                                        f"{body[i:]!r} is left over")
        value = int(ch, 36) if ch.isascii() and ch.isalnum() and not ch.isupper() else -1
        if 0 <= value <= 14:
            cells += [value % 5] + [None] * (value // 5)
        elif 16 <= value <= 35:
            cells += [None] * (value - 15)
        elif ch == ".":
            cells.append(UNKNOWN)
        else:
            raise InstanceError(source, f"bad character {ch!r} at body position {i} (expected 0-9, a-e, "
                                        "g-z or `.`)")
    if len(cells) < n:
        raise InstanceError(source, f"truncated body: it covers {len(cells)} of the {n} cells")
    return cells[:n]  # a clue-with-gap or a run may overshoot the last cell


def encode_body(cells: Sequence[Clue]) -> str:
    """The 4-cell code as pzprjs writes it: a clue takes in the empty cells after it when the cell
    after those is not empty (`5+n` for one, `10+n` for two, also at the end of the grid), and runs of
    empty cells are cut at 20."""
    out, run, i = [], 0, 0
    while i < len(cells):
        cell, code = cells[i], ""
        if isinstance(cell, int):
            if i + 1 < len(cells) and cells[i + 1] is not None:
                code = str(cell)
            elif i + 2 < len(cells) and cells[i + 2] is not None:
                code, i = format(5 + cell, "x"), i + 1
            else:
                code, i = format(10 + cell, "x"), i + 2
        elif cell == UNKNOWN:
            code = "."
        else:
            run += 1
        if run and (code or run == 20):
            out.append(_base36(15 + run))
            run = 0
        out.append(code)
        i += 1
    if run:
        out.append(_base36(15 + run))
    return "".join(out)


def _base36(value: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[value]


def write_url(puzzle: Slitherlink) -> str:
    """The puzz.link URL, written as pzprjs writes it (id `slither`, `f/` for an every-vertex puzzle)."""
    flag = "f/" if puzzle.full else ""
    return f"https://puzz.link/p?slither/{flag}{puzzle.cols}/{puzzle.rows}/{encode_body(_cells(puzzle))}"


# --- the compact form of the bundles: the URL's body, after `f/` for an every-vertex puzzle -------

def write_compact(puzzle: Slitherlink) -> str:
    return ("f/" if puzzle.full else "") + encode_body(_cells(puzzle))


def read_compact(text: str, rows: int, cols: int, source: str) -> Slitherlink:
    full = text.startswith("f/")
    return _puzzle(rows, cols, decode_body(text.removeprefix("f/"), rows * cols, source), full)


# --- Simon Tatham's Loopy game ids (square grids) -----------------------------------------------

def is_loopy_id(spec: str) -> bool:
    """Whether a command-line spec looks like a Loopy game id: `WxHtT…:` or `…#seed` (the `t` marks it)."""
    return bool(re.match(r"[0-9]+(?:x[0-9]+)?t[0-9]+(?:d[a-z])?[:#]", spec))


def read_loopy(game_id: str) -> Slitherlink:
    """Decode `W[xH]t0[dD]:DESC` (width first); DESC row-major, a digit a clue, `a`..`z` 1..26 empty cells."""
    match = _LOOPY_ID.fullmatch(game_id.strip())
    if not match:
        raise InstanceError(game_id, "not a Loopy game id: expected WxHt0:DESC, e.g. 5x5t0:2b1b2b1b2b3b3b0b3")
    grid_type = re.match(r"t([0-9]+)", match["params"])
    if grid_type and int(grid_type[1]) != 0:
        raise InstanceError(game_id, f"Loopy grid type {grid_type[1]} is not the square grid (t0); "
                                     "only square grids are Slitherlink")
    if match["sep"] == "#":
        raise InstanceError(game_id, "a random-seed id (`#…`) needs Tatham's generator to become a "
                                     "puzzle; use the descriptive id `WxHt0:…` (Game > Specific)")
    cols = size(match["w"], "the width", game_id)
    rows = size(match["h"] or match["w"], "the height", game_id)
    grid_cells(rows, cols, game_id)

    def clue(ch: str, i: int) -> int:
        if ch.isdecimal() and ch.isascii() and int(ch) <= MAX_CLUE:
            return int(ch)
        if (ch.isdecimal() and ch.isascii()) or "A" <= ch <= "Z":
            raise InstanceError(game_id, f"clue {ch!r} at position {i} is more than a square has sides")
        raise InstanceError(game_id, f"unknown character in description: {ch!r} at position {i}")

    cells: list[Clue] = read_runs(match["desc"], clue, rows * cols)
    if len(cells) != rows * cols:  # Loopy's own wording, plus the counts
        problem = "description too long" if len(cells) > rows * cols else "description too short"
        raise InstanceError(game_id, f"{problem}: it covers {len(cells)} cells, a {cols}x{rows} grid has "
                                     f"{rows * cols}")
    return _puzzle(rows, cols, cells)


def write_loopy(puzzle: Slitherlink) -> str:
    """The descriptive id as Loopy writes it: `WxHt0:`, maximal runs, long runs split at `z`."""
    if puzzle.full or puzzle.unknown:
        raise ValueError("Loopy has no `?` clues and no 'every vertex on the loop' rule; this puzzle "
                         "cannot be written as a Loopy id")
    return f"{puzzle.cols}x{puzzle.rows}t0:{write_runs(_cells(puzzle), str)}"


# --- janko.at blocks ----------------------------------------------------------------------------

def read_janko(text: str, source: str = "<janko>") -> tuple[Slitherlink, str]:
    """The first `begin … end` block of `text`: the puzzle, and its loop as a solution string ("" if none)."""
    _, grids = parse_janko(text, source, (KIND,), "Slitherlink")
    problem = [(n, line.split()) for n, line in grids["problem"]]
    solution = [(n, line.split()) for n, line in grids.get("solution", [])]
    return from_janko_grids(problem, solution, source)


TokenRows = Sequence[tuple[int | None, Sequence[str]]]  # (line number or None, the row's tokens)


def from_janko_grids(problem: TokenRows, shading: TokenRows, source: str) -> tuple[Slitherlink, str]:
    """The puzzle and loop of janko's `problem` and `solution` grids, rows of tokens with line numbers."""
    rows, cols = len(problem), len(problem[0][1])
    for n, tokens in [*problem, *shading]:
        if len(tokens) != cols:
            raise InstanceError(source, f"expected {cols} cells in a row, found {len(tokens)}", n)
    cells = [_token(tok, "the problem", source, n) for n, tokens in problem for tok in tokens]
    puzzle = _puzzle(rows, cols, cells)
    if not shading:
        return puzzle, ""
    if len(shading) != rows:
        raise InstanceError(source, f"the solution has {len(shading)} rows, the problem {rows}")
    inside = set()
    for r, (n, tokens) in enumerate(shading):
        for c, tok in enumerate(tokens):
            if tok.lower() not in ("x", "-"):
                raise InstanceError(source, f"unknown solution token {tok!r} (expected `x` inside the loop, "
                                            "`-` outside)", n)
            if tok.lower() == "x":
                inside.add((r, c))
    return puzzle, solution_string(puzzle.vertices, boundary(puzzle.grid, inside))


def boundary(grid: Grid, inside: Iterable[tuple[int, int]]) -> list[Edge]:
    """The vertex-grid edges between a shaded cell and an unshaded one (outside the grid is unshaded)."""
    shaded = set(inside).__contains__
    edges: list[Edge] = []
    for r in range(grid.rows + 1):  # the horizontal edge (r, c)-(r, c+1) lies between cells (r-1, c), (r, c)
        edges += [((r, c), (r, c + 1)) for c in range(grid.cols) if shaded((r - 1, c)) != shaded((r, c))]
    for c in range(grid.cols + 1):  # the vertical edge (r, c)-(r+1, c) lies between cells (r, c-1), (r, c)
        edges += [((r, c), (r + 1, c)) for r in range(grid.rows) if shaded((r, c - 1)) != shaded((r, c))]
    return edges
