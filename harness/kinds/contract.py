"""The contract a puzzle kind meets (`Kind`), and its check when a kind registers (`require`).

A kind is one folder: a package whose `__init__` defines `KIND`, an instance of a `Kind`
subclass. The kind owns everything about its puzzles that is not solving: its model, its formats
(plain text, URLs, ids, janko.at blocks, the compact form of the bundles), its independent
checker, its drawings, its corpus importer, and may keep its solving rules and the demands its
proofs are judged by. The rest of the harness reaches a kind only through this contract.

Every puzzle object has `kind` (the kind's name), `rows` and `cols` (a grid's; a graph's vertex and
edge counts), and a grid kind's its `grid`. Every reader raises InstanceError naming the source
(and the line, for text) on bad input.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from harness.errors import InstanceError

Lines = list[tuple[int, str]]  # (1-based line number, stripped text) of the non-blank lines

# Where `Kind` finds a member the kind's class does not define: a function of the same name in a
# module of the kind's package. The required ones must be found there or defined; an optional one
# falls back to `Kind`'s default when its module lacks the function.
PARTS = {
    "parse_body": "formats", "body_lines": "formats", "check": "check", "render_text": "draw",
    "draw": "draw", "read_url": "formats", "write_url": "formats", "read_janko": "formats",
    "write_compact": "formats", "read_compact": "formats", "stated": "model",
}
REQUIRED = ("name", "parse_body", "body_lines", "check", "render_text", "draw")
# Modules of the package a kind loads by name for judging and reading runs: the fingerprints take
# them in (`harness.fingerprint`); its `rules` only for the encodings that look rules up.
MODULES = ("model", "formats", "check", "draw")


class Kind:
    """One puzzle kind: the contract, the project's kinds' and plug-ins' alike (docs/PLUGINS.md).

    `REQUIRED` names what a kind must provide: `name`, and five methods that the class defines or
    its package's modules do (`PARTS`: `formats.parse_body`, `check.check`, `draw.draw`, ...), so a
    kind whose folder holds those modules writes no one-line forwards. The registry holds one
    instance per kind for the whole process: keep no per-puzzle state on it. Readers get text and
    a `source` to name in errors; writers get a puzzle of this kind. No method may assume another
    was called first. Optional formats raise InstanceError by default, so a kind without URLs says
    so in one line.
    """

    name: ClassVar[str]
    # where the parts are found: set to the package whose `__init__` defines the class (a subclass
    # elsewhere inherits its parent's); a kind defined in a plain module sets it itself
    package: ClassVar[str | None] = None
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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "package" not in vars(cls) and hasattr(sys.modules.get(cls.__module__), "__path__"):
            cls.package = cls.__module__

    def part(self, module: str) -> ModuleType | None:
        """The kind package's `module` (`formats`, `check`, ...), or None when it has none.

        A module that is there but fails to import raises: a bug is never a missing part.
        """
        return _part(type(self).package, module)

    def _found(self, member: str) -> Any:
        """The function `PARTS` names for `member` in the kind's package (AttributeError if none)."""
        module = self.part(PARTS[member])
        found = getattr(module, member, None)
        if not callable(found):
            raise AttributeError(f"puzzle kind {self.name!r} defines no {member} and "
                                 f"{type(self).package}.{PARTS[member]} has none")
        return found

    def _found_or(self, member: str, default: Any) -> Any:
        module = self.part(PARTS[member])
        return getattr(module, member, default) if module is not None else default

    @staticmethod
    def size(rows: int, cols: int) -> int:
        """The puzzle's size on a scaling plot's axis (a grid's cells) from the database's `rows`, `cols`."""
        return rows * cols

    @staticmethod
    def size_text(rows: int, cols: int) -> str:
        """The size in words from the database's `rows`, `cols`: `10x10`; `100 vertices, 150 edges`."""
        return f"{rows}x{cols}"

    # --- plain text: `KIND ROWS COLS`, then the body (required) -----------------------------------

    def parse_body(self, rows: int, cols: int, lines: Lines, source: str) -> Any:
        """The puzzle from the non-blank lines after the header (line numbers for errors)."""
        return self._found("parse_body")(rows, cols, lines, source)

    def body_lines(self, puzzle: Any) -> list[str]:
        """The plain-text body of `puzzle`, one string per line, as `parse_body` reads it back."""
        return self._found("body_lines")(puzzle)

    def write_text(self, puzzle: Any) -> str:
        """The plain-text form with its kind line; also the puzzle's identity in run keys."""
        return "\n".join([f"{self.name} {puzzle.rows} {puzzle.cols}", *self.body_lines(puzzle)]) + "\n"

    # --- judging and drawing (required) ------------------------------------------------------------

    def check(self, puzzle: Any, solution: str) -> list[str]:
        """The independent checker: every rule `solution` breaks, in words; empty means correct.

        Written from the rules alone; shares no constraint code with any encoding. Gets any string
        an encoding returned: a malformed one is a violation to return, never an exception.
        """
        return self._found("check")(puzzle, solution)

    def render_text(self, puzzle: Any, solution: str = "", ascii: bool = False) -> str:
        """The puzzle (and solution) as text for a terminal; ValueError on a malformed solution."""
        return self._found("render_text")(puzzle, solution, ascii)

    def draw(self, puzzle: Any, solution: str = "", ax: Any = None, title: str = "") -> Any:
        """The puzzle (and solution) on a matplotlib Axes (a new figure when `ax` is None); returns it."""
        return self._found("draw")(puzzle, solution, ax, title)

    def describe(self, puzzle: Any) -> str:
        """A few words on the clues, for status lines (`12 pearls`)."""
        return ""

    def shape(self, puzzle: Any) -> str:
        """The puzzle's size for status lines: `size_text` of its rows and cols."""
        return self.size_text(puzzle.rows, puzzle.cols)

    # --- other formats (optional) -----------------------------------------------------------------

    def read_url(self, url: str) -> Any:
        """A puzz.link URL's puzzle (`formats.read_url`)."""
        found = self._found_or("read_url", None)
        if found is None:
            raise InstanceError(url, f"{self.name} puzzles have no URL reader")
        return found(url)

    def write_url(self, puzzle: Any) -> str:
        """The puzzle as a puzz.link URL (`formats.write_url`); ValueError for a kind without URLs."""
        found = self._found_or("write_url", None)
        if found is None:
            raise ValueError(f"{self.name} puzzles have no URL writer")
        return found(puzzle)

    def claims_id(self, spec: str) -> bool:
        """Whether `spec` is a game id of this kind (Simon Tatham's `WxH…:DESC`, say)."""
        return False

    def read_id(self, spec: str) -> Any:
        raise InstanceError(spec, f"{self.name} puzzles have no game-id reader")

    def read_janko(self, text: str, source: str) -> tuple[Any, str]:
        """A janko.at `begin … end` block: the puzzle and its solution string ("" when none)
        (`formats.read_janko`)."""
        found = self._found_or("read_janko", None)
        if found is None:
            raise InstanceError(source, f"{self.name} puzzles have no janko.at reader")
        return found(text, source)

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
        """One line without tabs, for a bundle's `puzzle` column (`formats.write_compact`; without
        it, the text with `/` for newlines)."""
        found = self._found_or("write_compact", None)
        return found(puzzle) if found is not None else "/".join(self.body_lines(puzzle))

    def read_compact(self, text: str, rows: int, cols: int, source: str) -> Any:
        """The puzzle of a bundle's `puzzle` column (`formats.read_compact`; without it, `/` lines)."""
        found = self._found_or("read_compact", None)
        if found is not None:
            return found(text, rows, cols, source)
        lines = [(n, line) for n, line in enumerate(text.split("/"), 1)]
        return self.parse_body(rows, cols, lines, source)

    def import_corpus(self, corpus: Path) -> dict[str, list[Any]]:
        """Bundles to write from the raw corpus: file stem -> list of `bundles.Entry` (the package's
        `corpus.build(corpus)`; none without a `corpus` module)."""
        importers = self.part("corpus")
        return importers.build(corpus) if importers is not None else {}

    def generator(self) -> Any:
        """The kind's puzzle generator (`python -m harness.generate`): its package's `generate`
        module, or None. The module defines `generate(rows, cols, rng, encoding, seed, time_s) ->
        (puzzle, solution)`, a puzzle with exactly one solution, drawing every random choice from
        `rng` (a `random.Random`) and asking `encoding` (by name) through `harness.unique`, and may
        name its `DEFAULT_ENCODING`; or `main(argv)`, a command line of its own."""
        return self.part("generate")

    def read_janko_record(self, data: dict[str, Any], source: str) -> tuple[Any, str]:
        """One puzzle of a janko.at scrape file (`harness.scrape`: a JSON line's `data`, whose
        `puzzle` value is one of `janko_names`): the puzzle and janko.at's solution in this kind's
        solution format ("" when none). InstanceError naming `source` on bad input."""
        raise InstanceError(source, f"{self.name} puzzles have no reader for janko.at scrape records")

    # --- solving and proofs (optional) -------------------------------------------------------------

    def rules(self) -> Any:
        """The kind's rules for the solver backends: its package's `rules` module (meeting a
        protocol of `loopbench_encodings.rules`: `LoopRules` for a loop kind), or None."""
        return self.part("rules")

    def stated(self, puzzle: Any) -> Any:
        """What the kind's model says of every answer, for the proof checker: a
        `harness.kinds.demands.Stated` (edges, demands, answers written and read), or None when it
        states nothing (then no cut in its proofs is judged valid). The package's `model.stated`;
        read off the model and the checker's rules, never off the kind's solving rules."""
        found = self._found_or("stated", None)
        return found(puzzle) if found is not None else None


def _part(package: str | None, module: str) -> ModuleType | None:
    if package is None:
        return None
    name = f"{package}.{module}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise  # the module is there and imports something missing: a bug, not an absent part
        return None


# --- the contract, checked when a kind registers ---------------------------------------------------

def required_members() -> tuple[str, ...]:
    """What every kind must define (or find in its package's modules): its `name` and five methods."""
    return REQUIRED


def optional_members() -> tuple[str, ...]:
    """What a kind may define: every other public member of `Kind` (each has a default)."""
    own = {n for n in vars(Kind) if not n.startswith("_") and n != "part"}
    return tuple(sorted(own - set(REQUIRED)))


def contract_problems(kind: Any) -> list[str]:
    """What a kind (an instance or a class) lacks of the contract: required methods neither defined
    nor found in its package (`PARTS`), a `name` that is no non-empty word, and optional members
    that are not callable where `Kind`'s are (a misspelt override is not seen; a method shadowed by
    a value is)."""
    cls = kind if isinstance(kind, type) else type(kind)
    if not issubclass(cls, Kind):
        return [f"{cls.__module__}.{cls.__qualname__} is not a harness.kinds.Kind subclass"]
    missing = [m for m in sorted(REQUIRED[1:]) if not _provided(cls, m)]
    out = [f"no {', '.join(missing)}"] if missing else []
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_-]*", name):
        out.insert(0, f"its `name` must be a lower-case word, found {name!r}")
    out += [f"`{m}` is not callable" for m in optional_members()
            if callable(getattr(Kind, m)) and not callable(getattr(cls, m, None))]
    return out


def _provided(cls: type, member: str) -> bool:
    """Whether the class defines `member` (not `Kind`'s lookup) or its package's module has it."""
    got = getattr(cls, member, None)
    if callable(got) and got is not getattr(Kind, member):
        return True
    return callable(getattr(_part(cls.package, PARTS[member]), member, None))


def require(kind: Any, where: str) -> None:
    """Raise one TypeError naming `where` and everything the kind lacks (`contract_problems`)."""
    problems = contract_problems(kind)
    if problems:
        raise TypeError(f"puzzle kind {where} does not meet the Kind contract: {'; '.join(problems)} "
                        f"(required: {', '.join(REQUIRED)}, each defined or found as "
                        f"`<package>.formats|check|draw.<method>`; docs/PLUGINS.md)")


def modules_of(kind: Kind) -> list[str]:
    """The modules the kind's package holds that `Kind` loads by name (`MODULES`): the fingerprints'
    reading of imports cannot see these, so they are named here."""
    package = type(kind).package
    if package is None:
        return []
    return [f"{package}.{m}" for m in MODULES if _part(package, m) is not None]
