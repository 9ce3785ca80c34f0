"""Replay a solve from its recorded steps: as text, as its final edges, or a GIF (`python -m harness.replay`).

A step is [rule, value, edges, hypothesis]: `value` 1 puts the edges (numbers into Grid.edges) on the
loop, 0 rules them out, -1 marks a contradiction found among them; `hypothesis` 1 means inside a
one-level trial, which an "assume" step opens and a "rollback" step closes, undoing all it set.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from harness import kinds
from harness.grid import Edge, solution_string
from harness.schema import DEFAULT_DB
from harness.storefile import StoreError

ROLLBACK = "rollback"
LOOP, TRIAL, CONFLICT, FOCUS, RULED_OUT = "#1f3f77", "#e8731a", "#d62728", "#f2c200", "0.6"


def replay(steps: Sequence[list]) -> Iterator[tuple[int, dict[int, int], dict[int, int]]]:
    """After each step: its index, the settled edges and those of the open trial (edge -> 1 on, 0 off).

    The dicts are live (updated in place by the next step): copy them to keep them.
    """
    settled: dict[int, int] = {}
    trial: dict[int, int] = {}
    for i, (rule, value, edges, hypothesis) in enumerate(steps):
        if rule == ROLLBACK:
            trial.clear()
        elif value >= 0:
            (trial if hypothesis else settled).update(dict.fromkeys(edges, value))
        yield i, settled, trial


def final(puzzle: Any, steps: Sequence[list]) -> str:
    """The loop-style solution string of the edges the steps leave settled on."""
    settled: dict[int, int] = {}
    for _, settled, _ in replay(steps):  # noqa: B007 - the last state is the one wanted
        pass
    return solution_string(puzzle.grid, [puzzle.grid.edges[k] for k, v in settled.items() if v == 1])


def _what(rule: str, value: int) -> str:
    return "undo the trial" if rule == ROLLBACK else {1: "on", 0: "off", -1: "contradiction"}[value]


def _edge(e: Edge) -> str:
    (r1, c1), (r2, c2) = e
    return f"{r1},{c1}-{r2},{c2}"


def text(puzzle: Any, steps: Sequence[list]) -> list[str]:
    """One line per step: its number on the main line (`?` inside a trial), rule, on/off and edges."""
    lines, number = [], 0
    for rule, value, edges, hypothesis in steps:
        what = _what(rule, value)
        number += not hypothesis
        head = f"{number:5d}" if not hypothesis else "    ?"
        named = " ".join(_edge(puzzle.grid.edges[k]) for k in edges) if rule != ROLLBACK else ""
        lines.append(f"{head} {rule:<16} {what:<4} {named}".rstrip())
    return lines


def _writer(fps: float) -> Any:
    """matplotlib's PillowWriter, with each frame mapped to one fixed palette as it is grabbed.

    Pillow would otherwise pick a palette per frame when it writes the GIF (median cut: ~20 times
    slower, and the colours flicker); a frame holds only our few colours and their blends with white.
    """
    from matplotlib.animation import PillowWriter
    from matplotlib.colors import to_rgb
    from PIL import Image

    colours = ["white", "black", "0.35", "0.85", "0.5", LOOP, TRIAL, CONFLICT, FOCUS, RULED_OUT, "#f5d26e",
               "#e4a4a2"]
    palette = []
    for colour in colours:
        rgb = to_rgb(colour)
        palette += [round(255 * (1 - t + t * x)) for t in (1, 0.75, 0.5, 0.25) for x in rgb]
    swatch = Image.new("P", (1, 1))
    swatch.putpalette(palette + [255] * (768 - len(palette)))

    class Writer(PillowWriter):
        def grab_frame(self, **savefig_kwargs: Any) -> None:
            super().grab_frame(**savefig_kwargs)
            self._frames[-1] = self._frames[-1].convert("RGB").quantize(palette=swatch, dither=0)

    return Writer(fps=fps)


def animate(puzzle: Any, steps: Sequence[list], out: str | Path, title: str = "", fps: float = 6,
            max_frames: int = 300) -> Path:
    """Write a GIF: one frame per step (every k-th, and every contradiction, past `max_frames` steps).

    Settled lines are solid, edges ruled out are grey crosses; a trial's edges are orange and dashed,
    and vanish at its rollback; the step's own edges are underlined yellow (red: a contradiction).
    """
    from matplotlib.animation import FuncAnimation
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure

    grid = puzzle.grid
    cell_in = min(0.45, 9 / max(grid.rows, grid.cols))
    fig = Figure(figsize=(grid.cols * cell_in + 0.4, grid.rows * cell_in + 0.9))
    FigureCanvasAgg(fig)
    ax = kinds.of(puzzle).draw(puzzle, "", ax=fig.add_subplot(), title=title)
    fig.subplots_adjust(left=0.04, right=0.96, bottom=0.09, top=0.92)
    bbox = ax.get_window_extent().transformed(fig.dpi_scale_trans.inverted())
    width = max(1.5, 0.16 * 72 * min(bbox.width / grid.cols, bbox.height / grid.rows))
    segment = [[(a[1], a[0]), (b[1], b[0])] for a, b in grid.edges]
    middle = [((a[1] + b[1]) / 2, (a[0] + b[0]) / 2) for a, b in grid.edges]
    focus = ax.add_collection(LineCollection([], linewidths=2.2 * width, alpha=0.45, zorder=1.5))
    lines = ax.add_collection(LineCollection([], colors=LOOP, linewidths=width, capstyle="round", zorder=2))
    trial = ax.add_collection(LineCollection([], colors=TRIAL, linewidths=0.8 * width, linestyles=(0, (2, 1)),
                                             zorder=2.5))
    crosses = ax.scatter([], [], marker="x", s=width ** 2, c=RULED_OUT, linewidths=1, zorder=1)
    trial_crosses = ax.scatter([], [], marker="x", s=width ** 2, c=TRIAL, linewidths=1, zorder=1)
    caption = fig.text(0.5, 0.02, "", ha="center", va="bottom", fontsize=8)

    every = max(1, math.ceil(len(steps) / max_frames))
    shots = [(-1, {}, {})]
    for i, settled, tried in replay(steps):
        if i % every == every - 1 or i == len(steps) - 1 or steps[i][1] < 0:  # contradictions always show
            shots.append((i, dict(settled), dict(tried)))
    shots += [shots[-1]] * round(2 * fps)  # hold the end for two seconds

    def points(edges: list[int]) -> Any:
        return [middle[k] for k in edges] or [(math.nan, math.nan)]

    def show(n: int) -> list:
        i, settled, tried = shots[n]
        lines.set_segments([segment[k] for k, v in settled.items() if v == 1])
        trial.set_segments([segment[k] for k, v in tried.items() if v == 1])
        crosses.set_offsets(points([k for k, v in settled.items() if v == 0]))
        trial_crosses.set_offsets(points([k for k, v in tried.items() if v == 0]))
        if i < 0:
            focus.set_segments([])
            caption.set_text(f"{len(steps)} steps")
            return [lines, trial, crosses, trial_crosses, focus, caption]
        rule, value, edges, hypothesis = steps[i]
        focus.set_segments([segment[k] for k in edges] if rule != ROLLBACK else [])
        focus.set_color(CONFLICT if value < 0 else FOCUS)
        where = "trial: " if hypothesis else ""
        what = _what(rule, value)
        caption.set_text(f"step {i + 1}/{len(steps)}  {where}{rule} {what} ({len(edges)} edges)")
        return [lines, trial, crosses, trial_crosses, focus, caption]

    out = Path(out)
    FuncAnimation(fig, show, frames=len(shots), blit=False).save(out, writer=_writer(fps), dpi=90)
    return out


def main(argv: list[str] | None = None) -> int:
    from harness.run import steps as step_files

    p = argparse.ArgumentParser(prog="python -m harness.replay", description=__doc__.splitlines()[0])
    p.add_argument("run_key", metavar="RUN_KEY", help="the run's key (a unique prefix will do)")
    p.add_argument("--db", default=str(DEFAULT_DB), help="the results database (default: %(default)s)")
    p.add_argument("--out", metavar="FILE.gif", help="write the animation here")
    p.add_argument("--steps", action="store_true", help="print the steps as text")
    p.add_argument("--fps", type=float, default=6, help="frames per second of the animation (default: 6)")
    args = p.parse_args(argv)
    if not (args.out or args.steps):
        p.error("nothing to do: give --out FILE.gif, --steps or both")
    try:
        row, puzzle, steps = step_files.load(args.db, args.run_key)
    except (LookupError, StoreError) as exc:  # StoreError: a damaged file, a newer schema
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.steps:
        print("\n".join(text(puzzle, steps)))
    if args.out:
        title = f"{row['instance']} — {row['encoding']}: {row['status']}"
        print(f"wrote {animate(puzzle, steps, args.out, title, args.fps)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
