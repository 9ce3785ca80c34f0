"""The test tiers as documented: the README's test command is what CI runs; the tier markers registered."""

from __future__ import annotations

import re
from pathlib import Path

import conftest
import tomllib

ROOT = Path(__file__).resolve().parents[1]


def test_the_readmes_second_command_is_what_ci_runs():
    fence = re.search(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), re.S)[1]
    first, second = fence.strip().splitlines()  # exactly two commands, each doing its own set-up
    install = 'pip install -e ".[dev]" && '
    assert first.startswith(install) and second.startswith(install)
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert second in ci
    assert second.endswith("pytest --full")  # the full run: pytest alone is the default tier


def test_the_tiers_are_registered_and_the_timeout_pinned():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    ini = project["tool"]["pytest"]["ini_options"]
    assert "--strict-markers" in ini["addopts"].split()
    assert {m.split(":")[0] for m in ini["markers"]} == {"unit", "system", "slow"}
    assert float(ini["timeout"]) > conftest.UNIT_TIMEOUT_S > 0
    assert any(re.fullmatch(r"pytest-timeout==[\d.]+", d.split("#")[0].strip())
               for d in project["project"]["optional-dependencies"]["dev"])


def test_every_file_the_tiers_name_exists():
    here = {p.name for p in Path(__file__).parent.glob("test_*.py")}
    named = set(conftest.SYSTEM_FILES) | {k.split("::")[0] for k in [*conftest.SYSTEM_TESTS, *conftest.SLOW]}
    assert named <= here, named - here
