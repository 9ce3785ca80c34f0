"""Instances: a puzzle with its name and source, and how command-line specs turn into them."""

from __future__ import annotations

import glob
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.errors import InstanceError
from harness.puzzles import masyu_formats

INSTANCE_SUFFIXES = (".txt",)


@dataclass(frozen=True)
class Instance:
    """One puzzle to run. `puzzle` is None when reading failed; `error` then says why."""

    name: str
    source: str
    puzzle: Any = None
    error: str = ""
    known_solution: str = ""  # the solution string stored with the instance, if any

    @property
    def kind(self) -> str:
        return self.puzzle.kind if self.puzzle is not None else "masyu"

    @property
    def content_hash(self) -> str:
        """sha256 of the puzzle's canonical text (of the raw source when it did not parse)."""
        text = self.puzzle.canonical_text() if self.puzzle is not None else f"error:{self.source}"
        return hashlib.sha256(text.encode()).hexdigest()


def read_puzzle(spec: str) -> Any:
    """A puzzle from a puzz.link URL, a Tatham Pearl id, or a file (plain text or a janko.at block).

    Raises InstanceError naming the spec (and for files the line) and the problem.
    """
    if masyu_formats.is_url(spec):
        return masyu_formats.read_url(spec)
    if masyu_formats.is_tatham_id(spec):
        return masyu_formats.read_tatham(spec)
    path = Path(spec)
    if not path.is_file():
        raise InstanceError(spec, "no such file, and not a puzz.link URL or a Tatham Pearl id")
    try:
        text = path.read_text()
    except OSError as exc:
        raise InstanceError(spec, f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InstanceError(spec, "not a text file") from None
    if masyu_formats.is_janko_block(text):
        return masyu_formats.read_janko(text, spec)[0]
    return masyu_formats.read_text(text, spec)


def load_file(path: str) -> Instance:
    """An Instance from a file; a bad file becomes an Instance carrying its error."""
    name = Path(path).stem
    try:
        return Instance(name=name, source=path, puzzle=read_puzzle(path))
    except InstanceError as exc:
        return Instance(name=name, source=path, error=str(exc))


def resolve(spec: str) -> list[Instance]:
    """Expand one --instances spec (a bundled set's name, a file, a directory or a glob) into instances.

    Raises FileNotFoundError when the spec names nothing, so the CLI can report it cleanly.
    """
    path = Path(spec)
    from harness import sets  # sets builds on this module, so it is imported only when needed

    if not path.exists() and spec in sets.names():  # a file or folder of that name wins
        return sets.instances(spec)
    if path.is_file():
        files = [path]
    elif path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix in INSTANCE_SUFFIXES)
    else:
        files = sorted(Path(p) for p in glob.glob(spec) if Path(p).is_file())
    if not files:
        raise FileNotFoundError(f"--instances {spec}: no such instance set, file or directory")
    return [load_file(str(p)) for p in files]
