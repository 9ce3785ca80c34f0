"""The project's DRAT proof checker: the formula and the proof read strictly, then every lemma judged.

The formula is read from DIMACS (`read_cnf`), the proof from text or binary DRAT (`read_drat`),
strictly: anything that is not a well-formed proof (a literal 0 in a binary step, an overlong or
truncated varint, a stray byte, a token that is not a canonical integer, a clause without its 0)
is a ProofFormatError naming the place; so is a header past 2^31 - 1 variables or, past a
million, past the literals the two files hold (`sized`: the check's memory is per variable). `check`
then judges it: a lemma must be RUP (assigning
its literals false and propagating gives a conflict) or, failing that, RAT on its first literal
(drat-trim's definition: for every clause C holding the negation of that literal, the lemma with
C's other literals is RUP). The proof is accepted at its first empty clause, which must itself be
RUP; a proof without one is rejected, whatever follows. A variable past the formula's may only
come as a lemma's first literal (an extension variable, defined by that RAT lemma), the next
unused one in turn; any other step naming one is rejected.
Two engines judge (`engine`): `minisat` (`harness.proof.forward`, the default: every lemma in
order, by MiniSat 2.2's propagation, every clause kept) and `python` (`harness.proof.backward`:
the project's own, backward and core-first, every lemma or with `core_only` only those the
refutation rests on, deletions honoured or not). Each lemma is checked once.
Deletions and incremental solving: CaDiCaL 1.9.5 moves clauses to its extension stack (variable
elimination, equivalent-literal substitution), logging their deletion, and when a clause added
after a solve touches such a variable it restores them without a line in the proof; later lemmas
rest on them, so with deletions honoured they fail (seen on slither-hard: `janko-sl-0690`,
`-0700`; with `elim=0 decompose=0` they pass). Keeping every clause ever added (deletions
ignored) is sound: each lemma is then checked against a superset of the clauses the proof says
are there, RUP only easier and RAT only stricter, and the growing set stays satisfiable if the
formula is. `deletions="auto"` (python engine) honours them, and where a lemma then fails checks
the whole proof again with every clause kept (`restored_at` names the line that failed);
`honour` never keeps; `ignore` keeps every clause from the start (the minisat engine always does).
Deletions of a clause that is not there, of a unit, or of the reason of a root literal are counted
and ignored, as drat-trim does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from harness.encoding import cpu_time
from harness.proof import backward, forward
from harness.proof.reasons import STOPPED


class ProofFormatError(ValueError):
    """A CNF or DRAT file that cannot be read: the message names the file, the line and the problem."""


@dataclass
class Cnf:
    """A DIMACS formula: its clauses in order, and per clause the comment lines just before it."""

    num_vars: int
    clauses: list[list[int]]
    notes: list[list[str]] = field(default_factory=list)  # notes[i]: comments right before clause i
    lines: list[int] = field(default_factory=list)  # lines[i]: the line where clause i ends
    comments: list[str] = field(default_factory=list)  # every comment line, in order
    source: str = ""  # the file it was read from, for messages ("" when made in memory)


@dataclass
class Step:
    """One proof line: a lemma (`delete` False) or a deletion, with its line (text) or number (binary)."""

    lits: list[int]
    delete: bool
    line: int


@dataclass
class Result:
    """The checker's verdict: `ok`, and otherwise `reason` (the first failing lemma, or no empty clause)."""

    ok: bool
    reason: str = ""
    lemmas: int = 0  # lemmas up to and including the empty clause
    checked: int = 0  # lemmas checked (all, or with `core_only` those the refutation rests on)
    core: int = 0  # lemmas the refutation rests on
    rat: int = 0  # lemmas that needed the RAT check (were not RUP)
    kept_all: bool = False  # every deletion ignored (`deletions`)
    restored_at: int = 0  # the proof line whose lemma failed with deletions honoured (`auto`), 0: none
    deletions: int = 0
    ignored_deletions: int = 0  # of clauses not there, or reasons of root literals
    seconds: float = 0.0  # CPU time of the check (`harness.encoding.cpu_time`)

    def summary(self) -> str:
        if self.ok:
            ignored = f"{self.ignored_deletions} ignored"
            if self.restored_at:
                ignored = f"all ignored: honoured, line {self.restored_at} failed"
            elif self.kept_all:
                ignored = "all ignored"
            return (f"verified: {self.lemmas} lemmas ({self.checked} checked, {self.core} in the core, "
                    f"{self.rat} RAT), {self.deletions} deletions ({ignored}), {self.seconds:.2f} s CPU")
        return f"not verified: {self.reason}"


# --- reading -------------------------------------------------------------------------------------------


def read_cnf(path: str | Path, text: str | None = None) -> Cnf:
    """The formula in `path` (or in `text`, named by `path`); ProofFormatError for a malformed file."""
    if text is None:
        text = _read_text(path)
    header, clauses, notes, lines, comments = None, [], [], [], []
    pending: list[str] = []
    clause: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] == "c":
            comments.append(stripped)
            pending.append(stripped)
            continue
        if stripped[0] == "p":
            parts = stripped.split()
            if header is not None or len(parts) != 4 or parts[1] != "cnf":
                raise ProofFormatError(f"{path}:{number}: expected one header `p cnf VARS CLAUSES`")
            try:
                header = (int(parts[2]), int(parts[3]))
            except ValueError:
                raise ProofFormatError(f"{path}:{number}: header counts must be integers") from None
            if min(header) < 0:
                raise ProofFormatError(f"{path}:{number}: header counts must be >= 0, not {stripped[:60]!r}")
            if header[0] > MAX_VARIABLE:
                raise ProofFormatError(f"{path}:{number}: the header's {str(header[0])[:30]} variables are "
                                       f"past the largest, {MAX_VARIABLE}")
            pending = []  # comments before the header (the `c edge` lines) belong to no clause
            continue
        if header is None:
            raise ProofFormatError(f"{path}:{number}: a clause before the `p cnf` header")
        try:
            numbers = [int(t) for t in stripped.split()]
        except ValueError:
            raise ProofFormatError(f"{path}:{number}: not a list of integers: {stripped[:40]!r}") from None
        for lit in numbers:
            if lit == 0:
                clauses.append(clause)
                notes.append(pending)
                lines.append(number)
                clause, pending = [], []
            elif abs(lit) > header[0]:
                raise ProofFormatError(f"{path}:{number}: literal {lit} beyond the header's {header[0]} "
                                       "variables")
            else:
                clause.append(lit)
    if header is None:
        raise ProofFormatError(f"{path}: no `p cnf` header")
    if clause:
        raise ProofFormatError(f"{path}: the last clause has no terminating 0")
    if len(clauses) != header[1]:
        raise ProofFormatError(f"{path}: the header says {header[1]} clauses, the file holds {len(clauses)}")
    return Cnf(header[0], clauses, notes, lines, comments, str(path))


def read_drat(path: str | Path, data: bytes | None = None) -> list[Step]:
    """The proof in `path` (or `data`), text or binary DRAT (`is_binary`), read strictly.

    ProofFormatError, naming the file, the line (text) or byte (binary) and the problem, for
    anything that is not a well-formed proof: a token that is not a canonical integer, `d` inside a
    clause, a clause without its terminating 0, a binary step that does not start with `a`/`d`, a
    literal 0 (`0x01`), a varint that is overlong, longer than 32 bits or cut short. Variables past
    the formula's are judged by `check` (a lemma may introduce one as its RAT pivot).
    """
    if data is None:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise ProofFormatError(f"{path}: cannot read ({exc.strerror})") from None
    if is_binary(data):
        return _read_binary(path, data)
    steps: list[Step] = []
    lits: list[int] = []
    delete, start = False, 0
    for number, line in enumerate(data.decode("ascii").splitlines(), 1):
        tokens = line.split()
        if not tokens or line.lstrip()[0] == "c":
            continue
        for token in tokens:
            if token == "d" and not delete:  # a deletion starts (line breaks are only white space)
                if lits:
                    raise ProofFormatError(f"{path}:{number}: `d` inside a clause (one lacks its 0)")
                delete, start = True, number
                continue
            if not _INTEGER.fullmatch(token):
                raise ProofFormatError(f"{path}:{number}: not a DRAT line: {line.strip()[:40]!r}")
            lit = int(token)
            if not lits and not delete:
                start = number
            if lit == 0:
                steps.append(Step(lits, delete, start))
                lits, delete = [], False
            elif abs(lit) > MAX_VARIABLE:
                raise ProofFormatError(f"{path}:{number}: literal {lit} past the largest variable, "
                                       f"{MAX_VARIABLE}")
            else:
                lits.append(lit)
    if lits or delete:
        raise ProofFormatError(f"{path}: the last proof line has no terminating 0 (truncated?)")
    return steps


def binary_to_text(data: bytes) -> str:
    """Binary DRAT (as CaDiCaL writes it) as text DRAT, one step a line."""
    out = []
    for step in _read_binary("<binary>", data):
        body = " ".join(map(str, [*step.lits, 0]))
        out.append("d " + body if step.delete else body)
    return "\n".join(out) + ("\n" if out else "")


def is_binary(data: bytes) -> bool:
    """Whether a proof is binary DRAT: it holds a byte that text DRAT (printable ASCII) never does.

    Every binary step ends with a 0x00 byte, so a well-formed binary proof is never taken for text;
    a text one never holds 0x00. Anything else either way fails to read, so it is rejected.
    """
    return bool(data) and (b"\0" in data or data[:1] == b"a" or not data.isascii()
                           or any(b < 32 and b not in b"\t\n\r\f\v" for b in data[:4096]))


MAX_VARIABLE = 2**31 - 1  # as DIMACS solvers read a variable: a signed 32-bit int
# Both engines size their tables by the formula's variables (about 250 bytes each in the python
# engine), so the header is taken on trust only this far: past it, the formula and the proof must
# hold at least as many literals as it declares variables (a dense numbering never needs more),
# and a file of a few bytes cannot ask for gigabytes (`sized`).
TRUSTED_VARIABLES = 1_000_000
_INTEGER = re.compile(r"-?[1-9][0-9]*|0")  # a literal as DIMACS writes it: no `+`, no `-0`, no leading 0


def _read_binary(path, data: bytes) -> list[Step]:
    """Binary DRAT: per step `a` or `d`, each literal as a varint of 2*var + sign, then a 0 byte.

    A 0 byte only ever ends a step (a varint's last byte holds its highest 7 bits, 0 only when
    overlong), so the steps are the pieces between 0 bytes. All literals are decoded at once with
    numpy; a proof that breaks any rule is read again piece by piece (`_pieces`) to name the first
    problem.
    """
    import numpy as np

    if not data:
        return []  # no step at all (as text DRAT reads an empty file)
    if not data.endswith(b"\0"):
        raise ProofFormatError(f"{path}: byte {len(data)}: the last step has no terminating 0 (truncated?)")
    raw = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(raw == 0)
    starts = np.concatenate(([0], ends[:-1] + 1))  # each step's marker
    body = np.ones(len(raw), dtype=bool)
    body[starts] = False
    body[ends] = False
    bytes_ = raw[body]
    last = bytes_ < 128  # a varint's last byte
    index = np.arange(len(bytes_), dtype=np.int32)
    begin = np.maximum.accumulate(np.where(np.concatenate(([True], last[:-1])), index, 0))
    position = index - begin  # a byte's place in its varint
    # a step's body (when it has one) ends with a varint's last byte; a marker is below 128 too
    bad = not np.isin(raw[starts], (97, 100)).all() or (raw[ends - 1] > 127).any() or (position > 4).any()
    if not bad:
        shifted = (bytes_ & 0x7F).astype(np.int64) << (7 * position).astype(np.int64)
        values = np.add.reduceat(shifted, np.flatnonzero(position == 0)) if len(bytes_) else shifted
        var = values >> 1
        bad = ((var == 0) | (var > MAX_VARIABLE)).any()
    if bad:
        return _pieces(path, data)
    lits = np.where(values & 1, -var, var).tolist()
    # literals before each step's 0: the varints ended among the body bytes before it
    ended = np.concatenate(([0], np.cumsum(last, dtype=np.int32)))[np.cumsum(body, dtype=np.int32)[ends]]
    steps: list[Step] = []
    append, at = steps.append, 0
    for number, (marker, upto) in enumerate(zip(raw[starts].tolist(), ended.tolist(), strict=True), 1):
        append(Step(lits[at:upto], marker == 100, number))
        at = upto
    return steps


def _pieces(path, data: bytes) -> list[Step]:
    """Binary DRAT read one step at a time, in pure Python: the first problem, named."""
    steps: list[Step] = []
    pieces = data.split(b"\0")
    if pieces[-1]:
        raise ProofFormatError(f"{path}: byte {len(data)}: the last step has no terminating 0 (truncated?)")
    offset = 0
    for number, piece in enumerate(pieces[:-1], 1):
        marker = piece[:1]
        if marker not in (b"a", b"d"):
            shown = f"byte 0x{piece[0]:02x}" if piece else "a 0 byte"
            raise ProofFormatError(f"{path}: byte {offset}: {shown} where a step's `a` or `d` should be")
        steps.append(Step(_varints(path, piece[1:], offset + 1), marker == b"d", number))
        offset += len(piece) + 1
    return steps


def _varints(path, body: bytes, offset: int) -> list[int]:
    """A step's literals (its body, first byte at `offset`): ProofFormatError for a bad one."""
    lits: list[int] = []
    value = shift = 0
    for byte in body:
        value |= (byte & 0x7F) << shift
        if byte & 0x80:
            shift += 7
            if shift > 28:
                _binary_problem(path, body, offset)
            continue
        var = value >> 1
        if not 0 < var <= MAX_VARIABLE:
            _binary_problem(path, body, offset)
        lits.append(-var if value & 1 else var)
        value = shift = 0
    if shift:
        _binary_problem(path, body, offset)
    return lits


def _binary_problem(path, body: bytes, offset: int) -> None:
    """Raise the error for the first bad literal of a step's body (its first byte at `offset`)."""
    start, value, shift = 0, 0, 0
    for k, byte in enumerate(body):
        value |= (byte & 0x7F) << shift
        if byte & 0x80:
            shift += 7
            if shift > 28:
                raise ProofFormatError(f"{path}: byte {offset + start}: a varint longer than 32 bits")
            continue
        if value >> 1 == 0:
            raise ProofFormatError(f"{path}: byte {offset + start}: literal 0 (0x{value:02x}) inside a step")
        if value >> 1 > MAX_VARIABLE:
            raise ProofFormatError(f"{path}: byte {offset + start}: literal past the largest variable, "
                                   f"{MAX_VARIABLE}")
        start, value, shift = k + 1, 0, 0
    if shift:  # a 0 byte only ends a step, so an overlong varint (last byte 0) ends here too
        raise ProofFormatError(f"{path}: byte {offset + len(body)}: a literal cut short by the step's end "
                               "(a truncated or overlong varint)")


def _read_text(path) -> str:
    try:
        return Path(path).read_text(encoding="ascii", errors="replace")
    except OSError as exc:
        raise ProofFormatError(f"{path}: cannot read ({exc.strerror})") from None


# --- checking ------------------------------------------------------------------------------------------


DELETIONS = ("auto", "honour", "ignore")


ENGINES = ("auto", "minisat", "python")


def check(cnf: Cnf, steps: list[Step], rat: bool = True, deletions: str = "auto",
          deadline: float | None = None, core_only: bool = False, engine: str = "auto") -> Result:
    """Whether `steps` refute `cnf` (see the module docstring); `rat=False` rejects every non-RUP lemma.

    ProofFormatError, before anything is allocated, where the formula declares more variables than
    it and the proof can use (`sized`).

    `engine`: `minisat` (`harness.proof.forward`: every lemma, in order, deletions ignored) or
    `python` (`harness.proof.backward`: in reverse, deletions as `deletions` says, every lemma or with
    `core_only` those the refutation rests on); `auto`: `python` where `deletions="honour"` or
    `core_only` asks for it, else `minisat`.
    `deadline`: a `time.process_time()` instant; past it the check stops, not verified (`STOPPED`).
    """
    if deletions not in DELETIONS:
        raise ValueError(f"deletions: {deletions!r} is not one of {', '.join(DELETIONS)}")
    if engine not in ENGINES:
        raise ValueError(f"engine: {engine!r} is not one of {', '.join(ENGINES)}")
    if engine == "auto":
        engine = "python" if deletions == "honour" or core_only else "minisat"
    if engine == "minisat" and (deletions == "honour" or core_only):
        raise ValueError("the minisat engine checks every lemma and keeps every clause: "
                         "deletions=honour and core_only need engine=python")
    start = cpu_time()
    sized(cnf, steps)
    result = Result(False, kept_all=deletions == "ignore")
    num_vars, unknown = _variables(cnf, steps)
    if unknown:
        result.reason = unknown
    elif engine == "minisat":
        forward.run(cnf.clauses, steps, num_vars, rat=rat, deadline=deadline, result=result)
    else:
        backward.run(cnf.clauses, steps, num_vars, rat=rat, deletions=deletions, core_only=core_only,
                     deadline=deadline, result=result)
        if not result.ok and deletions == "auto" and result.reason.startswith("proof line"):
            # CaDiCaL restores clauses it deleted, unlogged (module docstring): try them all kept
            kept = Result(False, kept_all=True, restored_at=int(result.reason.split()[2].rstrip(":")))
            backward.run(cnf.clauses, steps, num_vars, rat=rat, deletions="ignore", core_only=core_only,
                         deadline=deadline, result=kept)
            if kept.ok or not kept.reason.startswith(STOPPED):
                result = kept
    result.seconds = cpu_time() - start
    return result


def sized(cnf: Cnf, steps: list[Step]) -> None:
    """ProofFormatError where the header's variables are past MAX_VARIABLE, or past TRUSTED_VARIABLES
    and more than the formula and the proof hold literals: what a check would allocate for them is
    then more than the files need. (A proof's own new variables are bounded by its steps, `_variables`.)"""
    where = cnf.source or "the CNF"
    if cnf.num_vars > MAX_VARIABLE:
        raise ProofFormatError(f"{where}: the header's {cnf.num_vars} variables are past the largest, "
                               f"{MAX_VARIABLE}")
    if cnf.num_vars <= TRUSTED_VARIABLES:
        return
    literals = sum(map(len, cnf.clauses)) + sum(len(step.lits) for step in steps)
    if cnf.num_vars > literals:
        raise ProofFormatError(f"{where}: the header declares {cnf.num_vars} variables, but the formula and "
                               f"the proof hold only {literals} literals (past {TRUSTED_VARIABLES} variables "
                               "a header must not declare more than its files use)")


def _variables(cnf: Cnf, steps: list[Step]) -> tuple[int, str]:
    """The largest variable in use, and why a step names one it may not ("" when none does).

    A variable past the formula's may only come as a lemma's first literal (its RAT pivot: an
    extension variable, defined by that lemma), and only the next one (one past the largest so
    far, as extended resolution numbers them); after that it is known. Anything else naming a
    variable past the formula's, and past those so introduced, is no proof of this formula.
    """
    top = cnf.num_vars
    introduced: set[int] = set()
    for step in steps:
        lits = step.lits  # every step, those after the empty clause too: a proof is well-formed throughout
        if not lits:
            continue
        if max(lits) <= cnf.num_vars and -min(lits) <= cnf.num_vars:
            continue
        for k, lit in enumerate(lits):
            var = abs(lit)
            if var <= cnf.num_vars or var in introduced:
                continue
            if k == 0 and not step.delete and var == top + 1:
                introduced.add(var)
                top = max(top, var)
                continue
            how = ("in a deletion" if step.delete else "not as the lemma's first literal" if k
                   else f"not the next variable, {top + 1}")
            return top, (f"proof line {step.line}: variable {var} is past the formula's {cnf.num_vars} and "
                         f"not introduced before ({how}: only a lemma's pivot may introduce one, "
                         "the next in turn)")
    return top, ""
