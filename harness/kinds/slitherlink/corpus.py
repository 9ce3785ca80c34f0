"""The importer of the raw Slitherlink collection (the janko-tkoz0 scrape), from which the bundle is built.

janko-tkoz0 `Slitherlink.jsonl.bz2`: janko.at's x-janko blocks as JSON lines (one per page), read
as shipped. Each shading solution becomes our loop string; `build` judges it with the checker.
"""

from __future__ import annotations

import bz2
import json
import re
from collections.abc import Iterator
from pathlib import Path

from harness.bundles import Entry, judge_solutions, merge_contents
from harness.errors import InstanceError
from harness.kinds.slitherlink.formats import from_janko_grids
from harness.kinds.slitherlink.model import KIND

JANKO_TKOZ0 = "janko-tkoz0"
JANKO_FILE = "Slitherlink.jsonl.bz2"


def read_janko_jsonl(path: Path) -> Iterator[Entry]:
    """janko.at pages `/Slitherlink/NNNN.a.x-janko`, named `janko-sl-NNNN` (the page's digits as given)."""
    with bz2.open(path, "rt") as handle:
        for n, line in enumerate(handle, 1):
            source = f"{path}:{n}"
            record = json.loads(line)
            data = record["data"]
            match = re.fullmatch(r"/Slitherlink/([0-9]+)\.a\.x-janko", record["file"])
            if not match:
                raise InstanceError(source, f"unexpected page name {record['file']!r}")
            if data.get("puzzle", KIND).lower() != KIND:
                raise InstanceError(source, f"not a Slitherlink page: puzzle {data['puzzle']!r}")
            problem = [(None, row) for row in data["problem"]]
            shading = [(None, row) for row in data.get("solution", [])]
            puzzle, solution = from_janko_grids(problem, shading, source)
            declared = (data.get("rows", data.get("size")), data.get("cols", data.get("size")))
            if declared != (None, None) and declared != (puzzle.rows, puzzle.cols):
                raise InstanceError(source, f"the page says {declared[0]}x{declared[1]}, its problem grid is "
                                            f"{puzzle.rows}x{puzzle.cols}")
            yield Entry(f"janko-sl-{match[1]}", puzzle, solution, {"author": data.get("author", "")})


def build(corpus: Path) -> dict[str, list[Entry]]:
    """Read the corpus: one list of entries per bundle (file stem under instances/slitherlink/)."""
    entries = list(read_janko_jsonl(corpus / JANKO_TKOZ0 / JANKO_FILE))
    return {"janko": judge_solutions(merge_contents(entries))}
