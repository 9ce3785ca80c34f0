"""Importers of the raw Masyu collections (as each upstream ships them), from which the bundles are built.

Each importer reads one upstream layout as shipped (no hand edits) and yields Entries: a name, the
puzzle, the known solution as our solution string ("" when the source has none) and a few columns
of metadata. `build` reads them all, judging every known solution with the independent checker on the way.
"""

from __future__ import annotations

import bz2
import csv
import json
import re
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path

from harness import kinds
from harness.bundles import Entry, attach_solutions, judge_solutions, merge_contents, merge_names
from harness.errors import InstanceError
from harness.grid import Edge, Grid, solution_string
from harness.kinds.masyu import formats as masyu_formats
from harness.kinds.masyu.model import Masyu

# The raw corpus's folders (one per collection, given to `harness.sets build`) and the bundle each becomes.
JANKO_JAVA = "janko-java"
PUZZLE_MASYU = "joshprzybyszewski-masyu"
JANKO_TKOZ0 = "janko-tkoz0"
ARKAREEM = "arkareem-puzzle_solver"

_NORMALIZED_PEARLS = {".": "-", "W": "w", "B": "b"}


# --- solution conversions ---------------------------------------------------------------------

def yn_solution(grid: Grid, flags: str, source: str = "<yn>") -> str:
    """puzzle-masyu's `y`/`n` per edge (horizontal edges row by row, then vertical) as a solution string."""
    # Grid.edges lists edges in exactly that order, so the flags pair with it one to one.
    if len(flags) != len(grid.edges) or set(flags) - {"y", "n"}:
        raise InstanceError(source, f"expected {len(grid.edges)} y/n edge flags, found {len(flags)} "
                                    f"characters {''.join(sorted(set(flags)))!r}")
    return solution_string(grid, [e for e, flag in zip(grid.edges, flags, strict=True) if flag == "y"])


def hv_solution(grid: Grid, horizontal: Sequence[str], vertical: Sequence[str], source: str = "<hv>") -> str:
    """Edge bit rows (H: rows x cols-1, line (r,c)-(r,c+1); V: rows-1 x cols, line (r,c)-(r+1,c))."""
    shape_h = len(horizontal) == grid.rows and all(len(row) == grid.cols - 1 for row in horizontal)
    shape_v = len(vertical) == grid.rows - 1 and all(len(row) == grid.cols for row in vertical)
    if not (shape_h and shape_v):
        raise InstanceError(source, f"H/V edge bits do not fit a {grid.rows}x{grid.cols} grid")
    edges: list[Edge] = []
    for r, row in enumerate(horizontal):
        edges += [((r, c), (r, c + 1)) for c, bit in enumerate(row) if _bit(bit, source)]
    for r, row in enumerate(vertical):
        edges += [((r, c), (r + 1, c)) for c, bit in enumerate(row) if _bit(bit, source)]
    return solution_string(grid, edges)


def _bit(ch: str, source: str) -> bool:
    if ch not in "01":
        raise InstanceError(source, f"edge bit {ch!r} is not 0 or 1")
    return ch == "1"


def _normalized_puzzle(record: dict, source: str) -> Masyu:
    """The `problem` rows of .W.B form used by the normalized jsonl files, read as plain text."""
    try:
        body = "\n".join(" ".join(_NORMALIZED_PEARLS[ch] for ch in row) for row in record["problem"])
    except KeyError as exc:
        raise InstanceError(source, f"unknown problem token {exc.args[0]!r}") from None
    return kinds.read_text(f"masyu {record['rows']} {record['cols']}\n{body}\n", source)


# --- the importers ------------------------------------------------------------------------------

def read_janko_java(folder: Path) -> Iterator[Entry]:
    """janko-java: the plain-text files listed in manifest.tsv (1/2 codes read as white/black)."""
    with open(folder / "manifest.tsv", newline="") as handle:
        manifest = list(csv.DictReader(handle, delimiter="\t"))
    for row in manifest:
        path = folder / row["file"]
        puzzle = kinds.read_text(path.read_text(), str(path), "masyu")
        # The manifest's `encoding` column says which files carry the upstream 1/2 codes.
        encoding = row["encoding"].split("(")[0]
        yield Entry(path.stem, puzzle, meta={"encoding": encoding})


def read_puzzle_masyu(index: Path) -> Iterator[Entry]:
    """puzzle-masyu index.tsv: Tatham-style task per square puzzle, y/n edges as the solution."""
    with open(index, newline="") as handle:
        for n, row in enumerate(csv.DictReader(handle, delimiter="\t"), 2):
            source = f"{index}:{n}"
            size = int(row["size"])
            puzzle = masyu_formats.read_tatham(f"{size}x{size}:{row['task']}")
            solution = yn_solution(puzzle.grid, row["solution"], source) if row["solution"] else ""
            name = f"pm-{size}x{size}-{row['difficulty']}-{pm_id_slug(row['puzzle_id'])}"
            meta = {"difficulty": row["difficulty"], "id": row["puzzle_id"]}
            yield Entry(name, puzzle, solution, meta)


def pm_id_slug(puzzle_id: str) -> str:
    """A puzzle-masyu id fit for a file name: `3,184,225` -> `3184225`, `Jan 31, 2023` -> `2023-01-31`."""
    if re.fullmatch(r"[0-9,]+", puzzle_id):
        return puzzle_id.replace(",", "")
    return datetime.strptime(puzzle_id, "%b %d, %Y").strftime("%Y-%m-%d")


def read_janko_normalized(path: Path) -> Iterator[Entry]:
    """janko-tkoz0 masyu_normalized.jsonl.bz2: janko.at Masyu with H/V edge-bit solutions."""
    with bz2.open(path, "rt") as handle:
        for n, line in enumerate(handle, 1):
            record = json.loads(line)
            source = f"{path}:{n}"
            puzzle = _normalized_puzzle(record, source)
            number = record["id"].rsplit("-", 1)[1]
            solution = hv_solution(puzzle.grid, record["H"], record["V"], source)
            yield Entry(f"janko-at-{number}", puzzle, solution, {"author": record.get("author", "")})


def read_arkareem(path: Path) -> Iterator[Entry]:
    """arkareem-puzzle_solver masyu.jsonl: Tatham-generated Pearl puzzles with H/V solutions."""
    with open(path) as handle:
        for n, line in enumerate(handle, 1):
            record = json.loads(line)
            source = f"{path}:{n}"
            puzzle = _normalized_puzzle(record, source)
            if record.get("tatham_id") and masyu_formats.read_tatham(record["tatham_id"]) != puzzle:
                raise InstanceError(source, "the problem grid and the Tatham id disagree")
            solution = hv_solution(puzzle.grid, record["H"], record["V"], source)
            name = "tatham-" + record["id"].removeprefix("arkareem-pearl-")
            yield Entry(name, puzzle, solution, {"seed_id": record.get("tatham_seed_id", "")})


def build(corpus: Path) -> dict[str, list[Entry]]:
    """Read the corpus: one list of entries per bundle (file stem under instances/masyu/)."""
    janko_at = judge_solutions(merge_contents(read_janko_normalized(
        corpus / JANKO_TKOZ0 / "masyu_normalized.jsonl.bz2")))
    janko_java = judge_solutions(attach_solutions(
        merge_contents(read_janko_java(corpus / JANKO_JAVA)), janko_at, "solution_from"))
    puzzle_masyu = judge_solutions(merge_contents(merge_names(read_puzzle_masyu(
        corpus / PUZZLE_MASYU / "index.tsv"))))
    tatham = judge_solutions(read_arkareem(corpus / ARKAREEM / "masyu.jsonl"))
    return {"janko-java": janko_java, "puzzle-masyu": puzzle_masyu, "janko-at": janko_at, "tatham": tatham}
