"""A committed CSV as a Markdown table: the `--csv` block kind of `harness.tables`, for the figures a
benchmark writes to results/<study>/ (a fuzz campaign, a proof check) rather than to a database.

    <!-- table: --csv results/fuzz/campaign.csv --columns case,inputs,crashes -->

The cells are the file's, as written (the benchmark chose their digits); a column whose every cell
reads as a number is right-aligned. Under the table, one line names the file it was made from.
"""

from __future__ import annotations

import argparse
import csv
import shlex
from pathlib import Path


def parser() -> argparse.ArgumentParser:
    """The arguments of a `--csv` block."""
    p = argparse.ArgumentParser(prog="<!-- table: --csv ... -->", add_help=False, exit_on_error=False)
    p.add_argument("--csv", required=True, help="the CSV file, relative to the repository root")
    p.add_argument("--columns", help="comma-separated columns to show, in this order (default: all)")
    return p


def read(path: Path, shown: str) -> tuple[list[str], list[list[str]]]:
    """The header and rows of a CSV; ValueError naming the file (and line) when it is missing, empty
    or has a row whose number of fields is not the header's."""
    try:
        with path.open(newline="", encoding="utf-8") as f:
            lines = list(csv.reader(f))
    except FileNotFoundError:
        raise ValueError(f"{shown}: no such file") from None
    except (csv.Error, UnicodeDecodeError) as exc:
        raise ValueError(f"{shown}: not a readable CSV ({exc})") from None
    if not lines or not lines[0]:
        raise ValueError(f"{shown}: empty, no header line")
    head, rows = lines[0], lines[1:]
    for number, row in enumerate(rows, 2):
        if len(row) != len(head):
            raise ValueError(f"{shown}:{number}: {len(row)} fields, the header has {len(head)}")
    return head, rows


def _number(cell: str) -> bool:
    try:
        float(cell.replace(",", ""))
    except ValueError:
        return False
    return True


def render(head: list[str], rows: list[list[str]]) -> str:
    """GitHub Markdown: a column right-aligned when every cell of it is a number."""
    right = [bool(rows) and all(_number(r[i]) for r in rows) for i in range(len(head))]
    lines = ["| " + " | ".join(head) + " |", "|" + "".join("---:|" if r else "---|" for r in right)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def make(args: list[str], root: Path = Path(".")) -> str:
    """The Markdown a `--csv` block holds: the table and the line naming its file."""
    try:
        ns = parser().parse_args(args)
    except (argparse.ArgumentError, SystemExit) as exc:
        raise ValueError(f"bad table arguments {shlex.join(args)}: {exc}") from None
    head, rows = read(root / ns.csv, ns.csv)
    if ns.columns:
        wanted = [c.strip() for c in ns.columns.split(",")]
        missing = [c for c in wanted if c not in head]
        if missing:
            raise ValueError(f"{ns.csv}: no column {', '.join(missing)} (columns: {', '.join(head)})")
        index = [head.index(c) for c in wanted]
        head, rows = wanted, [[row[i] for i in index] for row in rows]
    return render(head, rows) + f"\nmade from `{ns.csv}`.\n"
