"""Graph features (`loop.features`): known values on hand-made graphs, and the committed features CSV is
what they give on the bundled FHCP graphs."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import sets
from harness.kinds.graph.model import Graph
from harness.select import featurefile
from loopbench_encodings.loop.features import NAMES, features

ROOT = Path(__file__).resolve().parents[1]


def wheel_with_a_subdivided_rim_edge() -> Graph:
    """A hub joined to a 12-cycle (its rim), the rim edge 0-1 replaced by the path 0-12-13-1."""
    rim = [(i, (i + 1) % 12) for i in range(1, 12)] + [(0, 12), (12, 13), (13, 1)]
    return Graph(15, tuple(rim + [(14, i) for i in range(12)]))


def test_features_of_a_wheel_with_a_forced_chain():
    g = wheel_with_a_subdivided_rim_edge()
    found = features(g.neighbours)
    assert list(found) == list(NAMES)
    assert found == {
        "vertices": 15, "edges": 26, "min_degree": 2, "max_degree": 12, "mean_degree": round(52 / 15, 4),
        "share_degree2": round(2 / 15, 4), "cubic": 0, "hubs10": 1, "hub_degree_max": 12,
        "hub_degree_mean": 12.0,
        # a split hub needs degree >= 20: none, so nothing to split
        "split_hubs": 0, "split_parts": 0,
        "chains": 1, "chain_longest": 2, "share_forced": round(3 / 26, 4),  # 0-12, 12-13, 13-1
    }


def test_a_cubic_graph_and_separate_chains():
    prism = Graph(6, ((0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (0, 3), (1, 4), (2, 5)))
    found = features(prism.neighbours)
    assert (found["cubic"], found["chains"], found["hubs10"], found["share_degree2"]) == (1, 0, 0, 0.0)
    cycle = Graph(8, tuple((i, (i + 1) % 8) for i in range(8)))  # every vertex degree 2: one chain of 8
    assert (features(cycle.neighbours)["chains"], features(cycle.neighbours)["chain_longest"]) == (1, 8)
    # two chains of degree-2 vertices on a K4 with two edges subdivided apart
    k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    split = [e for e in k4 if e not in ((0, 1), (2, 3))] + [(0, 4), (4, 1), (2, 5), (5, 6), (6, 3)]
    found = features(Graph(7, tuple(split)).neighbours)
    assert (found["chains"], found["chain_longest"], found["cubic"]) == (2, 2, 0)


def test_split_parts_are_what_split_hubs_would_use():
    """Three ladders of 15 rungs in a ring, each with a hub joined to its 30 vertices and to the next
    ladder's first vertex (tests/test_split.py's `ladder_blocks`): three hubs, three parts."""
    edges, size = [], 31
    for b in range(3):
        first, hub = b * size, b * size + 30
        for r in range(15):
            top, bottom = first + 2 * r, first + 2 * r + 1
            edges.append((top, bottom))
            if r + 1 < 15:
                edges += [(top, top + 2), (bottom, bottom + 2)]
        edges += [(hub, first + i) for i in range(30)] + [(hub, (b + 1) % 3 * size)]
    found = features(Graph(3 * size, tuple(edges)).neighbours)
    said = (found["split_hubs"], found["split_parts"], found["hubs10"], found["hub_degree_max"])
    assert said == (3, 3, 3, 31)


def bundled(name: str) -> Graph:
    """One of fhcp-sample's graphs, only it parsed (the whole set is 100 graphs up to 9,528 vertices)."""
    from harness import kinds

    row = next(row for _, row in sets.rows("fhcp-sample") if row["name"] == name)
    return kinds.get("graph").read_compact(row["puzzle"], int(row["rows"]), int(row["cols"]), name)


@pytest.mark.parametrize("name", ["graph1", "graph52", "graph92"])
def test_the_committed_features_csv_is_what_the_features_give(name):
    """The features CSV (written from the corpus) agrees with the features of fhcp-sample's own copies."""
    committed = featurefile.read(ROOT / featurefile.FEATURES_CSV)
    assert len(committed) == 901
    assert committed.loc[name].to_dict() == pytest.approx(features(bundled(name).neighbours))
