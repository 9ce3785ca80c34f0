"""Helpers shared by the tests: bundled instances, instance folders to run, /proc reads, the raw corpus."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest

# The raw collections the bundled sets are built from: not shipped with the repository. Only tests
# of the importers that read them (harness.kinds.*.corpus, `harness.sets build`) may need them.
BESIDE = Path(__file__).resolve().parents[2] / "shared" / "corpus"  # where a CI clone finds it, if anywhere
RAW_CORPUS = Path(os.environ.get("LOOPBENCH_CORPUS") or BESIDE)
needs_raw_corpus = pytest.mark.skipif(
    not RAW_CORPUS.is_dir(),
    reason=f"raw-corpus importer test: reads the raw collections in {RAW_CORPUS} (set LOOPBENCH_CORPUS), "
           "which the repository does not ship; the bundled sets built from them are tested without it",
)


@cache
def _bundled(collection: str) -> dict:
    from harness import sets

    return {instance.name: instance for instance in sets.instances(collection)}


def bundled(name: str, collection: str = "masyu-janko-java"):
    """A bundled instance by name, from a collection (default janko-java: the public Java solver's files)."""
    return _bundled(collection)[name]


def write_instances(folder: Path, sizes) -> Path:
    """A folder of empty Masyu puzzles (no pearls), one per (rows, cols), named emptyRxC.txt."""
    folder.mkdir(exist_ok=True)
    for rows, cols in sizes:
        body = "\n".join(" ".join("-" * cols) for _ in range(rows))
        (folder / f"empty{rows}x{cols}.txt").write_text(f"{rows} {cols}\n{body}\n")
    return folder


def children(pid: int) -> list[int]:
    """The live processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
        except (OSError, IndexError):
            pass
    return found


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def alive(pid: int) -> bool:
    """Running or sleeping (a zombie is dead)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
