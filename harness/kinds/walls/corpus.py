"""Importer of the raw Walls collection (the janko-tkoz0 scrape of janko.at), from which the bundle is built.

It reads the verbatim scrape `Mauerbau.jsonl.bz2` (janko.at's own problem and solution tokens;
the derived `walls_mauerbau.jsonl` beside it says the same, which tests/test_walls.py checks),
and judges every solution with the independent checker on the way.
"""

from __future__ import annotations

import bz2
import json
import re
from collections.abc import Iterator
from pathlib import Path

from harness.bundles import Entry, judge_solutions, merge_contents
from harness.errors import InstanceError
from harness.kinds.walls import formats

JANKO_TKOZ0 = "janko-tkoz0"
MAUERBAU = "Mauerbau.jsonl.bz2"


def read_mauerbau(path: Path) -> Iterator[Entry]:
    """janko.at "Mauerbau" (Walls) pages as scraped in 2022: one JSON record per puzzle."""
    with bz2.open(path, "rt") as handle:
        for n, line in enumerate(handle, 1):
            record = json.loads(line)
            source = f"{path}:{n}"
            data = record["data"]
            number = re.fullmatch(r"/Mauerbau/([0-9]+)\.a\.x-janko", record["file"])
            if number is None:
                raise InstanceError(source, f"unexpected file name {record['file']!r}")
            puzzle, solution = formats.from_janko([(None, row) for row in data["problem"]],
                                                  [(None, row) for row in data.get("solution", [])], source)
            meta = {"author": data.get("author", ""), "janko_puzzle": data.get("puzzle", "")}
            yield Entry(f"janko-at-{number[1]}", puzzle, solution, meta)


def build(corpus: Path) -> dict[str, list[Entry]]:
    """Read the corpus: one list of entries per bundle (file stem under instances/walls/)."""
    return {"janko-at": judge_solutions(merge_contents(read_mauerbau(corpus / JANKO_TKOZ0 / MAUERBAU)))}
