"""`portfolio` (two configurations at once, the first answer wins) and `--cores-per-run`: its answers are
judged by the checker, both members' CPU counts in the run's, the loser is killed and reaped, bad members
are one line, and a sweep pins each job to the cores it asks for."""

from __future__ import annotations

import itertools
import json
import os
import re

import networkx as nx
import pytest

from harness import registry
from harness.encoding import Limits
from harness.instances import Instance
from harness.kinds.graph.model import Graph
from harness.run import cores
from harness.run.execute import execute


def _run(graph: nx.Graph, options: dict | None = None, time_s: float = 30.0) -> dict:
    nodes = {v: i for i, v in enumerate(graph.nodes)}
    edges = tuple(sorted((min(nodes[u], nodes[v]), max(nodes[u], nodes[v])) for u, v in graph.edges))
    instance = Instance(name="g", source="<test>", puzzle=Graph(len(nodes), edges))
    row = execute(instance, "portfolio", options or {}, 0, Limits(time_s=time_s))
    return {**row, "extra": json.loads(row["extra"]) if isinstance(row["extra"], str) else row["extra"]}


def _children() -> list[int]:
    """This process's live or unreaped children, from /proc."""
    me, found = os.getpid(), []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == me:
                        found.append(int(name))
            except (OSError, IndexError, ValueError):
                pass
    return found


def test_a_hamiltonian_graph_is_answered_by_a_member_and_the_checker_accepts_it():
    before = _children()
    row = _run(nx.circulant_graph(60, [1, 7]))
    extra = row["extra"]
    assert row["status"] == "solved" and row["verified"] == 1
    assert extra["portfolio_winner"] in ("cegar-split-frontier", "asp")
    assert set(extra["portfolio_cpu_s"]) == {"cegar-split-frontier", "asp"}
    assert extra["portfolio_status"][extra["portfolio_winner"]] == "sat"
    # both clocks are the run's: its CPU holds at least what the two children used
    assert row["solve_cpu_s"] >= sum(extra["portfolio_cpu_s"].values()) - 1e-3
    assert _children() == before  # the loser killed and reaped, the winner reaped


def test_a_graph_without_a_hamiltonian_cycle_is_proved_so_by_the_first_member():
    row = _run(nx.petersen_graph())
    assert row["status"] == "unsat"
    assert row["extra"]["portfolio_status"][row["extra"]["portfolio_winner"]] == "unsat"


def test_members_that_both_run_out_of_time_give_no_answer_and_both_reasons():
    row = _run(nx.circulant_graph(60, [1, 7]), {"members": "cegar+asp"}, time_s=1e-6)
    assert row["status"] in ("timeout", "unknown") and row["extra"]["portfolio_winner"] == ""
    assert row["extra"]["portfolio_status"] == {"cegar": "unknown", "asp": "unknown"}


def test_bad_members_are_one_line_naming_the_option():
    for text, said in (("asp", "two configurations joined by '+'"), ("asp+", "two configurations"),
                       ("portfolio+asp", "is a portfolio itself"), ("nothing+asp", "nothing")):
        with pytest.raises(ValueError, match=re.escape(said)):
            registry.create_for(f"portfolio:members={text}", "graph")


def test_cores_per_run_gives_each_job_its_own_group_of_cores():
    assert cores.core_sets(2, [0, 1, 2, 3, 4], per_run=2) == ([[1, 2], [3, 4]], [0])
    assert cores.core_sets(2, [0, 1, 2], per_run=2) == ([], [0, 1, 2])  # too few: nothing pinned
    assert cores.core_sets(3, [0, 1, 2, 3]) == ([[1], [2], [3]], [0])


def test_a_sweep_with_two_cores_per_run_pins_the_portfolio_to_both(tmp_path):
    from harness.run import cli as run_cli

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one core here")
    db, graph = tmp_path / "runs.sqlite", tmp_path / "prism.hcp"
    n = 12  # the prism C_6 x K_2 as an HCP file
    edges = [(i, (i + 1) % 6) for i in range(6)] + [(6 + i, 6 + (i + 1) % 6) for i in range(6)] + [
        (i, i + 6) for i in range(6)]
    graph.write_text(f"NAME : prism\nTYPE : HCP\nDIMENSION : {n}\nEDGE_DATA_FORMAT : EDGE_LIST\n"
                     "EDGE_DATA_SECTION\n" + "".join(f"{u + 1} {v + 1}\n" for u, v in edges) + "-1\nEOF\n")
    argv = ["--encoding", "portfolio", "--instances", str(graph), "--cores-per-run", "2", "--db", str(db)]
    assert run_cli.main(argv) == 0
    import sqlite3

    with sqlite3.connect(db) as conn:
        status, extra = conn.execute("SELECT status, extra FROM runs").fetchone()
        config = json.loads(conn.execute("SELECT config FROM sweeps").fetchone()[0])
    extra = json.loads(extra)
    assert status == "solved" and extra["portfolio_cores"] == 2 and len(extra["cores"].split(",")) == 2
    assert config["cores_per_run"] == 2
    assert run_cli.main(["--encoding", "portfolio", "--instances", str(graph), "--cores-per-run", "0",
                         "--db", str(db)]) == 2


def test_the_members_run_on_every_graph_of_a_small_family_and_agree_with_brute_force():
    for n in (4, 5, 6):
        for edges in itertools.islice(itertools.combinations(itertools.combinations(range(n), 2), n + 1), 6):
            graph = nx.Graph(list(edges))
            graph.add_nodes_from(range(n))
            row = _run(graph)
            hamiltonian = any(all(graph.has_edge(p[i], p[(i + 1) % n]) for i in range(n))
                              for p in itertools.permutations(range(n)) if p[0] == 0)
            assert row["status"] == ("solved" if hamiltonian else "unsat"), (n, edges)
