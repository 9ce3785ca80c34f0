"""Refuse to continue a sweep database begun at another commit than this checkout's (the regenerate scripts).

`python results/same_commit.py DB` exits 0 when DB is missing, has no sweep yet, or was begun at this
checkout's commit; else 1 with one line: its batches would be two sweeps (harness/analysis/batches.py).
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path


def main(db: str) -> int:
    if not Path(db).is_file():
        return 0
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        first = conn.execute('SELECT "commit" FROM sweeps ORDER BY started_at LIMIT 1').fetchone()
    here = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    if first and first[0] and first[0] != here:
        print(f"regenerate.sh: {db} was begun at commit {first[0][:7]}, this checkout is {here[:7]}: its "
              "batches would be two sweeps; check that commit out, or set DB= for a new database",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
