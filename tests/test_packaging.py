"""The project installs from its own files: a wheel holds every sub-package and the bundled sets."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from harness import sets

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--quiet", "-w", str(out), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (path,) = out.glob("loopbench-*.whl")
    return zipfile.ZipFile(path)


def test_the_wheel_holds_every_code_folder_as_a_package(wheel):
    names = set(wheel.namelist())
    for top, installed in (("harness", "harness"), ("encodings", "loopbench_encodings")):
        for source in (ROOT / top).rglob("*.py"):
            if "__pycache__" not in source.parts:
                relative = source.relative_to(ROOT / top).as_posix()
                assert f"{installed}/{relative}" in names, relative


def test_the_wheel_holds_the_bundled_sets(wheel):
    names = set(wheel.namelist())
    shipped = [p for p in (ROOT / "instances").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert len(shipped) > 10
    for path in shipped:
        assert f"loopbench_instances/{path.relative_to(ROOT / 'instances').as_posix()}" in names, path


def test_the_sets_are_found_as_package_data():
    assert (sets.INSTANCES_DIR / "sets.json").is_file()
    assert sets.INSTANCES_DIR.resolve() == (ROOT / "instances").resolve()  # this checkout's, as a package


def test_the_wheel_holds_the_report_assets(wheel):
    names = set(wheel.namelist())
    assert {"harness/report/report.js", "harness/report/report.css"} <= names
