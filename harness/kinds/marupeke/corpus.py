"""Importer of the one real Marupeke found (a solver's sample, collection kevinychen-nikoli-puzzle-solver).

The generated collection is not imported: `python -m harness.generate` writes it (its
PROVENANCE note has the command).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from harness.bundles import Entry, judge_solutions
from harness.kinds.marupeke import formats

KEVINYCHEN = "kevinychen-nikoli-puzzle-solver"


def read_kevinychen(path: Path) -> Iterator[Entry]:
    """marupeke.jsonl: puzzles decoded from penpa-edit URLs, as unspaced rows, with their solutions."""
    with open(path) as handle:
        for n, line in enumerate(handle, 1):
            record = json.loads(line)
            puzzle = formats.from_rows(record["problem"], f"{path}:{n}")
            name = record["id"].removeprefix("kevinychen-marupeke-")
            yield Entry(name, puzzle, "/".join(record.get("solution", [])), {"upstream": record["source"]})


def build(corpus: Path) -> dict[str, list[Entry]]:
    """Read the corpus: one list of entries per bundle (file stem under instances/marupeke/)."""
    return {"real": judge_solutions(read_kevinychen(corpus / KEVINYCHEN / "marupeke.jsonl"))}
