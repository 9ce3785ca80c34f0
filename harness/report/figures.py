"""The report's pictures as SVG files: the analysis plots, the versions plot, puzzles and their answers."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from harness import kinds, sets
from harness.analysis import plots
from harness.analysis.plots.figures import save_figure
from harness.errors import InstanceError
from harness.instances import load_file
from harness.report.data import SetData, Version, unique_slug


def save(fig: Any, path: Path) -> Path:
    """Write a matplotlib figure as SVG without a timestamp (the same data gives the same bytes)."""
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        save_figure(fig, path, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path


def comparison(data: SetData, folder: Path, baseline: str | None = None) -> list[tuple[str, Path]]:
    """The cactus plot, and a scatter plot of each config against the baseline: (caption, file) pairs."""
    out = [("cactus: verified solves sorted by time, and the virtual best",
            save(plots.cactus(data.runs), folder / "cactus.svg"))]
    try:
        base = plots.resolve_baseline(data.configs, baseline)
    except ValueError:  # the baseline is another set's config (build checked it names one somewhere)
        base = plots.resolve_baseline(data.configs, None)
    for a, b in plots.pairs(data.runs, base):
        if a == base:
            name = f"scatter-{unique_slug(a)}-vs-{unique_slug(b)}.svg"  # `x[k=v]`, `x_k_v` slug alike
            out.append((f"{b} against {a}, per instance",
                        save(plots.scatter(data.runs, a, b), folder / name)))
    return out


def published(data: SetData, folder: Path) -> list[tuple[str, Path]]:
    """The side-by-side cactus and scatters (measured against the published virtual best and the same
    solver) of a set shown beside a published table; none without one."""
    from harness.analysis.plots import published as drawn
    from harness.analysis.side_by_side import LABEL

    s = data.beside
    if s is None:
        return []
    out = [(f"cactus, measured beside published ({LABEL})",
            save(drawn.cactus(s, data.runs), folder / "published-cactus.svg"))]
    for mine, theirs in drawn.pairs(s):
        out.append((f"{theirs} ({LABEL}) against {mine}, per instance",
                    save(drawn.scatter(s, data.runs, mine, theirs),
                         folder / f"published-scatter-{unique_slug(mine)}-vs-{unique_slug(theirs)}.svg")))
    return out


def versions_plot(versions: list[Version], folder: Path) -> Path | None:
    """Median verified solve time per code version, one line per configuration; None with no versions."""
    if not versions:
        return None
    import matplotlib.pyplot as plt

    from harness.analysis.plots.figures import log_axis

    fig, ax = plt.subplots(figsize=(7.0, 3.6))
    by_config: dict[str, list[Version]] = {}
    for v in versions:
        by_config.setdefault(v.config, []).append(v)
    for config, mine in sorted(by_config.items()):
        xs = list(range(1, len(mine) + 1))
        ys = [v.median_s for v in mine]
        ax.plot(xs, ys, marker="o", label=config)
        for x, v in zip(xs, mine, strict=True):
            ax.annotate(f"{v.fingerprint[:8]}\n{', '.join(v.commits) or 'no commit'}", (x, v.median_s),
                        textcoords="offset points", xytext=(4, 4), fontsize=6.5, color="0.35")
    ax.set_yscale("log")
    log_axis(ax.yaxis)
    ax.set_xlabel("code version of the configuration (oldest first)")
    ax.set_ylabel("median verified solve CPU time (s)")
    ax.set_xticks(range(1, max(len(m) for m in by_config.values()) + 1))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return save(fig, folder / "versions.svg")


def puzzle_of(source: str, sha256: str) -> tuple[Any, str]:
    """The puzzle a run ran, found again from its source (a bundled set's `collection/name`, a file, an
    address) and checked against the run's content hash: (puzzle, "") or (None, why not)."""
    collection, _, name = source.rpartition("/")
    found = None
    try:
        if collection in sets.names():
            found = next((i for i in _collection(collection) if i.name == name), None)
        elif Path(source).is_file():
            found = load_file(source)
        else:
            from harness.instances import Instance

            found = Instance(name=source, source=source, puzzle=kinds.read_spec(source))
    except (InstanceError, OSError, ValueError) as exc:
        return None, f"cannot read {source}: {exc}"
    if found is None or found.puzzle is None:
        return None, f"{source} is not found here" if found is None else found.error
    if found.content_hash != sha256:
        return None, f"{source} has changed since the run (its content hash differs)"
    return found.puzzle, ""


_COLLECTIONS: dict[str, list] = {}


def _collection(name: str) -> list:
    if name not in _COLLECTIONS:
        _COLLECTIONS[name] = sets.instances(name)
    return _COLLECTIONS[name]


def drawing(puzzle: Any, solution: str, path: Path, title: str = "") -> Path | None:
    """The puzzle (with a solution string, if any) drawn by its kind into an SVG; None if it cannot be."""
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        ax = kinds.of(puzzle).draw(puzzle, solution, title=title)
    except (ValueError, IndexError, KeyError):
        plt.close("all")
        return None  # a malformed answer (a wrong run's) that the kind cannot draw: the page says so
    return save(ax.figure, path)


def answer_name(solution: str) -> str:
    """A file name part for one answer: equal answers of several configs share one drawing."""
    return hashlib.sha256(solution.encode()).hexdigest()[:12]
