"""The `slither-loopy` bundle: Slitherlink puzzles made by Simon Tatham's Loopy from fixed random seeds.

Each puzzle is what `sgt-loopy --generate 1 'WxWt0dD#loopbench-K'` prints (Debian's sgt-puzzles, whose
Loopy makes the same puzzle from the same random-seed id on any machine with the same version):
square grids of every size in SIZES, each of Loopy's four difficulties (easy, normal, tricky, hard:
the deductions its own solver needs), two seeds each. Loopy makes only puzzles with one answer.
The bundle keeps no solution (Loopy prints none; one from an encoding here would judge that encoding
by itself); the `tatham` column holds the random-seed id, which Loopy's Game > Random Seed reads.
Run from the repository root (needs the `sgt-loopy` program: `apt-get install sgt-puzzles`):
`python -m harness.kinds.slitherlink.loopy --out instances/slitherlink/loopy.tsv.gz`.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from harness.bundles import Entry, write_bundle
from harness.kinds.slitherlink.formats import read_loopy

SIZES = (7, 10, 15, 20, 25, 30, 40, 50, 60)
DIFFICULTIES = {"e": "easy", "n": "normal", "t": "tricky", "h": "hard"}  # Loopy's `d` letters
SEEDS = (1, 2)
PROGRAM = "sgt-loopy"


def random_seed_ids() -> list[tuple[str, str, str]]:
    """(name, difficulty, Loopy's random-seed id) for every puzzle of the bundle, in its order."""
    return [(f"loopy-{n}x{n}-{word}-{k}", word, f"{n}x{n}t0d{letter}#loopbench-{k}")
            for n in SIZES for letter, word in DIFFICULTIES.items() for k in SEEDS]


def generate(seed_id: str, program: str) -> str:
    """The descriptive game id Loopy makes from a random-seed id."""
    done = subprocess.run([program, "--generate", "1", seed_id], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the bundle to write (FILE.tsv.gz)")
    parser.add_argument("--program", default=shutil.which(PROGRAM) or f"/usr/games/{PROGRAM}",
                        help="Loopy's program (default: sgt-loopy on the PATH, else /usr/games/sgt-loopy)")
    args = parser.parse_args(argv)
    if not Path(args.program).is_file():
        parser.error(f"{args.program}: no such program (apt-get install sgt-puzzles)")
    entries = []
    for name, difficulty, seed_id in random_seed_ids():
        start = time.perf_counter()
        game_id = generate(seed_id, args.program)
        puzzle = read_loopy(game_id)
        entries.append(Entry(name, puzzle, "", {"difficulty": difficulty, "tatham": seed_id}))
        print(f"{name}: {len(puzzle.clues)} clues, {time.perf_counter() - start:.1f} s", flush=True)
    write_bundle(args.out, entries)
    print(f"wrote {len(entries)} puzzles to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
