"""Puzzle generators (`python -m harness.generate KIND --size RxC --count N --seed S --out DIR`).

A kind has a generator when its package has a `generate` module (`Kind.generator()`, a plug-in
kind's too) defining `generate(rows, cols, rng, encoding, seed, time_s) -> (puzzle, solution)`: a
puzzle with exactly one solution, and that solution, drawing every random choice from `rng` (a
`random.Random`) and asking `encoding` (by name; one with `excludes`; the module may name its own
`DEFAULT_ENCODING`, else cpsat) through `harness.unique`. The same arguments give the same files:
puzzle i of size RxC draws from its own `Random("KIND RxC seed S #i")`, so asking for more puzzles
or other sizes leaves the earlier ones as they were.

A kind whose generator module defines `main(argv)` takes its own arguments instead
(`python -m harness.generate graph --family cubic --size 100 ...`: see its `--help`).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from harness import kinds
from harness.bundles import Entry, write_bundle
from harness.encoding import cpu_time

DEFAULT_ENCODING = "cpsat"


def generator(kind: str) -> Callable[..., tuple[Any, str]]:
    """The `generate` function of a kind; ValueError naming the kinds that have one."""
    module = kinds.get(kind).generator()  # an unknown kind fails here, listing the known ones
    if module is None:
        known = ", ".join(with_generator())
        raise ValueError(f"no generator for {kind} puzzles (kinds with one: {known})")
    if not callable(getattr(module, "generate", None)):
        usage = f"python -m harness.generate {kind} --help"
        raise ValueError(f"the {kind} generator has its own arguments ({usage})")
    return module.generate


def default_encoding(kind: str) -> str:
    """The encoding a kind's generator asks unless told: its module's DEFAULT_ENCODING, else cpsat."""
    generator(kind)  # a kind without one fails here
    return getattr(kinds.get(kind).generator(), "DEFAULT_ENCODING", DEFAULT_ENCODING)


def with_generator() -> list[str]:
    return [name for name, kind in kinds.kinds().items() if kind.generator() is not None]


def name_of(kind: str, rows: int, cols: int, seed: int, index: int) -> str:
    return f"{kind}-{rows}x{cols}-s{seed}-{index:03d}"


def generate(kind: str, sizes: Sequence[tuple[int, int]], count: int, seed: int,
             encoding: str | None = None, time_s: float = 60.0,
             progress: Callable[[Entry, float], None] | None = None) -> list[Entry]:
    """`count` puzzles of each size, each with its one solution, checked by the independent checker."""
    make = generator(kind)
    encoding = encoding or default_encoding(kind)
    entries = []
    for rows, cols in sizes:
        for i in range(count):
            start = cpu_time(children=True)  # CPU, forked checks too: a busy machine adds wall time
            rng = random.Random(f"{kind} {rows}x{cols} seed {seed} #{i}")
            puzzle, solution = make(rows, cols, rng, encoding=encoding, seed=seed, time_s=time_s)
            problems = kinds.check(puzzle, solution)
            if problems:
                raise RuntimeError(f"the generator's own solution is wrong: {problems[0]}")
            entry = Entry(name_of(kind, rows, cols, seed, i), puzzle, solution,
                          {"seed": str(seed), "encoding": encoding})
            entries.append(entry)
            if progress:
                progress(entry, cpu_time(children=True) - start)
    return entries


def write(entries: Sequence[Entry], out: Path) -> list[Path]:
    """Each puzzle as `out/NAME.txt` (plain text) and every solution in `out/solutions.tsv`."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for e in entries:
        path = out / f"{e.name}.txt"
        path.write_text(kinds.write_text(e.puzzle))
        paths.append(path)
    lines = "".join(f"{e.name}\t{e.solution}\n" for e in entries)
    (out / "solutions.tsv").write_text("name\tsolution\n" + lines)
    return paths


def size_arg(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"([0-9]+)x([0-9]+)", text)
    if not match or int(match[1]) < 1 or int(match[2]) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size RxC (e.g. 10x10)")
    return int(match[1]), int(match[2])


def own_main(kind: str) -> Callable[[Sequence[str]], int] | None:
    """The generator module's own command line, for a kind that defines `main(argv)`."""
    found = kinds.kinds().get(kind)
    return getattr(found.generator() if found is not None else None, "main", None)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    own = own_main(argv[0]) if argv and not argv[0].startswith("-") else None
    if own is not None:
        return own(argv[1:])
    p = argparse.ArgumentParser(prog="python -m harness.generate", description=__doc__.splitlines()[0])
    p.add_argument("kind", help="the puzzle kind (with a generator: " + ", ".join(with_generator()) + ")")
    p.add_argument("--size", type=size_arg, nargs="+", action="extend", required=True, metavar="RxC",
                   help="grid sizes (several allowed)")
    p.add_argument("--count", type=int, default=1, metavar="N", help="puzzles per size (default 1)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for the NAME.txt files and solutions.tsv")
    p.add_argument("--bundle", type=Path, metavar="FILE",
                   help="also write the puzzles and solutions as a bundle (FILE.tsv.gz, for instances/)")
    p.add_argument("--encoding", default=None,
                   help=f"the encoding that checks uniqueness (default: the kind's, else {DEFAULT_ENCODING};"
                        " masyu: sat)")
    p.add_argument("--time-limit", type=float, default=60.0, metavar="S", help="per solver call (default 60)")
    args = p.parse_args(argv)
    if args.count < 1:
        p.error("--count must be at least 1")

    times: dict[str, list[float]] = {}

    def report(entry: Entry, seconds: float) -> None:
        size = f"{entry.puzzle.rows}x{entry.puzzle.cols}"
        times.setdefault(size, []).append(seconds)
        clues = kinds.of(entry.puzzle).describe(entry.puzzle)
        print(f"{entry.name}: {clues}; {seconds:.2f} s CPU", file=sys.stderr)

    try:
        entries = generate(args.kind, args.size, args.count, args.seed, args.encoding, args.time_limit,
                           report)
    except ValueError as exc:
        print(f"harness.generate: error: {exc}", file=sys.stderr)
        return 2
    write(entries, args.out)
    if args.bundle:
        write_bundle(args.bundle, entries)
    for size, spent in times.items():
        print(f"{size}: {len(spent)} puzzles, {statistics.median(spent):.2f} s median, "
              f"{max(spent):.2f} s max CPU per puzzle")
    print(f"wrote {len(entries)} puzzles to {args.out}" + (f" and {args.bundle}" if args.bundle else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
