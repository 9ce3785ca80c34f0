"""Instances: a puzzle with its name, source and known solution, read from a file."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from harness import kinds
from harness.errors import InstanceError

INSTANCE_SUFFIXES = (".txt", ".hcp", ".col", ".dimacs")  # each also gzip-compressed: `.hcp.gz`


def is_instance_file(path: Path) -> bool:
    """Whether a folder's file is a puzzle file by its name: an instance suffix, perhaps then `.gz`."""
    name = path.name.lower()
    return name.endswith(tuple(INSTANCE_SUFFIXES + tuple(s + ".gz" for s in INSTANCE_SUFFIXES)))


def instance_name(path: str) -> str:
    """A file's instance name: its name without the suffix, and without `.gz` before it (`graph1.hcp.gz`)."""
    p = Path(path)
    return (p.with_suffix("") if p.suffix.lower() == ".gz" else p).stem


@dataclass(frozen=True)
class Instance:
    """One puzzle to run. `puzzle` is None when reading failed; `error` then says why."""

    name: str
    source: str
    puzzle: Any = None
    error: str = ""
    known_solution: str = ""  # the solution string stored with the instance, if any
    known_answer: str = ""  # "sat" / "unsat" when known without a solution (a theorem), else ""

    @property
    def kind(self) -> str | None:
        return self.puzzle.kind if self.puzzle is not None else None

    # Cached: a sweep's plan reads both once per run (a puzzle's text is written anew on each read), and
    # an Instance's puzzle is not changed after it is read.
    @cached_property
    def text(self) -> str | None:
        """The puzzle's plain text with its kind line: what travels to workers, and its identity."""
        return kinds.write_text(self.puzzle) if self.puzzle is not None else None

    @cached_property
    def content_hash(self) -> str:
        """sha256 of the puzzle's plain text, kind line included (of the source when it did not parse)."""
        text = self.text if self.puzzle is not None else f"error:{self.source}"
        return hashlib.sha256(text.encode()).hexdigest()


def repeated(instances: list[Instance]) -> list[tuple[Instance, Instance]]:
    """Each instance whose puzzle repeats an earlier one's content (another file or line), with the
    earlier one that stands for it: a run key hashes the content, so a sweep runs such a puzzle once."""
    first: dict[str, Instance] = {}
    out = []
    for instance in instances:
        if instance.puzzle is None:
            continue
        kept = first.setdefault(instance.content_hash, instance)
        if kept.source != instance.source:
            out.append((instance, kept))
    return out


def load_file(path: str, kind: str | None = None) -> Instance:
    """An Instance from a file; a bad file becomes an Instance carrying its error.

    A `# known: WORD` line before a plain-text header gives the known answer (`hamiltonian`).
    """
    name = instance_name(path)
    try:
        puzzle = kinds.read_spec(path, kind)
    except InstanceError as exc:
        return Instance(name=name, source=path, error=str(exc))
    known = kinds.known_in_text(puzzle, kinds.read_file(path))
    return Instance(name=name, source=path, puzzle=puzzle, known_answer=known)


def load_scrape(path: str, kind: str | None = None) -> list[Instance]:
    """The puzzles of a janko.at scrape file (`harness.scrape`), each with janko.at's solution
    as its known one; a line that cannot be read is an Instance carrying its one-line error."""
    from harness import scrape

    try:
        records = scrape.read(path, kind)
    except InstanceError as exc:
        return [Instance(name=Path(path).name, source=path, error=str(exc))]
    return [Instance(name=r.name, source=r.source, puzzle=r.puzzle, error=r.error, known_solution=r.solution)
            for r in records]
