"""The committed features CSV of the public FHCP graphs: written from the corpus once, read by training."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd

from loopbench_encodings.loop.features import NAMES, features

FEATURES_CSV = Path("results/selector/features.csv")


def write(corpus: Path, out: Path) -> int:
    """Compute the features of every `graph*.hcp.gz` under `corpus` and write them to `out` (one row a graph,
    `graph` then `NAMES`, by graph number); the rows written."""
    from harness.kinds import read_file
    from harness.kinds.graph.formats import read_hcp

    paths = sorted(corpus.glob("graph*.hcp.gz"), key=lambda p: int(p.name[5:].split(".")[0]))
    if not paths:
        raise ValueError(f"{corpus}: no graph*.hcp.gz files")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["graph", *NAMES])
        for path in paths:
            graph = read_hcp(read_file(str(path)), str(path))
            found = features(graph.neighbours)
            writer.writerow([path.name.split(".")[0], *(found[k] for k in NAMES)])
    tmp.replace(out)
    return len(paths)


def read(path: Path) -> pd.DataFrame:
    """The features by graph name; ValueError naming the file when it is missing or lacks a feature."""
    try:
        frame = pd.read_csv(path)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file (python -m harness.select features writes it)") from None
    missing = [c for c in ("graph", *NAMES) if c not in frame]
    if missing:
        raise ValueError(f"{path}:1: no column {', '.join(missing)} (written by older code? write it again)")
    return frame.set_index("graph")
