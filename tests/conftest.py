"""Fixtures shared by the test modules that drive real worker processes."""

from __future__ import annotations

import pytest

from harness.instances import load_file
from harness.run.supervise import Supervisor


@pytest.fixture
def empty_2x2(tmp_path):
    """A 2x2 Masyu without pearls, read from a file: one loop, the smallest puzzle a worker can solve."""
    path = tmp_path / "empty2.txt"
    path.write_text("2 2\n- -\n- -\n")
    return load_file(str(path))


@pytest.fixture
def supervisor():
    """A supervisor with its worker, closed (worker and its cgroup removed) after the test."""
    sup = Supervisor()
    yield sup
    sup.close()
