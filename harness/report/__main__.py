"""`python -m harness.report --db DB [--out DIR]`: the browser report of a results database.

Without `--out` the report goes into `report/` beside the database (`results/report/index.html`
for `results/runs.sqlite`), so each study's report sits with its data."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from harness.published import COLUMNS_HELP
from harness.report import build
from harness.schema import DEFAULT_DB
from harness.storefile import StoreError


def draw_count(text: str) -> int | None:
    """`all` (None) or a count of instances to draw per set."""
    if text == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected `all` or a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected `all` or a number >= 0, not {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.report", description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path, default=DEFAULT_DB,
                   help="results database (default %(default)s)")
    p.add_argument("--out", type=Path, default=None,
                   help="folder for index.html and its pictures (default: report/ beside the database)")
    p.add_argument("--draw", type=draw_count, default=20, metavar="all|N",
                   help="instances drawn per set: the first N by name plus every one with a wrong, unproven "
                        "or disagreeing answer, or all (default 20)")
    p.add_argument("--max-size", "--max-cells", dest="max_size", type=int, default=None, metavar="N",
                   help="draw no puzzle larger than this in its kind's measure: a grid's cells, a graph's "
                        "vertices (default: each kind's own, 2500 cells and 1000 vertices)")
    p.add_argument("--baseline", metavar="CONFIG",
                   help="the scatter plots' x axis (default: circuit when present)")
    p.add_argument("--all-fingerprints", action="store_true",
                   help="tables and plots over every code version, not only the newest per configuration")
    p.add_argument("--published", type=Path, metavar="FILE",
                   help="a published per-instance table (TSV: instance, then seconds or TO per config, "
                        "each column's clock, machine and program declared; docs/FORMATS.md) "
                        "shown beside the measured configs, labelled")
    p.add_argument("--published-columns", default="", metavar="GLOBS", help=COLUMNS_HELP)
    args = p.parse_args(argv)
    if not args.db.is_file():
        print(f"harness.report: error: no results database at {args.db}", file=sys.stderr)
        return 2
    out = args.out if args.out is not None else args.db.parent / "report"
    start = time.perf_counter()
    try:
        index = build(args.db, out, args.draw, args.baseline, args.all_fingerprints, args.max_size,
                      args.published, args.published_columns)
    except (ValueError, StoreError) as exc:  # a --baseline that names no config, a bad --published file,
        print(f"harness.report: error: {exc}", file=sys.stderr)  # a damaged or newer database
        return 2
    print(f"wrote {index} ({time.perf_counter() - start:.1f} s); open {index.resolve().as_uri()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
