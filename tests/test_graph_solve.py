"""A graph through the single-puzzle CLI: the report, the drawing (or a note past the size limit), --tour.

Until an encoding serves graphs, the answers come from the `dummy` encoding (it returns the
string it is given), so the harness side is what is tested: the checker's verdict, the tour file,
the errors. `test_the_registry_solves_a_graph_with_a_tour` runs every real encoding that serves
graphs once there is one.
"""

from __future__ import annotations

import matplotlib
import pytest

from harness import kinds, registry, sets
from harness.kinds.graph import draw
from harness.kinds.graph.model import Graph
from harness.solve import EXIT_BAD_INPUT, EXIT_SOLVED, EXIT_UNSOLVED, main

matplotlib.use("Agg")

# the hexagon 1..6 with chords 1-4 and 2-6; its canonical Hamiltonian cycle is 1 2 3 4 5 6
HEX = "graph 6 8\n1 2\n2 3\n3 4\n4 5\n5 6\n6 1\n1 4\n2 6\n"
TOUR = ["NAME : hex.tour", "COMMENT : Hamiltonian cycle of hex", "TYPE : TOUR", "DIMENSION : 6",
        "TOUR_SECTION", "1", "2", "3", "4", "5", "6", "-1", "EOF"]


@pytest.fixture
def hex_file(tmp_path):
    path = tmp_path / "hex.txt"
    path.write_text(HEX)
    return path


def answer(text: str) -> list[str]:
    return ["-e", "dummy", "-o", "status=sat", "-o", f"solution={text}"]


def test_a_checked_cycle_is_reported_drawn_and_written_as_a_tour(hex_file, tmp_path, capsys):
    tour, png = tmp_path / "hex.tour", tmp_path / "hex.png"
    argv = [str(hex_file), *answer("1 2 3 4 5 6"), "--tour", str(tour), "--png", str(png)]
    assert main(argv) == EXIT_SOLVED
    out, err = capsys.readouterr()
    assert out.startswith("hex: graph 6 vertices, 8 edges, degrees 2..3; dummy: solved")
    assert "cycle: 1 2 3 4 5 6" in out
    assert f"wrote the tour to {tour}" in err
    assert tour.read_text().splitlines() == TOUR
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_wrong_cycle_is_refused_and_no_tour_written(hex_file, tmp_path, capsys):
    tour = tmp_path / "hex.tour"
    assert main([str(hex_file), *answer("1 2 3 5 4 6"), "--tour", str(tour)]) == EXIT_UNSOLVED
    out, err = capsys.readouterr()
    assert "wrong" in out and "3 to 5 is not an edge of the graph" in out
    assert err.strip() == "error: --tour: no checked answer to write (wrong)"
    assert not tour.exists()


def test_no_answer_no_tour(hex_file, tmp_path, capsys):
    assert main([str(hex_file), "-e", "dummy", "-o", "status=unsat", "--tour", str(tmp_path / "t")]) == \
        EXIT_UNSOLVED
    assert capsys.readouterr().err.strip() == "error: --tour: no checked answer to write (unsat)"


def test_tour_of_a_grid_puzzle_is_an_error(tmp_path, capsys):
    masyu = tmp_path / "m.txt"
    masyu.write_text("2 2\n- -\n- -\n")
    assert main([str(masyu), *answer("9c/36"), "--tour", str(tmp_path / "t")]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.strip() == "error: --tour: masyu puzzles have no tour format (a tour is a graph's answer)"


def test_bad_graph_input_is_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.hcp"
    bad.write_text("NAME : bad\nTYPE : HCP\nDIMENSION : 3\nEDGE_DATA_SECTION\n1 2\n2 5\n-1\n")
    assert main([str(bad), "-e", "dummy"]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err == f"error: {bad}:6: vertex 5 is outside 1..3\n"


def test_the_registry_solves_a_graph_with_a_tour(tmp_path, capsys):
    # not `command`: its program is the user's (tests/test_command.py runs one)
    serving = [name for name in registry.names() if name not in ("dummy", "command")
               and registry.create(name).supports(Graph(3, ((0, 1), (1, 2), (0, 2))))]
    assert {"sat", "circuit", "lazy"} <= set(serving), serving  # the loop strategies serve any graph
    cycle = tmp_path / "c12.txt"
    inst = next(i for i in sets.instances("graph-smoke") if i.name == "graph-cycle-12-s2026-000")
    cycle.write_text(kinds.write_text(inst.puzzle))
    for name in serving:
        tour = tmp_path / f"{name}.tour"
        assert main([str(cycle), "-e", name, "--tour", str(tour), "--time-limit", "30"]) == EXIT_SOLVED, name
        lines = tour.read_text().splitlines()
        assert lines[lines.index("TOUR_SECTION") + 1:-2] == inst.known_solution.split()


def test_drawings():
    smoke = {i.name: i for i in sets.instances("graph-smoke")}
    tutte = smoke["graph-tutte-46-s2026-000"].puzzle
    ax = draw.draw(tutte, title="Tutte")
    assert len(ax.collections) == 3 and len(ax.texts) == 46  # grey edges, cycle (empty), dots; labels
    cubic = smoke["graph-cubic-20-s2026-000"]
    positions = draw.layout(cubic.puzzle, cubic.known_solution)
    assert positions[0] == pytest.approx((0.0, 1.0))  # vertex 1 at the top of the circle
    big = Graph(3001, tuple((i, i + 1) for i in range(3000)))
    ax = draw.draw(big)
    assert "too large to draw" in ax.texts[0].get_text() and not ax.collections


def test_render_text_summarises():
    smoke = {i.name: i for i in sets.instances("graph-smoke")}
    c12 = smoke["graph-cycle-12-s2026-000"]
    text = kinds.of(c12.puzzle).render_text(c12.puzzle, c12.known_solution)
    assert text == f"graph: 12 vertices, 12 edges, degree 2\ncycle: {c12.known_solution}\n"
    big = Graph(100, tuple((i, (i + 1) % 100) for i in range(100)))
    line = draw.render_text(big, " ".join(str(v) for v in range(1, 101)), ascii=True).splitlines()[1]
    assert line.endswith(" 60 ... (100 vertices)")
