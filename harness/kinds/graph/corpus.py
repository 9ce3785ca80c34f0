"""Importer of the published Hamiltonian-cycle instances: tsplib-hcp (TSPLIB HCP files) and fhcp's sample.

The generated collections are not imported: `python -m harness.generate graph --set NAME` writes
them (their PROVENANCE notes have the commands).
"""

from __future__ import annotations

from pathlib import Path

from harness.bundles import Entry
from harness.kinds import read_file
from harness.kinds.graph.formats import read_hcp
from harness.kinds.graph.generate import HAMILTONIAN

TSPLIB = "tsplib-hcp"
FHCP = "fhcp/hcp"  # the FHCP Challenge Set's graphs as published: graphN.hcp.gz
FHCP_SAMPLE = 100


def build(corpus: Path) -> dict[str, list[Entry]]:
    """Read the corpus: one list of entries per bundle (file stem under instances/graph/)."""
    out = {}
    folder = corpus / TSPLIB
    if folder.is_dir():
        out["tsplib"] = [Entry(path.stem, read_hcp(path.read_text(), str(path)), "",
                               {"known": HAMILTONIAN, "family": "tsplib",
                                "upstream": f"ndminh21/CLP_HCP {path.name}"})
                         for path in sorted(folder.glob("*.hcp"))]
    if (corpus / FHCP).is_dir():
        out["fhcp-sample"] = fhcp_sample(corpus / FHCP)
    return out


def fhcp_sample(folder: Path, count: int = FHCP_SAMPLE) -> list[Entry]:
    """`count` FHCP graphs spread evenly over the size range: ranked by (vertices, graph number), every
    (N-1)/(count-1)-th rank, rounded, from the smallest to the largest; names kept (`graph123`)."""
    graphs = []
    for path in folder.glob("graph*.hcp.gz"):
        graph = read_hcp(read_file(str(path)), str(path))
        graphs.append((graph.n, int(path.name[5:].split(".")[0]), path.name, graph))
    graphs.sort(key=lambda g: g[:2])
    ranks = sorted({round(i * (len(graphs) - 1) / (count - 1)) for i in range(count)}) if graphs else []
    return [Entry(f"graph{number}", graph, "",
                  {"known": HAMILTONIAN, "family": "fhcp",
                   "upstream": f"FHCP Challenge Set {name} via TakehideSoh/SAT-based-CEGAR"})
            for _, number, name, graph in (graphs[r] for r in ranks)]
