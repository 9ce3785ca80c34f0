"""The `command` encoding: a program of one's own on each graph, its answer read, timed and judged as any."""

from __future__ import annotations

import json
import shlex
import sqlite3
import sys

import networkx as nx
import pytest

from harness import registry
from harness.encoding import Limits
from harness.instances import Instance
from harness.kinds.graph.formats import write_hcp
from harness.kinds.graph.model import Graph
from harness.run.cli import main as run_main
from harness.run.execute import execute
from harness.solve import EXIT_BAD_INPUT
from harness.solve import main as solve_main
from loopbench_encodings.command import canonical, numbered, tour_in, words

# A test-only Hamiltonian-cycle program: reads the HCP or DIMACS file it is given, finds a cycle by
# backtracking, and answers in the form its first argument names (or misbehaves as told).
PROGRAM = '''
import sys, time

def read(path):
    n, edges, data = 0, [], False
    for line in open(path):
        w = line.replace(":", " : ").split()
        if not w:
            continue
        if w[0] == "p":
            n = int(w[2])
        elif w[0] == "e":
            edges.append((int(w[1]), int(w[2])))
        elif w[0] == "DIMENSION":
            n = int(w[-1])
        elif w[0] == "EDGE_DATA_SECTION":
            data = True
        elif data and w[0] not in ("-1", "EOF"):
            edges.append((int(w[0]), int(w[1])))
    adj = {v: set() for v in range(1, n + 1)}
    for u, v in edges:
        adj[u].add(v)
        adj[v].add(u)
    return n, adj

def cycle(n, adj):
    path, on = [1], {1}
    def go():
        if len(path) == n:
            return 1 in adj[path[-1]]
        for w in sorted(adj[path[-1]]):
            if w not in on:
                path.append(w); on.add(w)
                if go():
                    return True
                path.pop(); on.discard(w)
        return False
    return path if n >= 3 and go() else None

form, graph, tour = sys.argv[1], sys.argv[2], sys.argv[3]
if form == "spin":
    while True:
        pass
if form == "sleep":
    time.sleep(600)
if form == "crash":
    print("out of luck: a made-up failure", file=sys.stderr)
    sys.exit(3)
if form == "silent":
    sys.exit(0)
if form == "sat-only":
    print("s SATISFIABLE")
    sys.exit(10)
n, adj = read(graph)
found = cycle(n, adj)
if found is None:
    print("s UNSATISFIABLE")
    sys.exit(20)
found = found[2:] + found[:2]  # not from vertex 1: the harness turns it
if form == "wrong":
    found[0], found[1] = found[1], found[0]
    form = "section"
numbers = " ".join(map(str, found))
if form == "file":
    open(tour, "w").write("NAME : t\\nTYPE : TOUR\\nDIMENSION : %d\\nTOUR_SECTION\\n%s\\n-1\\nEOF\\n"
                          % (n, "\\n".join(map(str, found))))
elif form == "section":
    print("c some chatter 1 2 3\\nTOUR_SECTION\\n" + "\\n".join(map(str, found)) + "\\n-1")
elif form == "v":
    print("c chatter\\ns SATISFIABLE\\nv " + numbers + " 0")
elif form == "zero":
    print("TOUR_SECTION\\n" + "\\n".join(str(v - 1) for v in found) + "\\n-1")
elif form == "solution":
    print("cegar iteration = 0\\nsolution: \\n" + numbers + "\\n\\ns SATISFIABLE")
sys.exit(10)
'''


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    path = tmp_path_factory.mktemp("program") / "tour.py"
    path.write_text(PROGRAM)
    return path


def _graph(g: nx.Graph) -> Graph:
    nodes = {v: i for i, v in enumerate(g.nodes)}
    return Graph(len(nodes), tuple(sorted((min(nodes[u], nodes[v]), max(nodes[u], nodes[v]))
                                          for u, v in g.edges)))


PRISM = _graph(nx.circular_ladder_graph(4))  # Hamiltonian, 8 vertices
PETERSEN = _graph(nx.petersen_graph())  # not Hamiltonian


def _run(program, form: str, graph: Graph = PRISM, time_s: float = 20.0, **options) -> dict:
    instance = Instance(name="g", source="<test>", puzzle=graph)
    run = f"{shlex.quote(sys.executable)} {shlex.quote(str(program))} {form} {{graph}} {{tour}}"
    row = execute(instance, "command", {"run": run, **options}, 0, Limits(time_s=time_s))
    return {**row, "extra": json.loads(row["extra"]) if isinstance(row["extra"], str) else row["extra"]}


# --- reading what a program says (no program runs) -------------------------------------------------

def test_each_form_of_a_tour_is_read_and_chatter_around_it_is_not():
    assert tour_in("c 7 8\nTOUR_SECTION\n3\n1 2\n-1\nEOF\n") == ["3", "1", "2"]
    assert tour_in("c 7 8\ns SATISFIABLE\nv 3 1\nv 2 0\n") == ["3", "1", "2"]
    assert tour_in("iteration 5\nsolution: \n3 1 2\n\ns SATISFIABLE\n") == ["3", "1", "2"]
    assert tour_in("solution: 3 1 2\n") == ["3", "1", "2"]
    assert tour_in("c 7 8\nno tour here 1 2 3\n") is None
    assert tour_in("3 1 2\n", bare=True) == ["3", "1", "2"]  # a tour file holding the numbers alone


def test_a_tour_is_turned_to_the_solution_format_and_a_broken_one_left_as_written():
    assert canonical(5, ["3", "4", "5", "1", "2"]) == "1 2 3 4 5"
    assert canonical(5, ["3", "2", "1", "5", "4"]) == "1 2 3 4 5"  # the other way round
    assert canonical(5, ["3", "4", "5", "1", "1"]) == "3 4 5 1 1"  # a repeat: the checker says so
    assert canonical(5, ["03", "4", "5", "1", "2"]) == "03 4 5 1 2"
    assert canonical(5, numbered(["2", "3", "4", "0", "1"], 0)) == "1 2 3 4 5"  # base=0
    assert numbered(["0", "x"], 0) == ["1", "x"] and numbered(["0"], 1) == ["0"]


def test_the_places_are_put_in_within_words_and_quoting_holds():
    text = "solver --in={graph} -o '{tour}' -s {seed} -t {seconds} 'a b'"
    places = {"{graph}": "/g.hcp", "{tour}": "/t x.tour", "{seed}": "7", "{seconds}": "60"}
    assert words(text, places) == ["solver", "--in=/g.hcp", "-o", "/t x.tour", "-s", "7", "-t", "60", "a b"]


# --- programs run in this process ----------------------------------------------------------------

@pytest.mark.parametrize("form", ["file", "section", "v", "solution"])
def test_every_form_of_answer_is_judged_solved_and_the_programs_cpu_counted(program, form):
    row = _run(program, form)
    assert row["status"] == "solved" and row["verified"] == 1, row
    assert row["solution"].startswith("1 ")
    assert row["extra"]["command_exit"] == 10
    assert 0 < row["extra"]["command_cpu_s"] <= row["solve_cpu_s"]
    assert len(row["extra"]["command_sha256"]) == 64  # the interpreter's, read before the clock


def test_the_dimacs_file_is_written_when_asked_and_a_tour_from_0_read_so(program):
    assert _run(program, "section", input="dimacs")["status"] == "solved"
    assert _run(program, "zero", base="0")["status"] == "solved"
    assert _run(program, "zero")["status"] == "wrong"  # read as numbered from 1: vertex 0 is none


def test_a_wrong_tour_is_wrong_and_an_empty_sat_claim_too(program):
    wrong = _run(program, "wrong")
    assert wrong["status"] == "wrong" and "is not an edge" in wrong["detail"]
    claim = _run(program, "sat-only")
    assert claim["status"] == "wrong" and "empty" in claim["detail"]


def test_a_claim_of_no_cycle_is_an_unsat_answer(program):
    row = _run(program, "section", PETERSEN)
    assert row["status"] == "unsat" and row["extra"]["command_exit"] == 20


def test_a_program_that_crashes_raises_with_its_stderr_and_a_silent_one_is_unknown(program):
    with pytest.raises(RuntimeError, match="exit code 3: out of luck"):
        _run(program, "crash")
    assert _run(program, "silent")["status"] == "unknown"


def test_the_program_runs_where_the_harness_runs_so_a_relative_path_is_found(program, monkeypatch):
    monkeypatch.chdir(program.parent)
    instance = Instance(name="g", source="<test>", puzzle=PRISM)
    run = f"{shlex.quote(sys.executable)} {program.name} section {{graph}} {{tour}}"
    assert execute(instance, "command", {"run": run}, 0, Limits(time_s=20))["status"] == "solved"


def test_the_harness_itself_as_a_program_answers_as_its_solver_does():
    instance = Instance(name="g", source="<test>", puzzle=PRISM)
    run = (f"{shlex.quote(sys.executable)} -m harness.solve {{graph}} -e sat --time-limit {{seconds}} "
           "--tour {tour}")
    row = execute(instance, "command", {"run": run}, 0, Limits(time_s=60))
    assert row["status"] == "solved" and row["verified"] == 1
    assert row["solution"] == execute(instance, "sat", {}, 0, Limits(time_s=60))["solution"]


def test_a_program_that_waits_forever_is_stopped_by_the_wall_clock_guard(program):
    row = _run(program, "sleep", time_s=0.5)  # the guard: 2 x 0.5 s + 10 s of wall time
    assert row["status"] == "unknown" and "wall-clock guard" in row["detail"]
    assert row["extra"]["command_exit"] == -9 and row["extra"]["command_peak_rss_mb"] > 1


def test_no_command_line_is_one_line_naming_the_option(tmp_path, capsys):
    instance = Instance(name="g", source="<test>", puzzle=PRISM)
    row = execute(instance, "command", {}, 0, Limits(time_s=5))
    assert row["status"] == "error" and "option run: give the program's command line" in row["detail"]
    prism = tmp_path / "prism.hcp"
    prism.write_text(write_hcp(PRISM, "prism"))
    assert solve_main([str(prism), "-e", "command"]) == EXIT_BAD_INPUT  # one puzzle: bad input, one line
    assert capsys.readouterr().err == ("error: option run: give the program's command line, e.g. "
                                       "--option 'run=./my-solver {graph} {tour}'\n")


# --- programs run by the runner's workers ----------------------------------------------------------

def test_a_sweep_times_out_a_spinning_program_counts_its_cpu_and_records_a_crash(program, tmp_path):
    prism = tmp_path / "prism.hcp"
    prism.write_text(write_hcp(PRISM, "prism"))
    db = tmp_path / "runs.sqlite"
    for form in ("spin", "crash", "section"):
        run = f"{shlex.quote(sys.executable)} {shlex.quote(str(program))} {form} {{graph}} {{tour}}"
        argv = ["--encoding", "command", "--option", f"run={run}", "--instances", str(prism),
                "--kind", "graph", "--time-limit", "1", "--db", str(db)]
        assert run_main(argv) == 0
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT options, status, detail, solve_cpu_s, cpu_s FROM runs").fetchall()
    by_form = {json.loads(options)["run"].split()[2]: rest for options, *rest in rows}
    status, _, _, cpu_s = by_form["spin"]
    assert status == "timeout" and cpu_s >= 1.0  # the program's CPU is the run's
    status, detail, _, _ = by_form["crash"]
    assert status == "crash" and "out of luck" in detail
    assert by_form["section"][0] == "solved"


def test_a_sweep_without_a_command_line_is_refused_in_one_line_before_any_run(tmp_path, capsys):
    prism = tmp_path / "prism.hcp"
    prism.write_text(write_hcp(PRISM, "prism"))
    db = tmp_path / "runs.sqlite"
    argv = ["--encoding", "command", "--instances", str(prism), "--kind", "graph", "--db", str(db)]
    assert run_main(argv) == 2  # a configuration the encoding refuses, as an unknown option is
    assert capsys.readouterr().err == ("harness.run: error: command on graph instances: option run: give "
                                       "the program's command line, e.g. --option 'run=./my-solver {graph} "
                                       "{tour}'\n")
    assert not db.exists()


def test_a_command_line_that_does_not_split_is_refused_where_it_is_given():
    with pytest.raises(ValueError, match="option run: .* does not split into words"):
        registry.create("command", run="solver 'unclosed")
