"""The limits every instance reader keeps (bytes, lines, token length, counts, sizes) and the bounded reader.

A file is read as a stream (plain, gzip or bz2, told by its first bytes) and refused the moment it
passes a limit, so a decompression bomb costs a chunk, not its decompressed size; a number is
checked against its limit before anything of that size is made. Each limit has a default and an
environment variable that overrides it (docs/INSTANCES.md, "Reading limits"); the variables are read
at each call, so a worker started with them reads as the coordinator did. Messages name the
limit and its variable, and cut what they quote (`shown`): a 50 MB token is never echoed.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import os
import zlib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import BinaryIO

from harness.errors import InstanceError, cut


@dataclass(frozen=True)
class ReadLimits:
    """What a reader accepts at most. Each field's variable is `LOOPBENCH_READ_` + its name in capitals."""

    bytes: int = 64 << 20  # decompressed bytes of one file (64 MiB)
    lines: int = 1_000_000  # lines of one file
    token: int = 1 << 20  # characters of one blank-separated token (a minified JSON line is one)
    count: int = 1_000_000  # any one number a file states: vertices, edges, rows, columns
    size: int = 1_000_000  # a puzzle's size: a grid's rows x columns, a graph's vertices

    def variable(self, name: str) -> str:
        return f"LOOPBENCH_READ_{name.upper()}"


def limits() -> ReadLimits:
    """The defaults, each overridden by its environment variable (a whole number >= 1)."""
    given = {}
    for f in fields(ReadLimits):
        name = ReadLimits().variable(f.name)
        raw = os.environ.get(name)
        if raw is None:
            continue
        if not raw.strip().isdecimal() or int(raw) < 1:
            raise ValueError(f"{name}={shown(raw)} is not a whole number >= 1")
        given[f.name] = int(raw)
    return ReadLimits(**given)


def shown(text: str, width: int = 60) -> str:
    """`text` quoted as repr does, cut to about `width` characters with its length said when longer."""
    if len(text) <= width:
        return repr(text)
    return f"{text[:width]!r}... ({len(text):,} characters)"


def past(source: str, what: str, limit: str, line: int | None = None, unit: str = "") -> InstanceError:
    """The error of an input past a limit: what is too much, the limit and the variable that sets it."""
    return InstanceError(source, f"{what}: past the limit of {getattr(limits(), limit):,}{unit} "
                                 f"({ReadLimits().variable(limit)} sets it)", line)


# Beyond this many digits a number is past every limit: int() of it is never tried (Python refuses
# over 4,300 digits with a ValueError of its own), and a store's INTEGER holds 19 digits.
DIGITS = 18


def number(token: str, what: str, source: str, line: int | None = None, least: int = 0,
           limit: str = "count") -> int:
    """A whole number (ASCII digits) between `least` and the limit `limit`, or InstanceError saying why."""
    if not (token.isascii() and token.isdecimal()):
        raise InstanceError(source, f"{what} must be a whole number, found {shown(token)}", line)
    most = getattr(limits(), limit)
    if len(token.lstrip("0")) > DIGITS or int(token) > most:
        raise past(source, f"{what} is {cut(token, 24)}", limit, line)
    if int(token) < least:
        raise InstanceError(source, f"{what} must be at least {least}, found {token}", line)
    return int(token)


def grid_cells(rows: int, cols: int, source: str, line: int | None = None) -> None:
    """A grid of rows x cols cells within the `cells` limit, checked before any cell is made."""
    if rows * cols > limits().size:
        raise past(source, f"a {rows}x{cols} grid has {rows * cols:,} cells", "size", line, " cells")


CHUNK = 1 << 20
# magic -> (format, stream)
_OPENERS = {b"\x1f\x8b": ("gzip", lambda raw: gzip.GzipFile(fileobj=raw)), b"BZh": ("bz2", bz2.BZ2File)}


def read_text(path: str | Path, source: str | None = None) -> str:
    """A file's text, decompressed when its first bytes say gzip or bz2, within every limit.

    Line ends are LF whatever the file has (CRLF, CR). Raises InstanceError naming the file (and
    the line where a limit was passed): cannot be opened, a corrupt or cut stream, not UTF-8 text,
    more bytes or lines than allowed, or a token longer than allowed.
    """
    source = str(path) if source is None else source
    try:
        with open(path, "rb") as raw:
            return read_stream(raw, source)
    except OSError as exc:
        raise InstanceError(source, f"cannot read: {exc.strerror or exc}") from None


def read_stream(raw: BinaryIO, source: str) -> str:
    """`read_text` of an open binary stream that can seek (a file, `io.BytesIO`)."""
    bound = limits()
    magic = raw.read(3)
    raw.seek(0)
    name, opener = next((o for m, o in _OPENERS.items() if magic.startswith(m)), ("", None))
    try:
        return _bounded(opener(raw) if opener else raw, source, bound)
    except OSError as exc:  # gzip's BadGzipFile is one, and bz2's "Invalid data stream"
        raise InstanceError(source, f"cannot read: {exc.strerror or exc}") from None
    except EOFError:
        raise InstanceError(source, f"cannot read: the {name} stream is cut short") from None
    except zlib.error:
        raise InstanceError(source, f"cannot read: the {name} stream is corrupt") from None


def _bounded(stream: BinaryIO, source: str, bound: ReadLimits) -> str:
    """The decoded text of a binary stream, read a chunk at a time and checked as it comes."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    size = lines = run = 0  # bytes so far, newlines so far, the length of the token still open
    while True:
        chunk = stream.read(CHUNK)
        size += len(chunk)
        if size > bound.bytes:
            at = lines + chunk.count(b"\n", 0, bound.bytes - (size - len(chunk))) + 1
            raise past(source, "the file is too long", "bytes", at, " decompressed bytes")
        if lines + chunk.count(b"\n") > bound.lines:
            raise past(source, "the file has too many lines", "lines", bound.lines + 1, " lines")
        run = _longest(chunk, run, bound.token, source, lines)
        lines += chunk.count(b"\n")
        try:
            parts.append(decoder.decode(chunk, final=not chunk))
        except UnicodeDecodeError:
            raise InstanceError(source, "not a text file (not UTF-8)", lines + 1) from None
        if not chunk:
            break
    return "".join(parts).replace("\r\n", "\n").replace("\r", "\n")


def _longest(chunk: bytes, run: int, most: int, source: str, lines: int) -> int:
    """The open token's length after `chunk` (`run` before it); raises when a token passes `most`."""
    words = chunk.split()
    if not words:
        return 0 if chunk else run
    opened = run if not chunk[:1].isspace() else 0  # the first word continues the open token
    lengths = [len(w) for w in words]
    lengths[0] += opened
    if max(lengths) > most:
        i = lengths.index(max(lengths))
        at = lines + chunk.count(b"\n", 0, chunk.find(words[i])) + 1 if i or not opened else lines + 1
        raise past(source, "a token too long", "token", at, " characters")
    return lengths[-1] if not chunk[-1:].isspace() else 0


def check_spec(spec: str) -> None:
    """A spec given as a string (a URL, a game id) within the token limit."""
    if len(spec) > limits().token:
        raise past(spec, f"a spec of {len(spec):,} characters", "token", None, " characters")
