"""results/backstop_kills.py: results/README.md shows what it prints of the committed databases."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_results_readme_shows_what_the_script_prints() -> None:
    printed = subprocess.run([sys.executable, "results/backstop_kills.py"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    readme = (ROOT / "results/README.md").read_text()
    shown = readme.split("<!-- backstop_kills.py -->\n")[1].split("\n<!-- /backstop_kills.py -->")[0]
    assert shown == printed.rstrip("\n")
    assert "before their limit" in printed  # the total line
