"""The field's graph files as they come: FHCP's .hcp.gz, TSPLIB ADJ_LIST and pair variants, DIMACS; errors.

The three FHCP files in tests/golden/fhcp are copied unchanged from the corpus (gzip, TSPLIB HCP,
EDGE_LIST); every other form here is written from them, as files in the wild differ.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from harness import kinds
from harness.analysis import results
from harness.errors import InstanceError
from harness.instances import instance_name, is_instance_file, load_file
from harness.kinds.graph import formats
from harness.run.cli import main as run_main
from harness.sets import resolve
from harness.solve import EXIT_BAD_INPUT, EXIT_SOLVED
from harness.solve import main as solve_main

FHCP = Path(__file__).parent / "golden" / "fhcp"
PUBLISHED = {"graph1": (66, 99), "graph2": (70, 106), "graph11": (126, 189)}  # published-times.tsv's n, m


def genuine(name: str = "graph2") -> str:
    return gzip.decompress((FHCP / f"{name}.hcp.gz").read_bytes()).decode()


def adj_list(graph) -> str:
    """The graph as TSPLIB ADJ_LIST: each vertex with its larger neighbours, `-1`, and a last `-1`."""
    rows = [" ".join([str(u + 1), *(str(v + 1) for v in graph.neighbours[u] if v > u), "-1"])
            for u in range(graph.n)]
    head = f"NAME : g\nTYPE : HCP\nDIMENSION : {graph.n}\nEDGE_DATA_FORMAT : ADJ_LIST\nEDGE_DATA_SECTION\n"
    return head + "\n".join(rows) + "\n-1\nEOF\n"


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_the_published_gzip_files_read_as_they_are(name):
    instance = load_file(str(FHCP / f"{name}.hcp.gz"))
    assert instance.error == "" and instance.name == name
    assert (instance.puzzle.n, instance.puzzle.cols) == PUBLISHED[name]
    assert instance.puzzle == formats.read_hcp(genuine(name), name)


def test_every_variant_of_one_graph_reads_the_same(tmp_path):
    text = genuine()
    graph = formats.read_hcp(text, "graph2")
    head, _, body = text.partition("EDGE_DATA_SECTION\n")
    pairs = body.split("\n-1")[0].split("\n")
    variants = {
        "crlf.hcp": text.replace("\n", "\r\n"),
        "no-eof.hcp": text.replace("EOF\n", ""),
        "no-end.hcp": text.replace("-1\nEOF\n", ""),
        "eof-only.hcp": text.replace("-1\n", ""),
        "three-a-line.hcp": head + "EDGE_DATA_SECTION\n" + "\n".join(
            "  ".join(pairs[i:i + 3]) for i in range(0, len(pairs), 3)) + " -1\nEOF\n",
        "no-format-line.hcp": text.replace("EDGE_DATA_FORMAT : EDGE_LIST\n", ""),
        "adj.hcp": adj_list(graph),
        "adj-wrapped.hcp": adj_list(graph).replace(" -1\n", "\n-1\n"),
        "edge.col": formats.write_dimacs(graph, "FHCP graph2"),
        # as SAT-based-CEGAR's FHCPCS-col: `p N M`, the TSPLIB header as `c` lines, CRLF
        "cegar.col": "".join(f"c {line}\r\n" for line in head.splitlines())
        + formats.write_dimacs(graph).replace("p edge ", "p ").replace("\n", "\r\n"),
        "both-ways.col": formats.write_dimacs(graph) + "".join(f"e {v + 1} {u + 1}\n"
                                                              for u, v in graph.edges),
    }
    for name, content in variants.items():
        (tmp_path / name).write_text(content, newline="")
        gz = tmp_path / "gz" / (name + ".gz")
        gz.parent.mkdir(exist_ok=True)
        gz.write_bytes(gzip.compress(content.encode()))
    for path in [*tmp_path.glob("*.*"), *(tmp_path / "gz").iterdir()]:
        assert kinds.read_spec(str(path)) == graph, path.name
    found = resolve(str(tmp_path / "gz"))
    assert len(found) == len(variants) and all(i.puzzle == graph for i in found)
    assert {i.name for i in found} == {n.rsplit(".", 1)[0] for n in variants}


def test_a_folder_takes_every_form_and_nothing_else(tmp_path):
    (tmp_path / "graph1.hcp.gz").write_bytes((FHCP / "graph1.hcp.gz").read_bytes())
    (tmp_path / "graph2.col").write_text(formats.write_dimacs(formats.read_hcp(genuine(), "g")))
    (tmp_path / "published-times.tsv").write_text("graph\tn\n")
    (tmp_path / "notes.gz").write_bytes(gzip.compress(b"not a graph"))
    assert [(i.name, i.error, i.puzzle.n) for i in resolve(str(tmp_path))] == [("graph1", "", 66),
                                                                                ("graph2", "", 70)]
    assert is_instance_file(Path("A.HCP.GZ")) and not is_instance_file(Path("x.tsv.gz"))
    assert instance_name("d/graph123.hcp.gz") == "graph123" and instance_name("d/p.txt") == "p"


def test_solve_takes_a_published_file(capsys):
    assert solve_main([str(FHCP / "graph1.hcp.gz"), "-e", "sat", "--time-limit", "30"]) == EXIT_SOLVED
    assert capsys.readouterr().out.startswith("graph1: graph 66 vertices, 99 edges, degree 3; sat: solved")


HEAD = "NAME : t\nTYPE : HCP\nDIMENSION : 4\n"
ADJ = HEAD + "EDGE_DATA_FORMAT : ADJ_LIST\nEDGE_DATA_SECTION\n"
EDGES = HEAD + "EDGE_DATA_SECTION\n"


@pytest.mark.parametrize("text, line, words", [
    (EDGES + "1 2 3\n-1\n", 5, "an edge needs two vertices: '3' stands alone"),
    (EDGES + "1 2 3 -1\n", 5, "'3' stands alone"),
    (EDGES + "1\n2\n-1\n", 5, "'1' stands alone"),  # a pair is on one line
    (EDGES + "1 2 2 x\n", 5, "expected a vertex number, found 'x'"),
    (EDGES + "1 2 -1 3 4\n", 5, "unexpected '3' after the edge list's -1"),
    (EDGES + "1 2\n-1\nEOF\n3 4\n", 8, "unexpected '3 4' after the edge list's -1"),
    (EDGES + "1 -2\n", 5, "expected a vertex number, found '-2'"),
    (ADJ + "1 2 3 -1\n2 5 -1\n-1\n", 7, "vertex 5 is outside 1..4"),
    (ADJ + "1 2 3 -1\n2 2 -1\n-1\n", 7, "self-loop at vertex 2"),
    (ADJ + "1 2 3 -1\n2 4\nEOF\n", 7, "the adjacency list of vertex 2 does not end with -1"),
    (HEAD + "EDGE_DATA_FORMAT : MATRIX\nEDGE_DATA_SECTION\n-1\n", 4, "only EDGE_LIST or ADJ_LIST"),
    ("c one\np edge 4 2\ne 1 2\ne 2 3\ne 3 4\n", 2, "the `p` line says 2 edges, found 3 `e` lines"),
    ("c one\np edge 4 2\ne 1 2\ne 2 9\n", 4, "vertex 9 is outside 1..4"),
    ("c one\ne 1 2\np edge 4 1\n", 2, "an `e` line before the `p` line"),
    ("p edge 4 1\ne 1 2\np edge 4 1\n", 3, "a second `p` line"),
    ("p edge x 1\ne 1 2\n", 1, "expected `p edge N M` or `p N M`"),
    ("c one\np 4 1\ne 1 2\nn 1 5\n", 4, "expected a `c`, `p` or `e` line, found 'n 1 5'"),
    ("c one\np 4 1\ne 1\n", 3, "expected an edge `u v`"),
    ("c only comments\n", 1, "no `p edge N M` line"),
])
def test_malformed_files_name_file_line_and_problem(tmp_path, text, line, words):
    for path in (tmp_path / "t.hcp", tmp_path / "t.col.gz"):
        path.write_bytes(gzip.compress(text.encode()) if path.suffix == ".gz" else text.encode())
        with pytest.raises(InstanceError, match=words) as info:
            kinds.read_spec(str(path))
        assert (info.value.source, info.value.line) == (str(path), line)
        assert str(info.value).startswith(f"{path}:{line}: ")


def test_a_broken_gzip_file_is_one_line_exit_2_and_an_error_row(tmp_path, capsys):
    folder = tmp_path / "set"
    folder.mkdir()
    whole = (FHCP / "graph1.hcp.gz").read_bytes()
    (folder / "graph1.hcp.gz").write_bytes(whole)
    cut = folder / "cut.hcp.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    bad = folder / "bad.col"
    bad.write_text("p edge 3 1\ne 1 4\n")
    assert solve_main([str(cut), "-e", "dummy"]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err == f"error: {cut}: cannot read: the gzip stream is cut short\n"
    assert solve_main([str(bad), "-e", "dummy"]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err == f"error: {bad}:2: vertex 4 is outside 1..3\n"
    db = tmp_path / "runs.sqlite"
    assert run_main(["--encoding", "sat", "--instances", str(folder), "--time-limit", "30",
                     "--kind", "graph", "--db", str(db)]) == 0

    runs = results.load(db).set_index("instance")
    assert runs.loc["graph1", "status"] == "solved" and runs.loc["graph1", "verified"] == 1
    assert runs.loc["cut", "status"] == "error" and "gzip stream is cut short" in runs.loc["cut", "detail"]
    assert runs.loc["bad", "status"] == "error" and f"{bad}:2: vertex 4" in runs.loc["bad", "detail"]
