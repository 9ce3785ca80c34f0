"""Step traces kept beside the results database (`steps/RUN_KEY.json.gz`), so a run's row stays small.

An encoding that records its deductions returns them as stats["steps"] (encodings/inference.py says
their shape). A sweep moves them out of the row's `extra` JSON into a gzipped file next to the
database, with the puzzle's text, and leaves the file's path (relative to the database's folder) as
`extra["steps_file"]`: any stored run can then be replayed (`python -m harness.replay`).
"""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from harness import kinds
from harness.extra import row_extra, write_extra
from harness.schema import SCHEMA_VERSION
from harness.storefile import reading

FOLDER = "steps"


def spill(row: dict[str, Any], text: str | None, db: str | Path) -> dict[str, Any]:
    """The row with its steps written to a file beside `db` and replaced by the file's path."""
    extra = row_extra(row)
    if "steps" not in extra:
        return row
    relative = f"{FOLDER}/{row['run_key']}.json.gz"
    path = Path(db).parent / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"run_key": row["run_key"], "encoding": row.get("encoding"), "puzzle": text,
              "steps": extra.pop("steps")}
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with gzip.open(temporary, "wt") as handle:
        json.dump(record, handle, separators=(",", ":"))
    os.replace(temporary, path)  # a reader never sees half a file
    extra["steps_file"] = relative
    return {**row, "extra": write_extra(extra)}


def load(db: str | Path, run_key: str) -> tuple[dict[str, Any], Any, list[list]]:
    """A stored run's row, its puzzle and its steps; raises LookupError when there are none."""
    path = Path(db)
    if not path.is_file():
        raise LookupError(f"no results database at {path}")
    with reading(path, SCHEMA_VERSION) as conn:  # read-only, as such (StoreError for a newer or damaged file)
        conn.row_factory = sqlite3.Row
        found = conn.execute("SELECT * FROM runs WHERE run_key LIKE ? || '%'", (run_key,)).fetchall()
    if len(found) != 1:
        raise LookupError(f"{path}: {len(found) or 'no'} runs have a key starting {run_key!r}")
    row = dict(found[0])
    extra = row_extra(row)
    if "steps_file" not in extra:
        raise LookupError(f"run {row['run_key']} ({row['encoding']}) has no steps file")
    with gzip.open(path.parent / extra["steps_file"], "rt") as handle:
        record = json.load(handle)
    return row, kinds.read_text(record["puzzle"], row["source"]), record["steps"]
