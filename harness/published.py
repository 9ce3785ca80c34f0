"""Reading a published per-instance results table (`--published FILE`), kept apart from the results database.

The format (docs/FORMATS.md, "Published results"): UTF-8 text, tab-separated, one row per
instance. Lines starting with `#` are comments; `# limit_s: N` among them states the publisher's
time limit in seconds, and `# columns PATTERN: clock=cpu; machine=M; program=P` declares, for the
configuration columns the glob PATTERN (or several, comma-separated) matches, the clock their
times are on (`cpu` or `wall`), the machine they ran on and the program that ran (`Column`); a
later line overrides an earlier one's keys. The first other line is the header: the first column
names the instance (joined with the runs' `instance` column: `graph123`), every other column is
one of
- an attribute of the instance, not a configuration: `n`, `m`, `min_deg`, `max_deg` (vertex and
  edge counts, degrees; `ATTRIBUTES`), kept as numbers beside the times;
- a virtual best the publisher computed (`VBS`, or a name ending `:VBS`): kept apart, never
  ranked as a configuration (the analysis makes its own virtual best from the configurations);
- a configuration: each cell its seconds on the declared clock (a number >= 0), `TO` or `TIMEOUT`
  (not solved within the publisher's limit), `MO` or `MEMOUT` (not solved: out of memory), or
  empty (not run); its clock, machine and program must be declared.
A program named `loopbench:CONFIG` is this harness's own configuration run elsewhere: only such a
column is the same program as a measured one (`same_program`). Anything else is refused with one
line naming the file, line and column.
"""

from __future__ import annotations

import fnmatch
import gzip
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

ATTRIBUTES = ("n", "m", "min_deg", "max_deg")
UNSOLVED = ("TO", "TIMEOUT", "MO", "MEMOUT")  # not solved: out of time, out of memory
LIMIT_KEY = "limit_s"
COLUMNS_KEY = "columns"
CLOCKS = ("cpu", "wall")
DECLARED = ("clock", "machine", "program")  # what `# columns` says of a configuration column, all needed
OURS = "loopbench:"  # a program so named is this harness's configuration (`same_program`)


class PublishedError(ValueError):
    """A published table that cannot be read: the message names file, line and problem."""


@dataclass(frozen=True)
class Column:
    """What the file declares of a configuration column: its times' clock, the machine, the program."""

    clock: str  # `cpu` or `wall`
    machine: str
    program: str


@dataclass(frozen=True)
class Published:
    """A published table: times per instance and configuration (NaN: `TO`), apart from what was run here."""

    path: str
    times: pd.DataFrame  # index: instance; one column per configuration; NaN where not solved
    ran: pd.DataFrame  # the same shape: whether the configuration ran the instance (empty cell: not)
    attributes: pd.DataFrame  # index: instance; the ATTRIBUTES columns present
    given_best: pd.DataFrame  # the publisher's own virtual-best columns
    limit_s: float | None = None  # the publisher's time limit, when the file states it
    columns: dict[str, Column] = field(default_factory=dict)  # per configuration, as declared

    @property
    def configs(self) -> list[str]:
        return list(self.times.columns)

    def clocks(self) -> set[str]:
        """The clocks the configuration columns' times are on."""
        return {self.columns[c].clock for c in self.configs}


# `--published-columns` of harness.plot, harness.compare and harness.report, said once
COLUMNS_HELP = ("only the published configuration columns these globs match, comma-separated (`soh_*`): "
                "the ones drawn and the published virtual best's, e.g. one clock's")


def matching(globs: str, columns: list[str], what: str, path: str) -> list[str]:
    """The columns the comma-separated globs match, in the globs' order; ValueError naming a glob that
    matches none (a misspelt name)."""
    chosen: list[str] = []
    for pattern in [g.strip() for g in globs.split(",") if g.strip()]:
        hits = [c for c in columns if fnmatch.fnmatchcase(c, pattern)]
        if not hits:
            raise ValueError(f"{what} {pattern!r} matches no configuration column of {path}")
        chosen += [c for c in hits if c not in chosen]
    return chosen


def only(table: Published, globs: str) -> Published:
    """The table with only the configuration columns `globs` matches (`matching`); as it is for no globs."""
    if not globs.strip():
        return table
    kept = matching(globs, table.configs, "--published-columns", table.path)
    return replace(table, times=table.times[kept], ran=table.ran[kept],
                   columns={c: table.columns[c] for c in kept})


def same_program(column: Column, measured: list[str]) -> str | None:
    """The measured config running the column's declared program: only a `loopbench:CONFIG` program
    is one of ours (CONFIG a measured label, or the encoding of exactly one); None for any other."""
    if not column.program.startswith(OURS):
        return None
    name = column.program[len(OURS):]
    hits = [c for c in measured if c == name] or [c for c in measured if c.split("[", 1)[0] == name]
    return hits[0] if len(hits) == 1 else None


def is_virtual_best(column: str) -> bool:
    """Whether a column is a virtual best the publisher computed (`VBS`, `…:VBS`), not a configuration."""
    return column == "VBS" or column.endswith(":VBS")


def _cell(text: str, where: str, column: str) -> float | None:
    """A configuration's cell: seconds, NaN for `TO`, None for empty (not run)."""
    text = text.strip()
    if not text:
        return None
    if text.upper() in UNSOLVED:
        return math.nan
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not math.isfinite(value) or value < 0:
        raise PublishedError(f"{where}: column {column!r}: {text!r} is not seconds (a number >= 0) "
                             f"or one of {', '.join(UNSOLVED)}")
    return value


def _lines(path: Path) -> list[str]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise PublishedError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    try:
        return raw.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise PublishedError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def read(path: str | Path) -> Published:
    """Read a published table (see the module doc); raises PublishedError naming file, line and problem."""
    path = Path(path)
    header: list[str] | None = None
    limit: float | None = None
    rows: dict[str, list[str]] = {}
    declared: list[tuple[str, list[str], dict[str, str]]] = []  # (where, patterns, keys) in file order
    for number, line in enumerate(_lines(path), start=1):
        where = f"{path}:{number}"
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            if key.strip().startswith(COLUMNS_KEY + " "):
                # `# columns soh_*: clock=cpu; ...`: the patterns sit between the key and the first `: `
                patterns, sep, keys = line[1:].strip()[len(COLUMNS_KEY):].partition(": ")
                declared.append((where, [p.strip() for p in patterns.split(",") if p.strip()],
                                 _declaration(keys if sep else "", where)))
            elif key.strip() == LIMIT_KEY:
                try:
                    limit = float(value)
                except ValueError:
                    limit = math.nan
                if not math.isfinite(limit) or limit <= 0:
                    raise PublishedError(f"{where}: {LIMIT_KEY} must be a number of seconds > 0, "
                                         f"not {value.strip()!r}")
            continue
        if not line.strip():
            continue
        fields = line.rstrip("\r").split("\t")
        if header is None:
            if len(fields) < 2 or len(set(fields)) != len(fields):
                raise PublishedError(f"{where}: the header needs an instance column and at least one "
                                     "more, every name once")
            header = fields
            configs = [c for c in header[1:] if c not in ATTRIBUTES and not is_virtual_best(c)]
            if not configs:
                raise PublishedError(f"{where}: no configuration column (only {', '.join(header[1:])})")
            continue
        if len(fields) != len(header):
            raise PublishedError(f"{where}: {len(fields)} fields, the header has {len(header)}")
        name = fields[0].strip()
        if not name or name in rows:
            raise PublishedError(f"{where}: instance {name!r} " + ("again" if name else "has no name"))
        rows[name] = fields
        for column, text in zip(header[1:], fields[1:], strict=True):
            if column in ATTRIBUTES:
                try:
                    float(text)
                except ValueError:
                    raise PublishedError(f"{where}: column {column!r}: {text!r} is not a number") from None
            else:
                _cell(text, where, column)
    if header is None or not rows:
        raise PublishedError(f"{path}: no rows (a header line and one row per instance expected)")
    return _frames(path, header, rows, limit, _columns(path, header, declared))


def _declaration(text: str, where: str) -> dict[str, str]:
    """`clock=cpu; machine=M; program=P` (any of the keys) as a dict; refused with file and line."""
    keys = {}
    for part in text.split(";"):
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key not in DECLARED or not value:
            raise PublishedError(f"{where}: a columns line reads `# columns PATTERN: clock=cpu|wall; "
                                 f"machine=NAME; program=NAME`, not {part.strip()!r}")
        if key == "clock" and value not in CLOCKS:
            raise PublishedError(f"{where}: clock must be one of {', '.join(CLOCKS)}, not {value!r}")
        keys[key] = value
    return keys


def _columns(path: Path, header: list[str], declared: list) -> dict[str, Column]:
    """Each configuration column's declaration, the `# columns` lines applied in order; every key is
    needed, and a pattern that matches no configuration column is refused (a misspelt name)."""
    configs = [c for c in header[1:] if c not in ATTRIBUTES and not is_virtual_best(c)]
    keys: dict[str, dict[str, str]] = {c: {} for c in configs}
    for where, patterns, given in declared:
        for pattern in patterns:
            hits = [c for c in configs if fnmatch.fnmatchcase(c, pattern)]
            if not hits:
                raise PublishedError(f"{where}: {pattern!r} matches no configuration column")
            for column in hits:
                keys[column].update(given)
    for column in configs:
        missing = [k for k in DECLARED if k not in keys[column]]
        if missing:
            raise PublishedError(f"{path}: column {column!r} does not declare its {' or '.join(missing)} "
                                 f"(a `# columns {column}: clock=cpu|wall; machine=NAME; program=NAME` line)")
    return {c: Column(**keys[c]) for c in configs}


def _frames(path: Path, header: list[str], rows: dict[str, list[str]], limit: float | None,
            declared: dict[str, Column]) -> Published:
    index = pd.Index(list(rows), name="instance")
    columns = {column: [fields[i] for fields in rows.values()] for i, column in enumerate(header) if i}
    attributes = pd.DataFrame({c: [float(x) for x in v] for c, v in columns.items() if c in ATTRIBUTES},
                              index=index)
    cells = {c: [_cell(x, "", c) for x in v] for c, v in columns.items() if c not in ATTRIBUTES}
    times = pd.DataFrame({c: [math.nan if x is None else x for x in v] for c, v in cells.items()},
                         index=index, dtype=float)
    ran = pd.DataFrame({c: [x is not None for x in v] for c, v in cells.items()}, index=index)
    configs = [c for c in cells if not is_virtual_best(c)]
    best = [c for c in cells if is_virtual_best(c)]
    return Published(str(path), times[configs], ran[configs], attributes, times[best], limit, declared)
