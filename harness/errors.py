"""The one error type for bad input: it names the source, the line and the problem."""

from __future__ import annotations

# What a message quotes of a source or a problem at most: a hostile input (a 50 MB token, a
# URL of megabytes) must not be echoed whole into an error row's `detail`.
SOURCE_WIDTH, PROBLEM_WIDTH = 240, 480


# What `str.splitlines` splits on, escaped: a message is one line whatever its source holds.
_LINE_BREAKS = {ord(c): repr(c)[1:-1] for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"}


def cut(text: str, width: int) -> str:
    """`text` on one line (its line breaks escaped), or its first `width` characters and how long it was."""
    text = text if len(text) <= width else f"{text[:width]}... ({len(text):,} characters)"
    return text.translate(_LINE_BREAKS)


class InstanceError(ValueError):
    """A puzzle that cannot be read; str() gives one line, `source:line: problem`."""

    def __init__(self, source: str, problem: str, line: int | None = None) -> None:
        source, problem = cut(str(source), SOURCE_WIDTH), cut(problem, PROBLEM_WIDTH)
        self.source, self.problem, self.line = source, problem, line
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {problem}")
