"""Solve one puzzle in this process with one encoding, and draw the answer (`python -m harness.solve`)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from harness import kinds, registry
from harness.encoding import Limits, parse_options
from harness.errors import InstanceError
from harness.extra import read_extra, row_extra
from harness.instances import Instance, instance_name, load_scrape
from harness.outcomes import Status
from harness.run.execute import execute
from harness.run.limits import MAX_SECONDS, refused
from harness.scrape import is_scrape

EXIT_SOLVED, EXIT_UNSOLVED, EXIT_BAD_INPUT = 0, 1, 2
DEFAULT_ENCODING = "circuit"
UNIQUE_WORDS = {1: ", the only solution", 0: ", not the only solution", None: ", uniqueness unknown"}

DESCRIPTION = """\
Solve one puzzle with one encoding, in this process, and print it with its answer.
The answer is judged by the independent checker before it is called solved.

PUZZLE is a file path (plain text with a `KIND ROWS COLS` line, or a janko.at block), a puzz.link
URL (https://puzz.link/p?mashu/6/6/1063000i3000, https://puzz.link/p?slither/5/5/cbcbcddad) or a
Simon Tatham game id (Pearl 6x6:bWdBbWjBcWj, Loopy 5x5t0:…). The URL's or id's type, or the
file's kind line, says the puzzle kind; --kind overrides it.
"""
EPILOG = """\
exit status: 0 solved (a solution the checker accepted); 1 not solved (unsat, time limit reached,
unknown, or a wrong solution); 2 bad input (unreadable puzzle, unknown encoding or option).
"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m harness.solve", description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("puzzle", metavar="PUZZLE", help="file path, puzz.link URL or Tatham game id")
    p.add_argument("--kind", choices=kinds.names(), help="the puzzle kind, over what the input says")
    p.add_argument("--encoding", "-e", default=DEFAULT_ENCODING,
                   help=f"encoding or preset, NAME[:KEY=VALUE...] (default: {DEFAULT_ENCODING})")
    p.add_argument("--option", "-o", action="append", default=[], metavar="K=V",
                   help="an encoding option; repeat for several (e.g. -o cuts=cutset)")
    p.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                   help="the encoding's time budget in seconds (default: 60)")
    p.add_argument("--seed", type=int, default=0, help="random seed passed to the encoding (default: 0)")
    p.add_argument("--unique", action="store_true",
                   help="once solved, ask again with the solution excluded (same time limit): "
                        "is it the only one?")
    p.add_argument("--proof", metavar="DIR",
                   help="log a DRAT proof (encoding option proof=true) and check it; for an unsat answer "
                        "write DIR/NAME.cnf and DIR/NAME.drat (with --unique: DIR/NAME.unique.cnf, .drat)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print status, solution and statistics as JSON")
    out.add_argument("--ascii", action="store_true", help="draw with ASCII instead of box-drawing characters")
    p.add_argument("--png", metavar="FILE", help="also draw the puzzle into FILE (.png, or .svg by suffix)")
    p.add_argument("--tour", metavar="OUT",
                   help="write the checked answer as a TSPLIB tour file (graph puzzles)")
    p.add_argument("--animate", metavar="FILE.gif",
                   help="write an animation of the solve from its recorded steps (inference records them)")
    p.add_argument("--steps", action="store_true",
                   help="print the recorded steps as text (with --json: in the JSON)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        options = parse_options(args.option)
        if args.proof:
            options["proof"] = "true"
        if why := refused("--time-limit", args.time_limit, MAX_SECONDS):
            raise ValueError(why)
        instance = load(args.puzzle, args.kind)
        # resolved once, for this puzzle's kind: unknown encodings and options, and options that do nothing
        # on this kind, fail here in one line
        found = registry.entry(args.encoding)
        found = replace(found, given={**found.given, **options})
        resolved = found.resolve(instance.kind if instance.puzzle is not None else None).options
        registry.encodings()[found.encoding].made(resolved)  # what the encoding itself refuses, here too
    except (InstanceError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        limits = Limits(time_s=args.time_limit)
        row = execute(instance, found.encoding, resolved, args.seed, limits, unique=args.unique,
                      proof_dir=args.proof, resolved=True)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    solved = row["status"] == Status.SOLVED and row.get("verified") == 1
    drawn = row.get("solution") or partial(row)
    if args.png:
        title = f"{instance.name} — {args.encoding}: {row['status']}"
        title += " (partial)" if drawn and not row.get("solution") else ""
        try:
            kinds.save_image(instance.puzzle, args.png, drawn, title=title)
        except ValueError:  # a solution of the wrong shape cannot be drawn; draw the bare puzzle
            kinds.save_image(instance.puzzle, args.png, "", title=title)
    if args.json:
        print(json.dumps(as_json(row, steps=args.steps), indent=2))
    else:
        print(report(instance, row, ascii=args.ascii or not _can_print_box()))
    if (args.steps and not args.json) or args.animate:  # with --json the steps are in the JSON
        replay_steps(instance, row, args.steps and not args.json, args.animate)
    if args.tour:
        problem = write_tour(instance, row, args.tour)
        if problem:  # no answer to write is a failed solve; a kind without tours, a bad request
            print(problem, file=sys.stderr)
            return EXIT_BAD_INPUT if solved else EXIT_UNSOLVED
    return EXIT_SOLVED if solved else EXIT_UNSOLVED


def write_tour(instance: Instance, row: dict[str, Any], path: str) -> str:
    """Write the run's checked answer as a TSPLIB tour to `path`; "" when written, else the one-line error.

    A line on stderr says where it went.
    """
    kind = kinds.of(instance.puzzle)
    if not (row["status"] == Status.SOLVED and row.get("verified") == 1):
        return f"error: --tour: no checked answer to write ({row['status']})"
    try:
        text = kind.write_tour(instance.puzzle, row["solution"], instance.name)
    except ValueError as exc:
        return f"error: --tour: {exc}"
    Path(path).write_text(text)
    print(f"wrote the tour to {path}", file=sys.stderr)
    return ""


def partial(row: dict[str, Any]) -> str:
    """The edges an encoding decided before it stopped without an answer (stats["partial"]), or ""."""
    return row_extra(row).get("partial", "")


def replay_steps(instance: Instance, row: dict[str, Any], text: bool, gif: str | None) -> None:
    """Print the run's steps, or write their animation; a note on stderr if the encoding kept none."""
    from harness import replay

    steps = row_extra(row).get("steps")
    if steps is None:
        print(f"note: encoding {row['encoding']!r} records no steps to replay", file=sys.stderr)
        return
    if text:
        print("\n".join(replay.text(instance.puzzle, steps)))
    if gif:
        title = f"{instance.name} — {row['encoding']}: {row['status']}"
        print(f"wrote {replay.animate(instance.puzzle, steps, gif, title)}", file=sys.stderr)


def load(spec: str, kind: str | None = None) -> Instance:
    """An Instance from a path, URL or id (a janko.at scrape file: `FILE#NAME`, or FILE for its
    first puzzle); raises InstanceError when it cannot be read."""
    file, _, wanted = spec.partition("#")
    if is_scrape(file) and Path(file).is_file():
        return pick(load_scrape(file, kind), file, wanted)
    puzzle = kinds.read_spec(spec, kind)
    name = instance_name(spec) if Path(spec).is_file() else (spec if len(spec) <= 48 else spec[:47] + "…")
    return Instance(name=name, source=spec, puzzle=puzzle)


def pick(found: list[Instance], file: str, wanted: str) -> Instance:
    """The puzzle named `wanted` (`Geradeweg-001` or `001`) of a scrape file, else its first one."""
    if wanted:
        chosen = [i for i in found if wanted in (i.name, i.name.rpartition("-")[2])]
        if not chosen:
            raise InstanceError(file, f"no puzzle named {wanted!r} (the first is {found[0].name})")
    else:
        chosen = found
        if len(found) > 1:
            print(f"note: {file} holds {len(found)} puzzles; solving the first, {found[0].name} "
                  f"(name one as FILE#NAME)", file=sys.stderr)
    if chosen[0].error:  # already one line, `FILE:LINE: problem`
        raise ValueError(chosen[0].error)
    return chosen[0]


def as_json(row: dict[str, Any], steps: bool = False) -> dict[str, Any]:
    """The run's row with the `extra` statistics unpacked into a nested object.

    A recorded step list (thousands of entries for inference) is replaced by its length,
    `step_count`, unless `steps` asks for it.
    """
    out = dict(row)
    out["extra"] = read_extra(out.get("extra"))
    out["options"] = json.loads(out.get("options") or "{}")
    if not steps and isinstance(out["extra"].get("steps"), list):
        out["extra"]["step_count"] = len(out["extra"].pop("steps"))
    return out


def report(instance: Instance, row: dict[str, Any], ascii: bool = False) -> str:
    """A status line, the statistics, and the puzzle drawn with the loop if there is one."""
    puzzle = instance.puzzle
    kind = kinds.of(puzzle)
    clues = kind.describe(puzzle)
    head = f"{instance.name}: {kind.name} {kind.shape(puzzle)}{', ' + clues if clues else ''}; "
    head += f"{row['encoding']}: "
    head += row["status"]
    shown = row.get("solution") or partial(row)
    if shown and not row.get("solution"):
        head += " (partial: the edges it held when it stopped)"
    if "solve_s" in row:
        head += f" in {_seconds(row['solve_s'])}"
        if row.get("solve_cpu_s") is not None:
            head += f" ({_seconds(row['solve_cpu_s'])} CPU)"
    if row["status"] == Status.SOLVED:
        head += " (checked)"
    if "unique" in row:
        head += UNIQUE_WORDS[row["unique"]]
    lines = [head]
    if row.get("detail"):
        lines.append(f"  {row['detail']}")
    extra = row_extra(row)
    for prefix, what in (("", "unsat"), ("unique_", "no second solution")):
        if prefix + "proof" in extra:
            lemmas, took = extra.get(prefix + "proof_lemmas", 0), extra.get(prefix + "proof_check_cpu_s", 0.0)
            lines.append(f"  proof of {what}: {extra[prefix + 'proof']} ({lemmas} lemmas, "
                         f"checked in {_seconds(took)} CPU)")
    stats = [f"{k} {row[k]}" for k in ("iterations", "cuts", "conflicts") if row.get(k) is not None]
    if row.get("build_s") is not None:
        stats.append(f"model built in {_seconds(row['build_s'])} CPU")
    if stats:
        lines.append("  " + ", ".join(stats))
    lines.append("")
    try:
        lines.append(kind.render_text(puzzle, shown, ascii=ascii))
    except ValueError:  # a solution of the wrong shape cannot be drawn; show the bare puzzle
        lines.append(kind.render_text(puzzle, "", ascii=ascii))
    return "\n".join(lines).rstrip("\n")


def _seconds(t: float) -> str:
    return f"{t * 1000:.1f} ms" if t < 1 else f"{t:.2f} s"


def _can_print_box() -> bool:
    """Box-drawing output needs a stdout that can encode it (not so on some consoles)."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "●○─┼·".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
