"""puzz.link / pzv URLs: the frame every kind's URL shares, `…?PID/[v:…/][f/]COLS/ROWS/BODY[/]`."""

from __future__ import annotations

import re

from harness.errors import InstanceError
from harness.kinds import size
from harness.kinds.bounds import grid_cells


def read_frame(url: str, pids: tuple[str, ...], kind: str, full_means: str) -> tuple[int, int, str, bool]:
    """The rows, columns, body and `f` flag of a URL whose puzzle id is one of `pids` (any host).

    pzprjs's rules: an optional `v:` variant field carries nothing here; the first field that is
    not a number is the flag, and the only flag accepted is `f` (`full_means` says what it asks).
    Raises InstanceError naming the URL and the problem.
    """
    query = url.strip().partition("?")[2] or url.strip()
    query = re.sub(r"^type=[^&/]*&", "", query)  # pzv's `?type=editor&PID/…` form
    head, _, rest = query.partition("/")
    pid = re.sub(r"_(?:edit|play)$", "", head)
    if pid not in pids:
        raise InstanceError(url, f"not a {kind} URL: puzzle type {pid!r} (expected {', '.join(pids)})")
    fields = rest.split("/")
    if fields[-1] == "":
        fields.pop()  # a trailing slash
    if fields and fields[0].startswith("v:"):
        fields.pop(0)
    full = False
    if fields and not fields[0].isdecimal():
        flag = fields.pop(0)
        if flag != "f":
            raise InstanceError(url, f"unknown flag {flag!r} ({kind} knows only `f`: {full_means})")
        full = True
    if len(fields) < 3:
        raise InstanceError(url, f"missing fields: expected COLS/ROWS/BODY, found {'/'.join(fields)!r}")
    if len(fields) > 3:
        raise InstanceError(url, f"unexpected text after the body: {'/'.join(fields[3:])!r}")
    cols = size(fields[0], "the number of columns", url)
    rows = size(fields[1], "the number of rows", url)
    grid_cells(rows, cols, url)
    return rows, cols, fields[2], full
