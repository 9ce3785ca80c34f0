"""Puzzle kinds as plug-ins: one folder per kind, found by the registry; this package re-exports the parts.

A kind is one sub-package of `harness.kinds` (masyu/, slitherlink/, ...) whose `__init__` defines
`KIND`, an instance of a `Kind` subclass; adding a kind is adding a folder (docs/ADDING-A-KIND.md).
The jobs live in modules of their own, each named here so `from harness.kinds import ...` keeps
working for the harness and for plug-ins:
- `contract`: the `Kind` contract, and its check when a kind registers (`require`: one TypeError
  naming all a kind lacks);
- `registry`: every kind by name (`kinds`, `get`, `of`) and what asks a puzzle's kind (`check`);
- `reading`: a puzzle from any spec (`read_spec`, `read_text`, `read_file`);
- `bounds`: the limits every reader keeps and the bounded file reader (plain, gzip, bz2);
- `janko`: janko.at `begin … end` blocks;
- `text`: what the kinds' plain-text readers share (`size`, `grid_rows`, ...);
- `image`: a puzzle drawn into a file by its kind (`save_image`).
Modules imported where they are used, not re-exported: `demands` (what a kind states of every
answer, for the proof checker) and what kinds share (`drawing`, `loopcheck`, `janko_loop`,
`puzzlink`, `tatham`, `cellbits`).
"""

from __future__ import annotations

from harness.kinds.contract import (
    Kind,
    Lines,
    contract_problems,
    optional_members,
    require,
    required_members,
)
from harness.kinds.image import save_image
from harness.kinds.janko import JANKO_GRIDS, janko_begin, parse_janko, read_janko
from harness.kinds.reading import known_in_text, read_file, read_spec, read_text, url_id
from harness.kinds.registry import DEFAULT_KIND, check, get, kinds, known_word, names, of, write_text
from harness.kinds.text import grid_rows, nonblank_lines, row_tokens, size, trailing_flag

__all__ = [
    "DEFAULT_KIND", "JANKO_GRIDS", "Kind", "Lines", "check", "contract_problems", "get", "grid_rows",
    "janko_begin", "kinds", "known_in_text", "known_word", "names", "nonblank_lines", "of",
    "optional_members", "parse_janko", "read_file", "read_janko", "read_spec", "read_text", "require",
    "required_members", "row_tokens", "save_image", "size", "trailing_flag", "url_id", "write_text",
]
