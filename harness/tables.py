"""Regenerate the figure tables of the README and the results READMEs from the committed databases
(`python -m harness.tables`; `--check` only says which are stale).

Each table lies between `<!-- table: ARGS -->` and `<!-- /table -->`, ARGS saying how it is made
(`harness.analysis.tables`: a database, a set, a baseline, a `--kind` of table); nothing between the
markers is typed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.analysis import tables


def default_files(root: Path) -> list[Path]:
    """The README and every results/<study>/README.md (and results/README.md) under `root`."""
    results = root / "results"
    found = [root / "README.md", results / "README.md", *sorted(results.glob("*/README.md"))]
    return [p for p in found if p.is_file()]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.tables", description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="*", type=Path,
                   help="Markdown files (default: README.md, results/*/README.md)")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 naming each stale file")
    p.add_argument("--root", type=Path, default=Path("."), help="where the blocks' paths start (default: .)")
    args = p.parse_args(argv)
    stale = []
    for path in args.files or default_files(args.root):
        try:
            new = tables.regenerate(path, args.root)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        if new != path.read_text(encoding="utf-8"):
            stale.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if args.check else 'regenerated'}: {path}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
