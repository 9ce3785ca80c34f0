"""janko.at scrape files (tkoz0/janko.at-puzzle-scraping): JSON lines, bz2 or plain, read as they are.

Every line is `{"file": "/Genre/001.a.x-janko", "data": {...}}`; `data["puzzle"]` names the genre,
and the kind whose `janko_names` hold it reads the record (`Kind.read_janko_record`: the puzzle
and janko.at's solution, the known answer). A puzzle is named after its `file` field
(`/Geradeweg/001.a.x-janko` -> `Geradeweg-001`). A line that cannot be read becomes a record
carrying one error line, `FILE:LINE: problem`, and the rest are read on.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.errors import InstanceError
from harness.kinds import bounds
from harness.kinds.bounds import shown

SUFFIXES = (".jsonl", ".jsonl.bz2")


@dataclass(frozen=True)
class Record:
    """One line of a scrape file: a puzzle with its known solution, or the error that line gave."""

    name: str
    source: str  # FILE:LINE
    puzzle: Any = None
    solution: str = ""
    error: str = ""


def is_scrape(path: str | Path) -> bool:
    return str(path).endswith(SUFFIXES)


def name_of(file: str, line: int) -> str:
    """`/Geradeweg/001.a.x-janko` -> `Geradeweg-001`; a line without a usable `file`, `line-N`."""
    match = re.fullmatch(r"/?([^/]+)/([^./]+)[^/]*", file or "")
    return f"{match[1]}-{match[2]}" if match else f"line-{line}"


def read(path: str | Path, kind: str | None = None) -> list[Record]:
    """Every line's record; a file that cannot be opened raises InstanceError naming it."""
    from harness import kinds

    path = Path(path)
    text = bounds.read_text(path)  # bz2 told by its first bytes; within the reading limits
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        source = f"{path}:{n}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            out.append(Record(f"line-{n}", source, error=f"{path}:{n}: not a JSON line ({exc.msg})"))
            continue
        except (ValueError, RecursionError) as exc:  # a number of over 4,300 digits; nesting too deep
            problem = "nested too deep" if isinstance(exc, RecursionError) else "a number too long"
            out.append(Record(f"line-{n}", source, error=f"{path}:{n}: not a JSON line we read ({problem})"))
            continue
        file = item.get("file", "") if isinstance(item, dict) else ""
        name = name_of(file if isinstance(file, str) else "", n)
        try:
            if not isinstance(file, str):
                raise InstanceError(str(path), f"`file` is not a string but {shown(json.dumps(file))}", n)
            data = item.get("data") if isinstance(item, dict) else None
            if not isinstance(data, dict):
                raise InstanceError(str(path), "no `data` object", n)
            genre = str(data.get("puzzle", "")).lower()
            chosen = kind or next((k.name for k in kinds.kinds().values() if genre in k.janko_names), None)
            if chosen is None:
                raise InstanceError(str(path), f"no reader for janko.at puzzle {shown(genre)}", n)
            puzzle, solution = kinds.get(chosen).read_janko_record(data, source)
        except InstanceError as exc:
            where = f"{path}:{n}"
            problem = exc.problem if exc.source in (str(path), source) else str(exc)
            out.append(Record(name, source, error=f"{where}: {problem}"))
            continue
        out.append(Record(name, source, puzzle, solution))
    if not out:
        raise InstanceError(str(path), "the file holds no puzzle")
    return out
