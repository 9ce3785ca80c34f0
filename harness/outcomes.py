"""A run's outcome in layers, one enumeration each, and the one place they compose into the status shown.

As BenchExec keeps the tool's word (`tools/*`), the run's fate (`model.py`) and the result
(`result.py`) apart:
- `Answer`: what an encoding says, the solver's word only (`harness.encoding.Outcome`; also a
  bundle's known answer, `sat` or `unsat`).
- `Status`: a run as stored (the `status` column, docs/FORMATS.md): the checker's `solved` or
  `wrong` over a `sat` answer (`judged`), the encoding's `unsat` and `unknown`, the runner's
  `timeout`, `memout` and `crash` over any of them (`LATE`), the harness's `error`.
- `Verdict`: an `unsat` or uniqueness claim judged across the database (`harness.analysis.verdicts`).
- `Shown`: what a summary counts and a report shows (`shown`): the stored status, with an unsat
  claim's verdict folded in.
- the proof checker's word on a logged proof (`extra`'s `proof`): `PROOF_CERTIFIED`, or why not.
The words are the database's and the docs' contract: an enumeration declares each once, every
reader compares with its members, and the strings stored stay exactly these.
"""

from __future__ import annotations

from enum import Enum


class Word(str, Enum):
    """A word that is a `str` (it compares, hashes, prints and is stored as its value)."""

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


class Answer(Word):
    """What an encoding's `solve` says (and a known answer: `SAT` or `UNSAT`)."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"  # stopped without a verdict
    UNSUPPORTED = "unsupported"  # the encoding cannot take this puzzle after all


class Status(Word):
    """A run's `status` column."""

    SOLVED = "solved"  # a solution the checker accepted (`verified` 1)
    UNSAT = "unsat"
    TIMEOUT = "timeout"
    MEMOUT = "memout"
    CRASH = "crash"
    WRONG = "wrong"  # a solution the checker rejects, or an unsat claim a known answer contradicts
    ERROR = "error"  # bad input: the puzzle, an option, a kind the encoding does not serve
    UNKNOWN = "unknown"


# The runner's words: what happened to the run, whatever the encoding said.
STOPS = (Status.TIMEOUT, Status.MEMOUT, Status.CRASH)
# Statuses the runner turns into a timeout when the answer came past the CPU limit (a wrong one stays).
LATE = (Status.SOLVED, Status.UNSAT, Status.UNKNOWN)
# The detail of an unsat claim a known solution or known answer contradicts (status `wrong`).
AGAINST_KNOWN = "claimed unsat"


# The proof checker's word on a logged proof (`extra`'s `proof`, `unique_proof`; harness.proof.certify):
# `certified`, `unchecked: why` (it judged nothing wrong but stopped), or any other text: a rejection.
PROOF_CERTIFIED, PROOF_UNCHECKED = "certified", "unchecked"


def rejected(proof: object) -> bool:
    """Whether a proof's word says the proof or its CNF was judged and found wrong: anything but
    `certified` and `unchecked: ...` (the claim it backs is then `Verdict.SUSPECT`)."""
    return isinstance(proof, str) and proof != PROOF_CERTIFIED and not proof.startswith(PROOF_UNCHECKED)


class Verdict(Word):
    """An unsat claim, or a uniqueness claim, judged across every run of its puzzle (first match wins)."""

    REFUTED = "refuted"  # a verified solution exists
    SUSPECT = "suspect"  # the run's own proof was judged and rejected
    CERTIFIED = "certified"  # the run's own proof was checked
    CONFIRMED = "confirmed"  # another model family agrees, or the instance is known unsat
    UNPROVEN = "unproven"  # one model's word alone


class Shown(Word):
    """The status a summary counts and the report shows, in the order of the summary's columns."""

    SOLVED = "solved"
    WRONG = "wrong"  # the stored `wrong`, and a refuted unsat claim
    UNSAT = "unsat"  # a confirmed unsat claim
    CERTIFIED = "certified"  # an unsat claim a checked proof backs
    UNPROVEN = "unproven"
    SUSPECT = "suspect"
    TIMEOUT = "timeout"
    MEMOUT = "memout"
    CRASH = "crash"
    ERROR = "error"
    UNKNOWN = "unknown"


# An unsat claim's verdict -> what it shows as.
_CLAIM = {Verdict.REFUTED: Shown.WRONG, Verdict.SUSPECT: Shown.SUSPECT, Verdict.CERTIFIED: Shown.CERTIFIED,
          Verdict.CONFIRMED: Shown.UNSAT, Verdict.UNPROVEN: Shown.UNPROVEN}
# The unsat claims that count as answers (PAR-2), beside a verified solution: confirmed or certified.
ANSWERING = (Verdict.CONFIRMED, Verdict.CERTIFIED)


def judged(answer: str, accepted: bool | None = None) -> Status:
    """The status of an encoding's answer: a `sat` answer is `solved` if the checker `accepted` it, else
    `wrong`; `unsupported` is the harness's `error`; `unsat` and `unknown` stand as said. (An unsat claim
    a known answer contradicts is `wrong` too: the caller knows the instance.)"""
    answer = Answer(answer)
    if answer is Answer.SAT:
        return Status.SOLVED if accepted else Status.WRONG
    return {Answer.UNSAT: Status.UNSAT, Answer.UNKNOWN: Status.UNKNOWN,
            Answer.UNSUPPORTED: Status.ERROR}[answer]


def shown(status: str, verdict: object = None) -> Shown:
    """The status a row shows: an `unsat` run as its claim's `verdict` says (`unsat` when there is none
    to fold in, as for runs judged nowhere), any other stored status as it is. An unknown word raises."""
    try:
        return _SHOWN[status, verdict if isinstance(verdict, str) else None]
    except KeyError:
        raise ValueError(f"status {status!r} with verdict {verdict!r}: not harness.outcomes' words") from None


# Every (status, verdict) pair a row can hold, composed once (a summary looks up one per run).
_SHOWN = {(status.value, verdict): _CLAIM[verdict] if status is Status.UNSAT and verdict
          else Shown(status.value) for status in Status for verdict in (None, *Verdict)}
