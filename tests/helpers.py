"""Helpers shared by the sweep tests: instance folders to run, and /proc reads for leftover workers."""

from __future__ import annotations

from pathlib import Path


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
