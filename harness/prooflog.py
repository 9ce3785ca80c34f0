"""The proof-record format, a leaf the encodings that log proofs and the checker that judges them both import.

An encoding run with `proof=true` makes a `Recorder`, hands it each batch of clauses it gives
the solver (`add`; lazily added ones marked `CUT`, excluded answers `EXCLUDE`, the faces
`colour=late` adds mid-run `FACE`), and on `unsat` puts `recorder.proof(solver)` in its stats
under `proof`. Its CNF is DIMACS: one `c edge VAR U V` comment per edge variable (U, V: the edge's
ends as the kind numbers them), the `p cnf` header (variables: the largest used), then the clauses
in the order given, each marked clause preceded by its comment line (`mark_line(mark)`: `c cut`,
`c exclude`, `c face`); the text is made when written, never during the solve. The DRAT is what
CaDiCaL 1.9.5 wrote through PySAT's `with_proof=True`, read from its trace file as binary.
The checker (`harness.proof`) reads the marks from here, never from an encoding.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

PROOF_SOLVERS = ("cadical195",)  # solvers whose DRAT trace has been checked here (harness.proof.drat)
CUT, EXCLUDE, FACE = "cut", "exclude", "face"  # a clause added lazily, an excluded answer, a late face
MARKS = (CUT, EXCLUDE, FACE)
EDGE = "edge"  # the comment naming an edge variable: `c edge VAR U V`


def mark_line(mark: str) -> str:
    """The comment line that precedes a clause marked `mark` (`c cut`)."""
    return f"c {mark}"


def refuse_unproved(solver: str) -> None:
    """Raise ValueError where `solver` logs no proof checked here (an encoding's `proof=true` with it)."""
    if solver not in PROOF_SOLVERS:
        raise ValueError(f"proof=true needs {', '.join(PROOF_SOLVERS)}, not {solver}")


@dataclass
class Proof:
    """A refutation as the solver gave it: the clauses (with marks and edge names) and the DRAT trace.

    The DIMACS text is made only when asked (`dimacs`); a check in the same process reads the
    clauses as they are (`harness.proof.certify.cnf_of`), so logging costs the solve no text.
    """

    clauses: list[list[int]]
    marks: dict[int, str]  # clause position -> its mark (`CUT`, `EXCLUDE`, `FACE`)
    edges: Sequence[tuple[int, int]]  # edges[i]: the ends of variable i + 1
    drat: bytes  # binary or text DRAT

    def header_lines(self) -> list[str]:
        top = max((max(max(clause), -min(clause)) for clause in self.clauses if clause), default=0)
        return [*(f"c {EDGE} {i + 1} {u} {v}" for i, (u, v) in enumerate(self.edges)),
                f"p cnf {top} {len(self.clauses)}"]

    def dimacs(self) -> str:
        lines = self.header_lines()
        marks = self.marks
        for k, clause in enumerate(self.clauses):
            if k in marks:
                lines.append(mark_line(marks[k]))
            lines.append(" ".join(map(str, [*clause, 0])))
        return "\n".join(lines) + "\n"


class Recorder:
    """The clauses given to one solver, in order, with their marks, and the names of the edge variables."""

    def __init__(self, edges: Sequence[tuple[int, int]] = ()) -> None:
        self.edges = edges  # edges[i]: the ends of variable i + 1, as the kind numbers its vertices
        self.clauses: list[list[int]] = []
        self.marks: dict[int, str] = {}  # clause position -> its mark

    def add(self, clauses: Iterable[list[int]], mark: str | None = None,
            marked: Iterable[list[int]] = ()) -> None:
        """Record these clauses: every one marked `mark`, or those in `marked` (same objects) `EXCLUDE`."""
        start = len(self.clauses)
        self.clauses.extend(clauses)
        if mark:
            self.marks.update(dict.fromkeys(range(start, len(self.clauses)), mark))
        ids = {id(clause) for clause in marked}
        if ids:
            added = range(start, len(self.clauses))
            self.marks.update({k: EXCLUDE for k in added if id(self.clauses[k]) in ids})

    def proof(self, solver, drat: bytes | None = None) -> Proof:
        """The clauses and the DRAT trace of `solver` (a PySAT CaDiCaL made with `with_proof=True`)."""
        return Proof(self.clauses, self.marks, self.edges, trace(solver) if drat is None else drat)


def trace(solver) -> bytes:
    """The binary DRAT CaDiCaL has written so far, read straight from PySAT's trace file.

    PySAT's own `get_proof()` turns it into text a byte at a time in Python; reading the file is the
    same data without that loop (the checker reads binary DRAT as it is).
    """
    from pysolvers import flushpr

    inner = solver.solver
    flushpr(inner.prfp)
    inner.prfile.seek(0)
    return inner.prfile.read()
