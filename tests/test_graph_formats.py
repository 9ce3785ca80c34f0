"""Graph formats: plain text, TSPLIB HCP (the three published files), tours, bundles; errors name the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import kinds
from harness.errors import InstanceError
from harness.kinds.graph import formats
from harness.kinds.graph.model import Graph
from harness.sets import resolve

HCP = Path(__file__).parent / "golden" / "hcp"
EXAMPLE = "graph 4 5\n1 2\n2 3\n3 4\n4 1\n1 3\n"  # FORMATS.md's example


def test_plain_text_reads_and_writes_back():
    g = kinds.read_text(EXAMPLE)
    assert (g.kind, g.n, g.rows, g.cols) == ("graph", 4, 4, 5)
    assert g.edges == ((0, 1), (0, 2), (0, 3), (1, 2), (2, 3))
    assert kinds.read_text(kinds.write_text(g)) == g
    assert kinds.write_text(g).splitlines()[0] == "graph 4 5"


def test_comments_blank_lines_and_a_repeated_edge():
    text = "# before the header\n\n# known: hamiltonian\ngraph 3 4\n1 2\n\n# inside\n2 3\n3 1\n2 1\n"
    g = kinds.read_text(text)
    assert g.edges == ((0, 1), (0, 2), (1, 2))  # `2 1` repeats `1 2`: one edge
    assert kinds.known_in_text(g, text) == "sat"


def test_a_graph_without_edges_reads_its_degree_is_the_answer():
    assert kinds.read_text("graph 3 0\n").edges == ()


@pytest.mark.parametrize("text, line, words", [
    ("graph 3 2\n1 2\n2 4\n", 3, "vertex 4 is outside 1..3"),
    ("graph 3 2\n1 2\n2 2\n", 3, "self-loop at vertex 2"),
    ("graph 3 2\n1 2\n2 x\n", 3, "expected an edge"),
    ("graph 3 2\n1 2\n2 3 1\n", 3, "expected an edge"),
    ("graph 3 3\n1 2\n2 3\n", 3, "header says 3 edges, found 2"),
    ("graph 3 1\n1 2\n2 3\n", 3, "header says 1 edges, found 2"),
    ("graph 0 1\n1 2\n", 1, "the number of vertices must be at least 1"),
    ("graph 3 x\n", 1, "the number of edges must be a whole number"),
])
def test_plain_text_errors_name_file_and_line(text, line, words):
    with pytest.raises(InstanceError, match=words) as info:
        kinds.read_text(text, "g.txt")
    assert (info.value.source, info.value.line) == ("g.txt", line)
    assert str(info.value).startswith(f"g.txt:{line}: ")


@pytest.mark.parametrize("name, n, m", [("alb1000", 1000, 1998), ("a736", 736, 1105), ("i324", 324, 487)])
def test_the_three_published_hcp_files_read(name, n, m):
    g = kinds.read_spec(str(HCP / f"{name}.hcp"))
    assert (g.kind, g.n, g.cols) == ("graph", n, m)
    assert min(g.degrees()) >= 3
    again = formats.read_hcp(formats.write_hcp(g, name), "x.hcp")
    assert again == g


def test_the_bundled_tsplib_set_is_the_three_files():
    found = {inst.name: inst for inst in resolve("graph-tsplib")}
    for name, inst in found.items():
        assert inst.puzzle == kinds.read_spec(str(HCP / f"{name}.hcp"))
        assert inst.known_answer == "sat"
    assert sorted(found) == ["a736", "alb1000", "i324"]


def test_instances_folder_picks_up_hcp_files(tmp_path):
    (tmp_path / "a.hcp").write_text((HCP / "i324.hcp").read_text())
    (tmp_path / "b.txt").write_text(EXAMPLE)
    found = resolve(str(tmp_path))
    assert [(i.name, i.kind, i.error) for i in found] == [("a", "graph", ""), ("b", "graph", "")]


HEAD = "NAME : t\nCOMMENT : one\nCOMMENT : two\nTYPE : HCP\nDIMENSION : 3\nEDGE_DATA_FORMAT : EDGE_LIST\n"


def test_hcp_variants():
    g = formats.read_hcp(HEAD + "EDGE_DATA_SECTION\n1 2\n2 3\n3 1\n1 2\n-1\n", "t.hcp")  # no EOF, a repeat
    assert g == Graph(3, ((0, 1), (1, 2), (0, 2)))
    assert formats.read_hcp(HEAD.replace(" : ", ": ") + "EDGE_DATA_SECTION\n1 2\n-1\nEOF\n", "t") == \
        Graph(3, ((0, 1),))
    # as files come in the wild: no -1 (the file ends, or EOF ends it), ADJ_LIST
    for end in ("", "EOF\n"):
        assert formats.read_hcp(HEAD + "EDGE_DATA_SECTION\n1 2\n2 3\n" + end, "t") == \
            Graph(3, ((0, 1), (1, 2)))
    adjacency = HEAD.replace("EDGE_LIST", "ADJ_LIST") + "EDGE_DATA_SECTION\n1 2 3 -1\n2 3 -1\n-1\nEOF\n"
    assert formats.read_hcp(adjacency, "t") == Graph(3, ((0, 1), (0, 2), (1, 2)))


@pytest.mark.parametrize("text, line, words", [
    (HEAD + "EDGE_DATA_SECTION\n1 2\n2 4\n-1\nEOF\n", 9, "vertex 4 is outside 1..3"),
    (HEAD + "EDGE_DATA_SECTION\n1 2\n3 3\n-1\nEOF\n", 9, "self-loop at vertex 3"),
    (HEAD + "EDGE_DATA_SECTION\n1 2\n-1\nEOF\n2 3\n", 11, "unexpected '2 3'"),
    (HEAD + "1 2\n-1\n", 7, "expected a header line"),
    (HEAD, 6, "no EDGE_DATA_SECTION"),
    (HEAD.replace("HCP", "TSP"), 4, "TYPE is 'TSP'"),
    (HEAD.replace("DIMENSION : 3\n", "") + "EDGE_DATA_SECTION\n-1\n", 6, "no `DIMENSION : N`"),
    (HEAD.replace("DIMENSION : 3", "DIMENSION : x") + "EDGE_DATA_SECTION\n-1\n", 5, "DIMENSION must be"),
    (HEAD.replace("EDGE_LIST", "MATRIX") + "EDGE_DATA_SECTION\n-1\n", 6, "only EDGE_LIST or ADJ_LIST"),
])
def test_hcp_errors_name_file_and_line(tmp_path, text, line, words):
    path = tmp_path / "t.hcp"
    path.write_text(text)
    with pytest.raises(InstanceError, match=words) as info:
        kinds.read_spec(str(path))
    assert (info.value.source, info.value.line) == (str(path), line)


def test_read_spec_does_not_take_other_files_for_hcp(tmp_path):
    walls = tmp_path / "w.txt"
    walls.write_text("walls 2 2\n# .\n. .\n")  # a body row starting with `#` stays a row
    assert kinds.read_spec(str(walls)).kind == "walls"
    assert not formats.is_hcp(EXAMPLE) and formats.is_hcp(HEAD)


def test_compact_round_trip_and_errors():
    g = kinds.read_text(EXAMPLE)
    kind = kinds.of(g)
    line = kind.write_compact(g)
    assert line == "1:1,1,1 1:1 1:1"  # 1-2 1-3 1-4, 2-3, 3-4: each vertex's larger neighbours as gaps
    assert kind.read_compact(line, g.rows, g.cols, "b") == g
    assert kind.read_compact("1-2 1-3 1-4 2-3 3-4", g.rows, g.cols, "b") == g  # the older pair form
    with pytest.raises(InstanceError, match="says 4 edges, found 5"):
        kind.read_compact(line, 4, 4, "b")
    with pytest.raises(InstanceError, match="vertex 5 is outside 1..4"):
        kind.read_compact("1-5", 4, 1, "b")
    with pytest.raises(InstanceError, match="vertex 5 is outside 1..4"):
        kind.read_compact("1:4", 4, 1, "b")
    with pytest.raises(InstanceError, match="bad adjacency group"):
        kind.read_compact("1:x", 4, 1, "b")


def test_tour_file():
    g = kinds.read_text(EXAMPLE)
    tour = kinds.of(g).write_tour(g, "1 2 3 4", "ex")
    assert tour.splitlines() == ["NAME : ex.tour", "COMMENT : Hamiltonian cycle of ex", "TYPE : TOUR",
                                 "DIMENSION : 4", "TOUR_SECTION", "1", "2", "3", "4", "-1", "EOF"]
    with pytest.raises(ValueError, match="visits 4 vertices"):
        kinds.of(g).write_tour(g, "1 2 3", "ex")
    masyu = kinds.read_text("2 2\n- -\n- -\n")
    with pytest.raises(ValueError, match="no tour format"):
        kinds.of(masyu).write_tour(masyu, "9c/36")
