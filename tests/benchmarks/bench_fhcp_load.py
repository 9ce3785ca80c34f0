"""Every FHCP graph of the corpus read as published (.hcp.gz) and as DIMACS written from it (.col.gz).

Run from the repository root: `python tests/benchmarks/bench_fhcp_load.py [--corpus DIR]`. Not
collected by pytest. The corpus folder is read as `--instances DIR` reads it (`harness.sets.resolve`);
each graph is then written as its DIMACS copy in the form of TakehideSoh/SAT-based-CEGAR's
`FHCPCS-col/` (the TSPLIB header as `c` lines, `p N M`, `e u v`, CRLF), gzipped, into a temporary
folder, and that folder is read the same way. Printed: files, graphs read in each form, graphs equal
across the two forms, and the CPU seconds of each read (target: 901/901 both).
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness.kinds.graph.formats import write_dimacs  # noqa: E402
from harness.sets import resolve  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "fhcp" / "hcp"


def read(folder: Path) -> tuple[dict, float]:
    """Instances by name read from a folder, and the CPU seconds the reading took."""
    start = time.process_time()
    found = {i.name: i for i in resolve(str(folder), "graph")}
    return found, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="folder of graphN.hcp.gz files")
    args = parser.parse_args()
    files = sorted(args.corpus.glob("*.hcp.gz"))
    published, took = read(args.corpus)
    good = {name: i for name, i in published.items() if not i.error}
    print(f"published form (.hcp.gz): {len(good)}/{len(files)} read in {took:.1f} s CPU")
    for i in published.values():
        if i.error:
            print(f"  {i.error}")
    with tempfile.TemporaryDirectory() as folder:
        for name, instance in good.items():
            graph = instance.puzzle
            head = (f"c NAME : {name}.hcp\r\nc COMMENT : FHCP Challenge Set\r\nc TYPE : HCP\r\n"
                    f"c DIMENSION : {graph.n}\r\n")
            body = write_dimacs(graph).replace("p edge ", "p ").replace("\n", "\r\n")
            (Path(folder) / f"{name}.col.gz").write_bytes(gzip.compress((head + body).encode(), 6))
        dimacs, took = read(Path(folder))
    read_ok = [i for i in dimacs.values() if not i.error]
    print(f"DIMACS form (.col.gz, p N M, CRLF): {len(read_ok)}/{len(files)} read in {took:.1f} s CPU")
    equal = sum(1 for name, i in dimacs.items() if name in good and i.puzzle == good[name].puzzle)
    print(f"the same graph in both forms: {equal}/{len(files)}")
    edges = sum(i.puzzle.cols for i in good.values())
    print(f"{len(good)} graphs, {edges:,} edges, largest {max(i.puzzle.n for i in good.values()):,} vertices")


if __name__ == "__main__":
    main()
