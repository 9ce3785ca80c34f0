"""The one error type for bad input: it names the source, the line and the problem."""

from __future__ import annotations


class InstanceError(ValueError):
    """A puzzle that cannot be read; str() gives one line, `source:line: problem`."""

    def __init__(self, source: str, problem: str, line: int | None = None) -> None:
        self.source, self.problem, self.line = source, problem, line
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {problem}")
