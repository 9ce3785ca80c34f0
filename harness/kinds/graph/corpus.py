"""Importer of the published Hamiltonian-cycle instances (collection tsplib-hcp: TSPLIB HCP files).

The generated collections are not imported: `python -m harness.generate graph --set NAME` writes
them (their PROVENANCE notes have the commands).
"""

from __future__ import annotations

from pathlib import Path

from harness.bundles import Entry
from harness.kinds.graph.formats import read_hcp
from harness.kinds.graph.generate import HAMILTONIAN

TSPLIB = "tsplib-hcp"


def build(corpus: Path) -> dict[str, list[Entry]]:
    """Read the corpus: one list of entries per bundle (file stem under instances/graph/)."""
    folder = corpus / TSPLIB
    if not folder.is_dir():
        return {}
    entries = [Entry(path.stem, read_hcp(path.read_text(), str(path)), "",
                     {"known": HAMILTONIAN, "family": "tsplib", "upstream": f"ndminh21/CLP_HCP {path.name}"})
               for path in sorted(folder.glob("*.hcp"))]
    return {"tsplib": entries}
