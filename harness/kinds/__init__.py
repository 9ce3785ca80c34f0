"""Puzzle kinds as plug-ins: the contract a kind meets, and the registry that finds the kind folders.

A kind is one sub-package of `harness.kinds` (masyu/, slitherlink/, ...) whose `__init__` defines
`KIND`, an instance of a `Kind` subclass. The kind owns everything about its puzzles that is not
solving: its model, its formats (plain text, URLs, ids, janko.at blocks, the compact form of the
bundles), its independent checker, its drawings and its corpus importer. The rest of the harness
reaches a kind only through this contract, so adding a kind is adding a folder (docs/ADDING-A-KIND.md);
registering checks it (`require`: one TypeError naming all a kind lacks). A kind may keep its
solving rules in its folder too (`Kind.rules()`, found by `loopbench_encodings.rules.of`).

Every puzzle object has `kind` (the kind's name), `rows` and `cols` (a grid's; a graph's vertex and
edge counts), and a grid kind's its `grid`. Every reader raises InstanceError naming the source
(and the line, for text) on bad input.
"""

from __future__ import annotations

import abc
import gzip
import importlib
import pkgutil
import re
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from harness import plugins
from harness.errors import InstanceError

Lines = list[tuple[int, str]]  # (1-based line number, stripped text) of the non-blank lines


class Kind(abc.ABC):
    """One puzzle kind. Methods without a default (abstract) are what a kind must provide.

    This class is the contract, the project's kinds' and plug-ins' alike (docs/PLUGINS.md points
    here). The registry holds one instance per kind for the whole process: keep no per-puzzle
    state on it. Readers get text and a `source` to name in errors; writers get a puzzle of this
    kind. No method may assume another was called first. Optional formats raise InstanceError by
    default, so a kind without URLs says so in one line.
    """

    name: ClassVar[str]
    url_ids: ClassVar[tuple[str, ...]] = ()  # puzz.link puzzle ids this kind reads
    janko_names: ClassVar[tuple[str, ...]] = ()  # values of the janko.at `puzzle` key it reads
    # what the header's two numbers are, in words for errors, and the least each may be
    header_words: ClassVar[tuple[str, str]] = ("the number of rows", "the number of columns")
    header_least: ClassVar[tuple[int, int]] = (1, 1)
    # a bundle's `known` words for whether an instance has a solution, as "sat" / "unsat"
    known_answers: ClassVar[dict[str, str]] = {}
    # a puzzle's size on a scaling plot's x axis, in words, and from the database's rows and cols
    size_words: ClassVar[str] = "cells (rows × cols)"
    # the database columns naming the header's two numbers in the kind's words, beside `rows` and
    # `cols`, which hold them for every kind (FORMATS.md): a graph's ("vertices", "edges")
    size_columns: ClassVar[tuple[str, str]] = ("rows", "cols")
    # the largest `size` the report draws unless told otherwise: 2500 cells, a 50x50 grid
    drawn_up_to: ClassVar[int] = 2500

    @staticmethod
    def size(rows: int, cols: int) -> int:
        """The puzzle's size on a scaling plot's axis (a grid's cells) from the database's `rows`, `cols`."""
        return rows * cols

    @staticmethod
    def size_text(rows: int, cols: int) -> str:
        """The size in words from the database's `rows`, `cols`: `10x10`; `100 vertices, 150 edges`."""
        return f"{rows}x{cols}"

    # --- plain text: `KIND ROWS COLS`, then the body --------------------------------------------

    @abc.abstractmethod
    def parse_body(self, rows: int, cols: int, lines: Lines, source: str) -> Any:
        """The puzzle from the non-blank lines after the header (line numbers for errors)."""

    @abc.abstractmethod
    def body_lines(self, puzzle: Any) -> list[str]:
        """The plain-text body of `puzzle`, one string per line, as `parse_body` reads it back."""

    def write_text(self, puzzle: Any) -> str:
        """The plain-text form with its kind line; also the puzzle's identity in run keys."""
        return "\n".join([f"{self.name} {puzzle.rows} {puzzle.cols}", *self.body_lines(puzzle)]) + "\n"

    # --- judging and drawing ----------------------------------------------------------------------

    @abc.abstractmethod
    def check(self, puzzle: Any, solution: str) -> list[str]:
        """The independent checker: every rule `solution` breaks, in words; empty means correct.

        Written from the rules alone; shares no constraint code with any encoding. Gets any string
        an encoding returned: a malformed one is a violation to return, never an exception.
        """

    @abc.abstractmethod
    def render_text(self, puzzle: Any, solution: str = "", ascii: bool = False) -> str:
        """The puzzle (and solution) as text for a terminal; ValueError on a malformed solution."""

    @abc.abstractmethod
    def draw(self, puzzle: Any, solution: str = "", ax: Any = None, title: str = "") -> Any:
        """The puzzle (and solution) on a matplotlib Axes (a new figure when `ax` is None); returns it."""

    def describe(self, puzzle: Any) -> str:
        """A few words on the clues, for status lines (`12 pearls`)."""
        return ""

    def shape(self, puzzle: Any) -> str:
        """The puzzle's size for status lines: `size_text` of its rows and cols."""
        return self.size_text(puzzle.rows, puzzle.cols)

    # --- other formats (optional) -----------------------------------------------------------------

    def read_url(self, url: str) -> Any:
        raise InstanceError(url, f"{self.name} puzzles have no URL reader")

    def write_url(self, puzzle: Any) -> str:
        raise ValueError(f"{self.name} puzzles have no URL writer")

    def claims_id(self, spec: str) -> bool:
        """Whether `spec` is a game id of this kind (Simon Tatham's `WxH…:DESC`, say)."""
        return False

    def read_id(self, spec: str) -> Any:
        raise InstanceError(spec, f"{self.name} puzzles have no game-id reader")

    def read_janko(self, text: str, source: str) -> tuple[Any, str]:
        """A janko.at `begin … end` block: the puzzle and its solution string ("" when none)."""
        raise InstanceError(source, f"{self.name} puzzles have no janko.at reader")

    def claims_text(self, text: str) -> bool:
        """Whether a file's text is in a format of this kind's own (a TSPLIB HCP file, say)."""
        return False

    def read_claimed(self, text: str, source: str) -> Any:
        """The puzzle of a text `claims_text` accepts."""
        raise InstanceError(source, f"{self.name} puzzles have no reader for this format")

    def write_tour(self, puzzle: Any, solution: str, name: str = "") -> str:
        """The solution as a TSPLIB tour file (`TYPE : TOUR`); ValueError for kinds without tours."""
        raise ValueError(f"{self.name} puzzles have no tour format (a tour is a graph's answer)")

    # --- bundles and the corpus -------------------------------------------------------------------

    def write_compact(self, puzzle: Any) -> str:
        """One line without tabs, for a bundle's `puzzle` column (default: the text with `/` for newlines)."""
        return "/".join(self.body_lines(puzzle))

    def read_compact(self, text: str, rows: int, cols: int, source: str) -> Any:
        lines = [(n, line) for n, line in enumerate(text.split("/"), 1)]
        return self.parse_body(rows, cols, lines, source)

    def import_corpus(self, corpus: Path) -> dict[str, list[Any]]:
        """Bundles to write from the raw corpus: file stem -> list of `bundles.Entry` (none by default)."""
        return {}

    def read_janko_record(self, data: dict[str, Any], source: str) -> tuple[Any, str]:
        """One puzzle of a janko.at scrape file (`harness.scrape`: a JSON line's `data`, whose
        `puzzle` value is one of `janko_names`): the puzzle and janko.at's solution in this kind's
        solution format ("" when none). InstanceError naming `source` on bad input."""
        raise InstanceError(source, f"{self.name} puzzles have no reader for janko.at scrape records")

    # --- solving (optional) -------------------------------------------------------------------------

    def rules(self) -> Any:
        """The kind's rules for the solver backends, kept in its own folder (a module meeting a
        protocol of `loopbench_encodings.rules`: `LoopRules` for a loop kind), or None.

        Import it inside this method (`from . import rules`), never at the top: the kinds are read
        without any encoding, and the fingerprints find the module by reading this import. The
        project's older kinds keep theirs in `encodings/rules/<kind>.py`, found first.
        """
        return None


# --- the contract, checked when a kind registers ---------------------------------------------------

def required_members() -> tuple[str, ...]:
    """What every kind must define: its `name` and the abstract methods of `Kind`."""
    return ("name", *sorted(Kind.__abstractmethods__))


def optional_members() -> tuple[str, ...]:
    """What a kind may define: every other public member of `Kind` (each has a default)."""
    own = {n for n in vars(Kind) if not n.startswith("_")}
    return tuple(sorted(own - set(required_members())))


def contract_problems(kind: Any) -> list[str]:
    """What a kind (an instance or a class) lacks of the contract: required members missing or
    still abstract, a `name` that is no non-empty word, and optional members that are not callable
    where `Kind`'s are (a misspelt override is not seen; a method shadowed by a value is)."""
    cls = kind if isinstance(kind, type) else type(kind)
    if not issubclass(cls, Kind):
        return [f"{cls.__module__}.{cls.__qualname__} is not a harness.kinds.Kind subclass"]
    missing = [m for m in sorted(Kind.__abstractmethods__)
               if not callable(got := getattr(cls, m, None)) or getattr(got, "__isabstractmethod__", False)]
    out = [f"no {', '.join(missing)}"] if missing else []
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_-]*", name):
        out.insert(0, f"its `name` must be a lower-case word, found {name!r}")
    out += [f"`{m}` is not callable" for m in optional_members()
            if callable(getattr(Kind, m)) and not callable(getattr(cls, m, None))]
    return out


def require(kind: Any, where: str) -> None:
    """Raise one TypeError naming `where` and everything the kind lacks (`contract_problems`)."""
    problems = contract_problems(kind)
    if problems:
        raise TypeError(f"puzzle kind {where} does not meet the Kind contract: {'; '.join(problems)} "
                        f"(required: {', '.join(required_members())}; docs/PLUGINS.md)")


# --- the registry ---------------------------------------------------------------------------------

@cache
def kinds() -> dict[str, Kind]:
    """Every kind by name: each sub-package of harness.kinds with a KIND, and the plug-ins' kinds
    (entry-point group `loopbench.kinds`, `harness.plugins`)."""
    found: dict[str, tuple[Kind, str]] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        where = f"{__name__}.{info.name}"
        kind = getattr(importlib.import_module(where), "KIND", None)
        if kind is None:
            raise TypeError(f"puzzle kind {where} defines no KIND (an instance of its Kind subclass)")
        require(kind, where)
        if kind.name in found:
            raise RuntimeError(f"two puzzle kinds are named {kind.name!r}")
        found[kind.name] = kind, where
    for name, entry, where in plugins.loaded(plugins.KINDS):
        kind = plugged(name, entry, where)
        require(kind, where)
        if name in found:
            raise RuntimeError(f"two puzzle kinds are named {name!r}: {found[name][1]} and {where}")
        found[name] = kind, where
    return {name: kind for name, (kind, _) in sorted(found.items())}


def plugged(name: str, entry: Any, where: str) -> Kind:
    """What a plug-in's entry point names, as a Kind: a Kind subclass (checked before one is made) or an
    instance of one, whose `name` is the entry point's."""
    if isinstance(entry, type) and issubclass(entry, Kind):
        require(entry, where)  # before making one: say everything it lacks, by name
        entry = entry()
    if not isinstance(entry, Kind):
        raise RuntimeError(f"{where} is not a puzzle kind (a harness.kinds.Kind subclass)")
    if entry.name != name:
        raise RuntimeError(f"{where}: the kind's name is {entry.name!r}, not {name!r}")
    return entry


def names() -> list[str]:
    return list(kinds())


def get(name: str) -> Kind:
    """The kind called `name`; ValueError listing the known ones otherwise."""
    try:
        return kinds()[name]
    except KeyError:
        raise ValueError(f"unknown puzzle kind {name!r} (known: {', '.join(kinds())})") from None


def of(puzzle: Any) -> Kind:
    return get(puzzle.kind)


def check(puzzle: Any, solution: str) -> list[str]:
    """The independent checker's violations for `solution` (empty list: correct)."""
    return of(puzzle).check(puzzle, solution)


def write_text(puzzle: Any) -> str:
    return of(puzzle).write_text(puzzle)


def known_word(puzzle: Any, answer: str) -> str:
    """A known answer ("sat"/"unsat") in the kind's own word (`hamiltonian`), else as it is."""
    return next((word for word, value in of(puzzle).known_answers.items() if value == answer), answer)


def known_in_text(puzzle: Any, text: str) -> str:
    """The known answer ("sat"/"unsat", else "") a `# known: WORD` line before the header gives."""
    for _, line in nonblank_lines(text):
        if not line.startswith("#"):
            break
        match = re.fullmatch(r"#\s*known\s*:\s*(\S+)", line)
        if match:
            return of(puzzle).known_answers.get(match[1].lower(), "")
    return ""


# --- reading any spec: plain text, janko block, URL or game id ---------------------------------------

DEFAULT_KIND = "masyu"  # a first line of only `ROWS COLS` is Masyu (the public Java solver's files)


def size(token: str, what: str, source: str, line: int | None = None, least: int = 1) -> int:
    """A grid dimension (or a header count): a decimal number of at least `least`."""
    if not re.fullmatch(r"[0-9]+", token):
        raise InstanceError(source, f"{what} must be a whole number, found {token!r}", line)
    if int(token) < least:
        raise InstanceError(source, f"{what} must be at least {least}, found {token}", line)
    return int(token)


def nonblank_lines(text: str) -> Lines:
    return [(n, line.strip()) for n, line in enumerate(text.lstrip("\ufeff").splitlines(), 1) if line.strip()]


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
    chosen = _get_for(kind or DEFAULT_KIND, source)
    rows = size(parts[0], chosen.header_words[0], source, n, chosen.header_least[0])
    cols = size(parts[1], chosen.header_words[1], source, n, chosen.header_least[1])
    return chosen.parse_body(rows, cols, lines[1:], source)


def _get_for(kind: str, source: str) -> Kind:
    try:
        return get(kind)
    except ValueError as exc:
        raise InstanceError(source, str(exc)) from None


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
    pid = url_id(spec)
    if pid is not None:
        chosen = kind or next((k.name for k in kinds().values() if pid in k.url_ids), None)
        if chosen is None:
            known = ", ".join(i for k in kinds().values() for i in k.url_ids)
            raise InstanceError(spec, f"unknown puzz.link puzzle type {pid!r} (known: {known})")
        return _get_for(chosen, spec).read_url(spec)
    claims = [k for k in kinds().values() if k.claims_id(spec)]
    if claims:
        return (_get_for(kind, spec) if kind else claims[0]).read_id(spec)
    path = Path(spec)
    if not path.is_file():
        raise InstanceError(spec, "no such file, and not a puzz.link URL or a Tatham game id")
    text = read_file(spec)
    if janko_begin(text.splitlines()) is not None:
        return read_janko(text, spec, kind)[0]
    claimed = [k for k in kinds().values() if k.claims_text(text)]
    if claimed:
        return (_get_for(kind, spec) if kind else claimed[0]).read_claimed(text, spec)
    return read_text(text, spec, kind)


def read_file(spec: str) -> str:
    """A puzzle file's text, gunzipped when it is gzip-compressed (`.hcp.gz`: told by its first bytes).

    Line ends are LF whatever the file has (CRLF, CR), as `Path.read_text` gives them.
    """
    try:
        data = Path(spec).read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        return data.decode().replace("\r\n", "\n").replace("\r", "\n")
    except OSError as exc:  # gzip's BadGzipFile is one
        raise InstanceError(spec, f"cannot read: {exc.strerror or exc}") from None
    except EOFError:
        raise InstanceError(spec, "cannot read: the gzip stream is cut short") from None
    except UnicodeDecodeError:
        raise InstanceError(spec, "not a text file") from None


# --- janko.at blocks: the container is shared, the grids' meaning is each kind's ---------------------

_JANKO_END = re.compile(r"s*end")  # `send` and `ssend` are typos for `end` in real janko files
JANKO_GRIDS = ("problem", "solution")


def janko_begin(lines: Sequence[str]) -> int | None:
    return next((i for i, line in enumerate(lines) if line.strip().lower() == "begin"), None)


def read_janko(text: str, source: str, kind: str | None = None) -> tuple[Any, str]:
    """The first block's puzzle and solution, read by the kind its `puzzle` key names (Masyu if none)."""
    props, _ = parse_janko(text, source)
    named = " ".join(props["puzzle"][1]).lower() if "puzzle" in props else DEFAULT_KIND
    if kind is None:
        found = [k for k in kinds().values() if named in k.janko_names]
        if not found:
            raise InstanceError(source, f"no reader for janko.at puzzle {named!r}", props["puzzle"][0])
        kind = found[0].name
    return _get_for(kind, source).read_janko(text, source)


def parse_janko(text: str, source: str, names: tuple[str, ...] = (),
                label: str = "") -> tuple[dict[str, tuple[int, list[str]]], dict[str, Lines]]:
    """The first `begin … end` block: one-line properties and the grids (`problem`, `solution`).

    Unknown keys and stray lines are kept as properties or skipped (continued `moves`, an extra
    grid row, typoed keys), `send`/`ssend` end a block as `end` does, and a missing `end` is fine.
    Grid rows come back as (line number, the row's text); `problem` must be there. With `names`,
    a `puzzle` key naming anything else is an error: "not a `label` block".
    """
    raw = text.splitlines()
    begin = janko_begin(raw)
    if begin is None:
        raise InstanceError(source, "no `begin` line: not a janko.at block")
    lines = [(n, line.split()) for n, line in enumerate(raw[begin + 1:], begin + 2) if line.strip()]
    props: dict[str, tuple[int, list[str]]] = {}
    grids: dict[str, Lines] = {}
    i = 0
    while i < len(lines):
        n, words = lines[i]
        key = words[0].lower()
        i += 1
        if _JANKO_END.fullmatch(key):
            break
        if key in JANKO_GRIDS:
            rows, cols = _janko_shape(props, key, source, n)
            grids[key] = _janko_grid(lines[i:i + rows], key, rows, cols, source, n)
            i += rows
        else:
            props[key] = (n, words[1:])
    if "problem" not in grids:
        raise InstanceError(source, "the block has no `problem` grid", begin + 1)
    if names and "puzzle" in props and " ".join(props["puzzle"][1]).lower() not in names:
        n, words = props["puzzle"]
        raise InstanceError(source, f"not a {label} block: puzzle {' '.join(words)!r}", n)
    return props, grids


def _janko_shape(props: dict[str, tuple[int, list[str]]], key: str, source: str,
                 line: int) -> tuple[int, int]:
    """The grid's rows and columns from `size N` or `rows R` + `cols C`, which must come first."""
    def value(name: str) -> int:
        n, words = props[name]
        return size(words[0] if words else "", f"`{name}`", source, n)

    if "size" in props:
        return value("size"), value("size")
    if "rows" in props and "cols" in props:
        return value("rows"), value("cols")
    raise InstanceError(source, f"`{key}` comes before `size` (or `rows` and `cols`)", line)


def _janko_grid(lines: list[tuple[int, list[str]]], key: str, rows: int, cols: int, source: str,
                line: int) -> Lines:
    for r, (n, tokens) in enumerate(lines):
        if _JANKO_END.fullmatch(tokens[0].lower()) or tokens[0].lower() in JANKO_GRIDS:
            raise InstanceError(source, f"`{key}` has {r} rows, expected {rows}", n)
        if len(tokens) != cols:
            raise InstanceError(source, f"expected {cols} cells in row {r} of `{key}`, found {len(tokens)}",
                                n)
    if len(lines) < rows:
        raise InstanceError(source, f"`{key}` has {len(lines)} rows, expected {rows}",
                            lines[-1][0] if lines else line)
    return [(n, " ".join(tokens)) for n, tokens in lines]


def row_tokens(lines: Iterable[tuple[int, str]], cols: int, source: str, what: str = "row") -> list[
        tuple[int, list[str]]]:
    """Each body line split into `cols` tokens (blank-separated, or one character each when unspaced)."""
    out = []
    for r, (n, line) in enumerate(lines):
        tokens = line.split()
        if len(tokens) == 1 and cols > 1:
            tokens = list(tokens[0])  # a row written without blanks
        if len(tokens) != cols:
            raise InstanceError(source, f"expected {cols} cells in {what} {r}, found {len(tokens)}", n)
        out.append((n, tokens))
    return out


def save_image(puzzle: Any, path: str | Path, solution: str = "", title: str = "") -> Path:
    """Draw the puzzle (and its solution) into a PNG or SVG file, the format taken from the suffix."""
    import matplotlib.pyplot as plt

    path = Path(path)
    ax = of(puzzle).draw(puzzle, solution, title=title)
    try:
        ax.figure.savefig(path, dpi=150, bbox_inches="tight")
    finally:
        plt.close(ax.figure)
    return path


def grid_rows(lines: Lines, rows: int, cols: int, source: str) -> list[tuple[int, list[str]]]:
    """A body of exactly `rows` lines of `cols` tokens each, as (line number, tokens) pairs."""
    if len(lines) < rows:
        raise InstanceError(source, f"expected {rows} rows of cells, found {len(lines)}",
                            lines[-1][0] if lines else 1)
    if len(lines) > rows:
        raise InstanceError(source, f"expected {rows} rows of cells, found more", lines[rows][0])
    return row_tokens(lines, cols, source)


def trailing_flag(lines: Lines, word: str) -> tuple[Lines, bool]:
    """The body without a last line that is only `word` (`full`), and whether it was there."""
    flagged = bool(lines) and lines[-1][1].lower() == word
    return (lines[:-1] if flagged else lines), flagged
