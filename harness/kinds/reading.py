"""A puzzle from any spec: plain text, a janko.at block, a puzz.link URL, a game id or a claimed file."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from harness.errors import InstanceError
from harness.kinds import bounds
from harness.kinds.janko import janko_begin, read_janko
from harness.kinds.registry import DEFAULT_KIND, get_for, kinds, of
from harness.kinds.text import nonblank_lines, size


def read_text(text: str, source: str = "<text>", kind: str | None = None) -> Any:
    """A puzzle from plain text: `[KIND] ROWS COLS` and the body; `kind` overrides the file's word.

    `#` lines before the header are comments (a header never starts with `#`; a body row may).
    """
    lines = nonblank_lines(text)
    while lines and lines[0][1].startswith("#"):
        lines.pop(0)
    if not lines:
        raise InstanceError(source, "empty file: expected a `KIND ROWS COLS` line", 1)
    n, header = lines[0]
    parts = header.split()
    if len(parts) == 3 and not parts[0].isdecimal():
        named = parts.pop(0).lower()
        if kind is None and named not in kinds():
            raise InstanceError(source, f"unknown puzzle kind {named!r} (known: {', '.join(kinds())})", n)
        kind = kind or named
    if len(parts) != 2:
        raise InstanceError(source, f"expected `KIND ROWS COLS` or `ROWS COLS`, found {header!r}", n)
    chosen = get_for(kind or DEFAULT_KIND, source)
    rows = size(parts[0], chosen.header_words[0], source, n, chosen.header_least[0])
    cols = size(parts[1], chosen.header_words[1], source, n, chosen.header_least[1])
    if chosen.size(rows, cols) > bounds.limits().size:  # checked before any cell is made
        raise bounds.past(source, f"a puzzle of {chosen.size_text(rows, cols)}", "size", n)
    return chosen.parse_body(rows, cols, lines[1:], source)


def url_id(spec: str) -> str | None:
    """The puzz.link puzzle id of a URL-looking spec (`mashu`, `slither`), or None if it is no URL."""
    ids = "|".join(re.escape(i) for k in kinds().values() for i in k.url_ids)
    match = re.search(rf"\?(?:type=[^&/]*&)?({ids})(?:_edit|_play)?/", spec)
    if match:
        return match[1]
    if re.match(r"https?://", spec, re.IGNORECASE):
        query = re.sub(r"^type=[^&/]*&", "", spec.partition("?")[2])
        return re.sub(r"_(?:edit|play)$", "", query.partition("/")[0]) or "?"
    return None


def read_spec(spec: str, kind: str | None = None) -> Any:
    """A puzzle from a puzz.link URL, a game id, or a file (plain text, a janko.at block, or a
    format a kind claims: `Kind.claims_text`).

    The URL's puzzle id, the id's shape, the janko block's `puzzle` key, the claiming kind or the
    file's kind line picks the kind; `kind` overrides them. Raises InstanceError naming the spec
    and the problem.
    """
    bounds.check_spec(spec)
    pid = url_id(spec)
    if pid is not None:
        chosen = kind or next((k.name for k in kinds().values() if pid in k.url_ids), None)
        if chosen is None:
            known = ", ".join(i for k in kinds().values() for i in k.url_ids)
            raise InstanceError(spec, f"unknown puzz.link puzzle type {pid!r} (known: {known})")
        return get_for(chosen, spec).read_url(spec)
    claims = [k for k in kinds().values() if k.claims_id(spec)]
    if claims:
        return (get_for(kind, spec) if kind else claims[0]).read_id(spec)
    if not _is_file(spec):
        raise InstanceError(spec, "no such file, and not a puzz.link URL or a Tatham game id")
    text = read_file(spec)
    if janko_begin(text.splitlines()) is not None:
        return read_janko(text, spec, kind)[0]
    claimed = [k for k in kinds().values() if k.claims_text(text)]
    if claimed:
        return (get_for(kind, spec) if kind else claimed[0]).read_claimed(text, spec)
    return read_text(text, spec, kind)


def _is_file(spec: str) -> bool:
    """Whether a spec names a file; a name the system refuses (too long, a NUL in it) names none."""
    try:
        return Path(spec).is_file()
    except (OSError, ValueError):
        return False


def read_file(spec: str) -> str:
    """A puzzle file's text, decompressed when gzip- or bz2-compressed (`.hcp.gz`: told by its first
    bytes), read within the reading limits (`bounds.read_text`; InstanceError past one).

    Line ends are LF whatever the file has (CRLF, CR), as `Path.read_text` gives them.
    """
    return bounds.read_text(spec)


def known_in_text(puzzle: Any, text: str) -> str:
    """The known answer ("sat"/"unsat", else "") a `# known: WORD` line before the header gives."""
    for _, line in nonblank_lines(text):
        if not line.startswith("#"):
            break
        match = re.fullmatch(r"#\s*known\s*:\s*(\S+)", line)
        if match:
            return of(puzzle).known_answers.get(match[1].lower(), "")
    return ""
