"""Masyu readers and writers for every format of docs/FORMATS.md: text, puzz.link, Tatham ids, janko blocks.

Every reader raises InstanceError naming the source (and the line, for text) on bad input.
Choices where the upstream tools are looser than we want a benchmark to be:
- puzz.link: pzprjs leaves the cells past a short body empty and ignores extra characters; here a
  body must have exactly ceil(rows*cols/3) digits (a short one is a truncated URL), and the only
  flag accepted is `f`. Upper-case digits are accepted, as JavaScript's parseInt accepts them.
- Tatham: sizes below Tatham's minimum of 5 are accepted (the janko-java samples are 3x3 and 4x4);
  `#seed` ids are refused, only Tatham's generator can expand them.
- janko: unknown keys and stray lines inside the block are skipped (continued `moves`, an extra
  grid row, typoed keys), and `send`/`ssend` end a block as `end` does; a missing `end` is fine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from harness.errors import InstanceError
from harness.grid import Direction, Grid
from harness.kinds import Lines, grid_rows, parse_janko, size, trailing_flag
from harness.kinds.bounds import grid_cells
from harness.kinds.masyu.model import KIND, Masyu, Pearl
from harness.kinds.puzzlink import read_frame
from harness.kinds.tatham import read_runs, write_runs

# Plain-text and janko problem tokens: the janko-java files and janko 521-692 also use 1/2.
TEXT_TOKENS = {"-": None, ".": None, "w": Pearl.WHITE, "b": Pearl.BLACK, "1": Pearl.WHITE,
               "2": Pearl.BLACK}
TEXT_NAMES = {None: "-", Pearl.WHITE: "w", Pearl.BLACK: "b"}

URL_PIDS = ("mashu", "masyu", "pearl")
BASE27 = "0123456789abcdefghijklmnopq"
URL_VALUES = {None: 0, Pearl.WHITE: 1, Pearl.BLACK: 2}  # pzprjs qnum: 1 white, 2 black
_URL_CELLS = {v: k for k, v in URL_VALUES.items()}

TATHAM_LETTERS = {Pearl.WHITE: "W", Pearl.BLACK: "B"}
_TATHAM_PEARLS = {v: k for k, v in TATHAM_LETTERS.items()}
_TATHAM_ID = re.compile(r"(?P<w>[0-9]+)(?:x(?P<h>[0-9]+))?(?P<params>[a-z]*)(?P<sep>[:#])(?P<desc>.*)",
                        re.DOTALL)

# janko solution letters; `o` (German Ost) is east in files 001-009.
JANKO_DIRECTIONS = {"e": Direction.RIGHT, "o": Direction.RIGHT, "n": Direction.UP,
                    "w": Direction.LEFT, "s": Direction.DOWN}


def _masyu(rows: int, cols: int, cells: Sequence[Pearl | None], full: bool = False) -> Masyu:
    """A puzzle from its cells listed row-major (None = no pearl)."""
    pearls = {divmod(i, cols): pearl for i, pearl in enumerate(cells) if pearl}
    return Masyu(Grid(rows, cols), pearls, full=full)


def _cells(puzzle: Masyu) -> list[Pearl | None]:
    return [puzzle.pearls.get(cell) for cell in puzzle.grid.cells]


# --- plain text ---------------------------------------------------------------------------------

def parse_body(rows: int, cols: int, lines: Lines, source: str) -> Masyu:
    """The rows of pearl tokens after the header, and an optional last line `full`."""
    body, full = trailing_flag(lines, "full")
    cells = [_token(token, f"row {r}", source, n)
             for r, (n, tokens) in enumerate(grid_rows(body, rows, cols, source)) for token in tokens]
    return _masyu(rows, cols, cells, full)


def _token(token: str, where: str, source: str, line: int) -> Pearl | None:
    try:
        return TEXT_TOKENS[token.lower()]
    except KeyError:
        raise InstanceError(source, f"unknown token {token!r} in {where}", line) from None


def body_lines(puzzle: Masyu) -> list[str]:
    """One line of tokens per row (`-`, `w`, `b`), then `full` for a full-loop puzzle."""
    cells = [TEXT_NAMES[p] for p in _cells(puzzle)]  # listed once: a row's slice of it, not a listing a row
    lines = [" ".join(cells[r * puzzle.cols:(r + 1) * puzzle.cols]) for r in range(puzzle.rows)]
    return lines + (["full"] if puzzle.full else [])


# --- puzz.link / pzv URLs -----------------------------------------------------------------------

def read_url(url: str) -> Masyu:
    """Decode `…?mashu/[v:…/][f/]COLS/ROWS/BODY[/]` (ids mashu, masyu, pearl; any host)."""
    rows, cols, body, full = read_frame(url, URL_PIDS, "Masyu", "every cell on the loop")
    return _masyu(rows, cols, _decode_body(body, rows * cols, url), full)


def _decode_body(body: str, n: int, url: str) -> list[Pearl | None]:
    """Three cells per base-27 digit, 9a + 3b + c with a, b, c in 0..2."""
    expected = math.ceil(n / 3)
    cells = []
    for i, ch in enumerate(body):
        value = BASE27.find(ch.lower())
        if value < 0:
            raise InstanceError(url, f"bad base-27 digit {ch!r} at body position {i} (digits are 0-9, a-q)")
        cells += [_URL_CELLS[value // 9], _URL_CELLS[value // 3 % 3], _URL_CELLS[value % 3]]
    if len(body) < expected:
        raise InstanceError(url, f"truncated body: expected {expected} characters, found {len(body)}")
    if len(body) > expected:
        raise InstanceError(url, f"body too long: expected {expected} characters, found {len(body)}")
    return cells[:n]  # the last digit is zero-padded


def write_url(puzzle: Masyu) -> str:
    """The puzz.link URL, written as pzprjs writes it (id `mashu`, `f/` for a full-loop puzzle)."""
    values = [URL_VALUES[cell] for cell in _cells(puzzle)]
    values += [0] * (-len(values) % 3)
    body = "".join(BASE27[9 * a + 3 * b + c]
                   for a, b, c in (values[i:i + 3] for i in range(0, len(values), 3)))
    flag = "f/" if puzzle.full else ""
    return f"https://puzz.link/p?mashu/{flag}{puzzle.cols}/{puzzle.rows}/{body}"


# --- Simon Tatham's Pearl game ids --------------------------------------------------------------

def is_tatham_id(spec: str) -> bool:
    """Whether a command-line spec looks like a Pearl game id (`10x8:…`, `7:…`, `10x8dt#seed`)."""
    # Loopy's square-grid ids (`10x10t0:…`, Slitherlink) share the shape: a `t` type parameter marks them.
    return bool(re.match(r"[0-9]+(?:x[0-9]+)?(?![a-z]*t[0-9])[a-z]*[:#]", spec))


def read_tatham(game_id: str) -> Masyu:
    """Decode `W[xH][dX][n]:DESC` (width first); DESC runs `a`..`z` = 1..26 empty cells, `W`/`B` pearls."""
    match = _TATHAM_ID.fullmatch(game_id.strip())
    if not match:
        raise InstanceError(game_id, "not a Pearl game id: expected WxH:DESC, e.g. 6x6:bWdBbWjBcWj")
    if not re.fullmatch(r"(?:d[et])?n?", match["params"]):
        raise InstanceError(game_id, f"unknown parameters {match['params']!r} after the size "
                                     "(Pearl knows `de`/`dt` and `n`)")
    if match["sep"] == "#":
        raise InstanceError(game_id, "a random-seed id (`#…`) needs Tatham's generator to become a "
                                     "puzzle; use the descriptive id `WxH:…` (Game > Specific)")
    cols = size(match["w"], "the width", game_id)
    rows = size(match["h"] or match["w"], "the height", game_id)
    grid_cells(rows, cols, game_id)

    def pearl(ch: str, i: int) -> Pearl:
        if ch not in _TATHAM_PEARLS:
            raise InstanceError(game_id, f"unrecognised character in string: {ch!r} at position {i}")
        return _TATHAM_PEARLS[ch]

    cells = read_runs(match["desc"], pearl, rows * cols)
    if len(cells) != rows * cols:  # Tatham's own wording, plus the counts
        problem = "string too long" if len(cells) > rows * cols else "string too short"
        raise InstanceError(game_id, f"{problem}: it covers {len(cells)} cells, a {cols}x{rows} grid has "
                                     f"{rows * cols}")
    return _masyu(rows, cols, cells)


def write_tatham(puzzle: Masyu) -> str:
    """The descriptive id as Tatham's generator writes it: `WxH:`, maximal runs, long runs split at `z`."""
    if puzzle.full:
        raise ValueError("Tatham's Pearl has no 'every cell on the loop' rule; this puzzle cannot be written")
    return f"{puzzle.cols}x{puzzle.rows}:{write_runs(_cells(puzzle), TATHAM_LETTERS.__getitem__)}"


# --- janko.at blocks ----------------------------------------------------------------------------

def read_janko(text: str, source: str = "<janko>") -> tuple[Masyu, str]:
    """The first `begin … end` block of `text`: the puzzle, and its solution string ("" when it has none)."""
    _, grids = parse_janko(text, source, (KIND,), "plain Masyu")
    rows, cols = len(grids["problem"]), len(grids["problem"][0][1].split())
    cells = [_token(tok, "the problem", source, n) for n, line in grids["problem"] for tok in line.split()]
    solution = "/".join("".join(format(_janko_bits(tok, source, n), "x") for tok in line.split())
                        for n, line in grids.get("solution", []))
    return _masyu(rows, cols, cells), solution


def _janko_bits(token: str, source: str, line: int) -> int:
    """A solution token (`-`, or two direction letters in either order) as Tatham's direction bits."""
    if token == "-":
        return 0
    letters = token.lower()
    dirs = {JANKO_DIRECTIONS.get(letter) for letter in letters}
    if len(letters) != 2 or None in dirs or len(dirs) != 2:
        raise InstanceError(source, f"unknown solution token {token!r} (expected `-` or two of n, e, s, w)",
                            line)
    return sum(dirs)
