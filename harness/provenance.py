"""Where a run came from: package versions, the project's commit and whether it was dirty, host, time."""

from __future__ import annotations

import platform
import socket
import subprocess
from datetime import datetime, timezone
from functools import cache
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE_PATHS = ("harness", "encodings", "pyproject.toml", "setup.py")

# Column name -> distribution whose version it records (FORMATS.md: "versions of the solver packages").
PACKAGES = {"ortools_version": "ortools", "pysat_version": "python-sat", "networkx_version": "networkx"}


def now() -> str:
    """A UTC timestamp in ISO 8601, to the millisecond."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


@cache
def versions() -> dict[str, str | None]:
    """Versions of Python and the solver packages in this process (None: not installed)."""
    found: dict[str, str | None] = {"python_version": platform.python_version()}
    for column, dist in PACKAGES.items():
        try:
            found[column] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            found[column] = None
    return found


@cache
def host() -> dict[str, str]:
    return {"host": socket.gethostname()}


@cache
def commit() -> dict[str, str | int | None]:
    """The project's git commit and whether its code differs from it; None outside a checkout (an
    installed copy: the fingerprint then says which code ran).

    Dirty = a file of the code (harness/, encodings/, pyproject.toml, setup.py) is changed or untracked (a
    new encoding is one new file); results, notes and notebooks do not change what a run does.
    """

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout if done.returncode == 0 else None

    top = git("rev-parse", "--show-toplevel")
    if top is None or Path(top.strip()).resolve() != ROOT:  # installed: not this project's checkout
        return {"commit": None, "dirty": None}
    sha = git("rev-parse", "HEAD")
    if sha is None:
        return {"commit": None, "dirty": None}
    status = git("status", "--porcelain", "--untracked-files=all", "--", *CODE_PATHS)
    return {"commit": sha.strip(), "dirty": None if status is None else int(bool(status.strip()))}
