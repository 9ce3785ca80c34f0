"""Named configurations: an encoding and options a user gives by one name wherever an encoding is taken.

A preset is written `NAME` or `NAME:KEY=VALUE[:KEY=VALUE...]` (its options, these on top) in
`--encoding`, `harness.compare`, the report, plots and `--published`; its runs are keyed by the options
it resolves to (so a preset that changes later keys new runs) and labelled with its name
(`harness.analysis.configs`). Where each was measured is said beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Preset:
    encoding: str
    options: dict[str, str] = field(default_factory=dict)
    help: str = ""


# The published Hamiltonian-cycle CEGAR's blocking (docs/CEGAR.md): arcs beside the edges, the cut-sets as
# directed clauses, a model's loops merged as far as 2-opt goes, forced edges fixed, the solver's own phase.
_CEGAR = {"arcs": "true", "phase": "solver", "cuts": "cutset", "directed": "true", "join": "merge",
          "fix": "true"}

# The harness's own step before the CEGAR on a graph (not the published solver's): a moment of rotation-
# extension, which answers the dense graphs before their CNF is built (`loop.rotations`; on graphs only).
# A preset of its own, so that the runs of `cegar-split` before it keep their name (`analysis.configs`).
_PREPASS = {"prepass": "rotations"}
# the base of sat's default on graphs (`cegar-split-auto`) and of the other `degree` variants below
_FRONTIER = {**_CEGAR, "prepass": "frontier+rotations", "split": "hubs"}

PRESETS: dict[str, Preset] = {
    "cegar": Preset("sat", {**_CEGAR, "split": "off"}, "the CEGAR configuration (docs/CEGAR.md; measured "
                    "on FHCP: results/fhcp/README.md)"),
    "cegar-split": Preset("sat", {**_CEGAR, "split": "hubs"}, "the CEGAR configuration with split=hubs "
                          "(how it compares: results/fhcp/README.md)"),
    "cegar-split-prepass": Preset("sat", {**_CEGAR, **_PREPASS, "split": "hubs"}, "cegar-split after a "
                                  "moment of rotation-extension, sat's default on graphs before "
                                  "cegar-split-frontier (docs/CEGAR.md; how it compares: "
                                  "results/fhcp/README.md)"),
    "cegar-split-frontier": Preset("sat", _FRONTIER,
                                   "cegar-split-prepass with the frontier search on small bounds before "
                                   "the rotations, which answers narrow graphs before any clause, sat's "
                                   "default on graphs before cegar-split-auto (docs/CEGAR.md; how it "
                                   "compares: results/fhcp/README.md)"),
    "cegar-split-free": Preset("sat", {**_FRONTIER, "degree": "free"}, "cegar-split-frontier without "
                               "the edge degree clauses at required vertices (results/fhcp/README.md, "
                               "\"The mean-degree-4.59 family\")"),
    "cegar-split-auto": Preset("sat", {**_FRONTIER, "degree": "auto"}, "sat's default on graphs: "
                               "cegar-split-frontier with degree=auto, cegar-split-free on graphs with at "
                               "most a tenth of degree 2 (docs/CEGAR.md; results/fhcp/README.md)"),
    "cegar-split-glucose": Preset("sat", {**_CEGAR, **_PREPASS, "split": "hubs", "solver": "glucose4"},
                                  "cegar-split-prepass on Glucose 4.1 rather than CaDiCaL 1.9.5: its rounds "
                                  "are cheaper where hubs have hundreds of edges (results/fhcp/README.md, "
                                  "the long budget)"),
    "cegar-free": Preset("sat", {**_CEGAR, "degree": "free"}, "the CEGAR configuration without the degree "
                         "clauses at required vertices, as the published arc model (results/fhcp/README.md)"),
    "arc-model": Preset("sat", {"arcs": "true", "phase": "solver", "cuts": "cutset"}, "the arc model beside "
                        "the edges, the solver's phase, cut-sets (results/graph/README.md)"),
    "asymmetry-split": Preset("sat", {"arcs": "asymmetry", "degree": "free", "cuts": "cutset",
                                      "directed": "true", "fix": "true", "phase": "solver", "split": "hubs"},
                              "the published arc model whole, lowest-asymmetry clauses, with split=hubs "
                              "(results/fhcp/README.md)"),
    "sat-plain": Preset("sat", {}, "sat at its plain defaults on every kind, measured on puzzles (on a "
                        "graph what `sat` ran before its graph defaults: the `sat` rows of results/fhcp)"),
    "circuit-lp": Preset("circuit", {"linearization_level": "1"}, "CP-SAT's LP on: parity-bound "
                         "non-Hamiltonian graphs (results/graph/HISTORY.md, \"CP-SAT on graphs\")"),
}
