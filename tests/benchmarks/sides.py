"""One side of an old-against-new benchmark: a worker process of one venv, its cwd in that side's tree."""

from __future__ import annotations

import json
import os
import subprocess


class Side:
    """`python script --worker` in `cwd` (that tree's `harness` and `loopbench_encodings`, not this one's:
    PYTHONPATH emptied), answering one JSON request per line."""

    def __init__(self, script: str, python: str, cwd: str) -> None:
        self.proc = subprocess.Popen([python, script, "--worker"], text=True, cwd=cwd,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env={**os.environ, "PYTHONPATH": ""})

    def run(self, request: dict) -> dict:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()
