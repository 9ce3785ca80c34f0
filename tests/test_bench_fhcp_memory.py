"""The FHCP memory benchmark refuses a corpus folder it cannot use in one line, before running anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "benchmarks" / "bench_fhcp_memory.py"


def run(corpus: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "--corpus", str(corpus), "--graphs", "1"],
                          capture_output=True, text=True, timeout=120)


def test_a_missing_folder_is_named_in_one_line(tmp_path):
    done = run(tmp_path / "nowhere")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert f"{tmp_path / 'nowhere'}: no such folder" in done.stderr


def test_a_folder_without_graphs_is_named_in_one_line(tmp_path):
    (tmp_path / "graph1.hcp").write_text("NAME : graph1\n")  # not gzip-compressed: not a graph*.hcp.gz
    done = run(tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == (f"bench_fhcp_memory: --corpus {tmp_path}: no graph*.hcp.gz in it "
                                   "(give the folder of FHCP's graphN.hcp.gz)")
