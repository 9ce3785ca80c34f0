"""A committed CSV as a Markdown table: the `csv` block kind of `harness.tables`, for the figures a
benchmark writes to results/<study>/ (a fuzz campaign, a proof check) rather than to a database.

    <!-- table: --kind csv --csv results/fuzz/campaign.csv --columns case,inputs,crashes -->

The cells are the file's, as written (the benchmark chose their digits); a column whose every cell
reads as a number is right-aligned. Under the table, one line names the file it was made from.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

# The kind reads a file, not a database: a block of it names no `--db` (harness.analysis.tables.KINDS).
DATABASE = False


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The file, and the columns shown."""
    p.add_argument("--csv", help="the CSV file, relative to the repository root (the csv kind's input)")
    p.add_argument("--columns", help="comma-separated columns to show, in this order (default: all)")


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


def make(runs: None, ns: argparse.Namespace, root: Path) -> str:
    """The Markdown a `csv` block holds: the table and the line naming its file (`runs` is None: the
    kind reads no database)."""
    if not ns.csv:
        raise ValueError("--kind csv needs --csv FILE")
    head, rows = read(root / ns.csv, ns.csv)
    if ns.columns:
        wanted = [c.strip() for c in ns.columns.split(",")]
        missing = [c for c in wanted if c not in head]
        if missing:
            raise ValueError(f"{ns.csv}: no column {', '.join(missing)} (columns: {', '.join(head)})")
        index = [head.index(c) for c in wanted]
        head, rows = wanted, [[row[i] for i in index] for row in rows]
    return render(head, rows) + f"\nmade from `{ns.csv}`.\n"
