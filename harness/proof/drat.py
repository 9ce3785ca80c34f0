"""A DRAT proof checker of the project's own: forward checking with two watched literals, no solver package.

The formula is read from DIMACS (`read_cnf`), the proof from text or binary DRAT (`read_drat`).
`check` adds the formula's clauses, then walks the proof in order: a deletion removes one copy of
the clause (a deletion of a clause that is not there is counted and ignored, as drat-trim does; so
is the deletion of a clause that is the reason for a literal fixed at the root, since the root
trail here is never undone: keeping a clause only makes more lemmas RUP, so this is sound); a
lemma must be RUP (assigning its literals false and propagating gives a conflict) or, failing
that, RAT on its first literal (drat-trim's definition: for every clause C holding the negation
of that literal, the lemma with C's other literals is RUP). The proof is accepted at its first
empty clause, which must itself be RUP (propagation from the root conflicts); a proof without
one is rejected, whatever follows.
Deletions and incremental solving: CaDiCaL 1.9.5 moves clauses to its extension stack (variable
elimination, equivalent-literal substitution), logging their deletion, and when a clause added
after a solve touches such a variable it restores them without a line in the proof; later lemmas
rest on them, so with deletions honoured they fail (seen on slither-hard: `janko-sl-0690`,
`-0700`; with `elim=0 decompose=0` they pass). `deletions="auto"` therefore honours deletions
until a lemma fails: then, if no lemma so far needed RAT, every deleted clause comes back and
deletions are ignored from there on (`restored_at` names the line). Sound: with only RUP lemmas
every clause ever held is implied by the formula (after a RAT lemma it would not be, so then the
lemma fails); RAT checks after it see every clause, which is only stricter. `honour` never
restores; `ignore` keeps every clause from the start.
Literals are plain ints and every per-literal array is a list indexed by the literal itself
(Python's negative indices put -l at the far end), so no literal is ever translated.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path


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
    lemmas: int = 0  # lemmas checked (up to and including the empty clause)
    rat: int = 0  # lemmas that needed the RAT check (were not RUP)
    kept_all: bool = False  # every deletion ignored (`deletions`)
    restored_at: int = 0  # the proof line whose lemma needed deleted clauses back (`auto`), 0: none
    deletions: int = 0
    ignored_deletions: int = 0  # of clauses not there, or reasons of root literals
    seconds: float = 0.0

    def summary(self) -> str:
        if self.ok:
            ignored = f"{self.ignored_deletions} ignored"
            if self.kept_all:
                ignored = "all ignored"
            elif self.restored_at:
                ignored += f"; from line {self.restored_at} on, all: deleted clauses were needed"
            return (f"verified: {self.lemmas} lemmas ({self.rat} RAT), {self.deletions} deletions "
                    f"({ignored}), {self.seconds:.2f} s")
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
    return Cnf(header[0], clauses, notes, lines, comments)


def read_drat(path: str | Path, data: bytes | None = None) -> list[Step]:
    """The proof in `path` (or `data`), text or binary DRAT (told apart as drat-trim does: by its bytes)."""
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
    for number, line in enumerate(data.decode("ascii", "replace").splitlines(), 1):
        tokens = line.split()
        if not tokens or tokens[0] == "c":
            continue
        if tokens[0] == "d":
            if lits:
                raise ProofFormatError(f"{path}:{number}: `d` inside a clause (the line before lacks its 0)")
            delete, tokens = True, tokens[1:]
        try:
            numbers = [int(t) for t in tokens]
        except ValueError:
            raise ProofFormatError(f"{path}:{number}: not a DRAT line: {line.strip()[:40]!r}") from None
        if not lits:
            start = number
        for lit in numbers:
            if lit == 0:
                steps.append(Step(lits, delete, start))
                lits, delete, start = [], False, number
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
    """Whether a proof is binary DRAT."""
    # drat-trim's test: a byte that is neither printable text nor white space means binary.
    head = data[:64]
    return any(b not in b" \t\r\n-d0123456789c" and not 32 <= b < 127 for b in head) or head[:1] == b"a"


def _read_binary(path, data: bytes) -> list[Step]:
    steps: list[Step] = []
    i, n = 0, len(data)
    while i < n:
        marker = data[i]
        if marker not in (97, 100):  # 'a', 'd'
            raise ProofFormatError(f"{path}: byte {i}: expected `a` or `d` starting a binary DRAT step")
        i += 1
        lits: list[int] = []
        while True:
            if i >= n:
                raise ProofFormatError(f"{path}: byte {n}: the last step has no terminating 0 (truncated?)")
            byte = data[i]
            i += 1
            if byte == 0:
                break
            value, shift = byte & 0x7F, 7
            while byte & 0x80:
                if i >= n:
                    raise ProofFormatError(f"{path}: byte {n}: a literal cut short (truncated?)")
                byte = data[i]
                i += 1
                value |= (byte & 0x7F) << shift
                shift += 7
            lits.append(-(value >> 1) if value & 1 else value >> 1)
        steps.append(Step(lits, marker == 100, len(steps) + 1))
    return steps


def _read_text(path) -> str:
    try:
        return Path(path).read_text(encoding="ascii", errors="replace")
    except OSError as exc:
        raise ProofFormatError(f"{path}: cannot read ({exc.strerror})") from None


# --- checking ------------------------------------------------------------------------------------------


class _Checker:
    """The clause database with two watched literals over a root trail that only grows."""

    def __init__(self, num_vars: int) -> None:
        size = 2 * num_vars + 1
        self.value = [0] * size  # value[l]: 1 true, -1 false, 0 unassigned (value[-l] = -value[l])
        self.watches: list[list[int]] = [[] for _ in range(size)]  # clause ids watching literal l
        self.clauses: list[list[int] | None] = []  # None: deleted
        self.reason: dict[int, int] = {}  # root literal's variable -> the clause that fixed it
        self.trail: list[int] = []
        self.root_conflict = False
        self.index: dict[tuple[int, ...], list[int]] = {}  # sorted literals -> live clause ids
        self.dead: list[list[int]] = []  # deleted clauses, in case they are needed back

    def _assign(self, lit: int) -> None:
        self.value[lit] = 1
        self.value[-lit] = -1
        self.trail.append(lit)

    def propagate(self, head: int) -> bool:
        """Propagate the trail from `head`; False at a conflict."""
        value, watches, clauses, trail = self.value, self.watches, self.clauses, self.trail
        while head < len(trail):
            false = -trail[head]
            head += 1
            ws = watches[false]
            i = j = 0
            end = len(ws)
            while i < end:
                cid = ws[i]
                i += 1
                c = clauses[cid]
                if c is None:  # deleted: drop the watch
                    continue
                if c[0] == false:
                    c[0], c[1] = c[1], false
                first = c[0]
                if value[first] == 1:
                    ws[j] = cid
                    j += 1
                    continue
                for k in range(2, len(c)):
                    lit = c[k]
                    if value[lit] != -1:
                        c[1], c[k] = lit, false
                        watches[lit].append(cid)
                        break
                else:
                    ws[j] = cid
                    j += 1
                    if value[first] == -1:
                        while i < end:
                            ws[j] = ws[i]
                            j += 1
                            i += 1
                        del ws[j:]
                        return False
                    value[first] = 1
                    value[-first] = -1
                    trail.append(first)
                    if self.at_root:
                        self.reason[abs(first)] = cid
            del ws[j:]
        return True

    at_root = True

    def add(self, lits: list[int]) -> None:
        """Add a clause (formula or checked lemma) at the root, propagating what it fixes."""
        if self.root_conflict:
            return
        lits = list(dict.fromkeys(lits))
        key = tuple(sorted(lits))
        cid = len(self.clauses)
        self.index.setdefault(key, []).append(cid)
        value = self.value
        seen = set(lits)
        if any(value[lit] == 1 for lit in lits) or any(-lit in seen for lit in lits):
            # satisfied at the root for good (the root trail is never undone), or a tautology: watch any two
            if len(lits) >= 2:
                lits.sort(key=lambda lit: -value[lit])
                self.clauses.append(lits)
                self.watches[lits[0]].append(cid)
                self.watches[lits[1]].append(cid)
            else:
                self.clauses.append(lits)
            return
        free = [lit for lit in lits if value[lit] == 0]
        if not free:
            self.clauses.append(lits)
            self.root_conflict = True
            return
        lits.sort(key=lambda lit: value[lit] != 0)  # unassigned literals first
        self.clauses.append(lits)
        if len(lits) >= 2:
            self.watches[lits[0]].append(cid)
            self.watches[lits[1]].append(cid)
        if len(free) == 1:
            head = len(self.trail)
            self._assign(free[0])
            self.reason[abs(free[0])] = cid
            if not self.propagate(head):
                self.root_conflict = True

    def delete(self, lits: list[int]) -> bool:
        """Delete one copy of this clause; False when it is not there or fixes a root literal (ignored)."""
        ids = self.index.get(tuple(sorted(dict.fromkeys(lits))))
        if not ids:
            return False
        cid = ids[-1]
        clause = self.clauses[cid]
        for lit in clause:
            if self.value[lit] == 1 and self.reason.get(abs(lit)) == cid:
                return False
        ids.pop()
        self.clauses[cid] = None
        self.dead.append(clause)
        return True

    def restore(self) -> None:
        """Every deleted clause back (see `deletions="auto"`)."""
        dead, self.dead = self.dead, []
        for clause in dead:
            self.add(clause)

    def rup(self, lits: list[int]) -> bool:
        """Whether assigning every literal of `lits` false and propagating gives a conflict."""
        if self.root_conflict:
            return True
        value = self.value
        root = len(self.trail)
        conflict = False
        self.at_root = False
        for lit in lits:
            v = value[lit]
            if v == 1:  # a literal true at the root: the clause is implied
                conflict = True
                break
            if v == 0:
                self._assign(-lit)
        if not conflict:
            conflict = not self.propagate(root)
        for lit in self.trail[root:]:
            value[lit] = value[-lit] = 0
        del self.trail[root:]
        self.at_root = True
        return conflict

    def rat(self, lits: list[int]) -> bool:
        """drat-trim's RAT on the first literal: every resolvent on it with a live clause is RUP."""
        if not lits:
            return False
        pivot = lits[0]
        for clause in self.clauses:
            if clause is None or -pivot not in clause:
                continue
            resolvent = lits + [lit for lit in clause if lit != -pivot]
            if any(-lit in resolvent for lit in resolvent):
                continue  # a tautology is implied by anything
            if not self.rup(resolvent):
                return False
        return True


DELETIONS = ("auto", "honour", "ignore")
STOPPED = "check stopped at the time limit"


def check(cnf: Cnf, steps: list[Step], rat: bool = True, deletions: str = "auto",
          deadline: float | None = None) -> Result:
    """Whether `steps` refute `cnf` (see the module docstring); `rat=False` rejects every non-RUP lemma.

    `deadline`: a `time.process_time()` instant; past it the check stops, not verified (`stopped`).
    """
    if deletions not in DELETIONS:
        raise ValueError(f"deletions: {deletions!r} is not one of {', '.join(DELETIONS)}")
    keep_all = deletions == "ignore"
    start = time.perf_counter()
    num_vars = max([cnf.num_vars] + [abs(lit) for step in steps for lit in step.lits])
    db = _Checker(num_vars)
    for clause in cnf.clauses:
        db.add(clause)
    result = Result(False, kept_all=keep_all)
    for number, step in enumerate(steps):
        if deadline is not None and not number % 256 and time.process_time() >= deadline:
            result.reason = f"{STOPPED} at proof line {step.line} of {steps[-1].line}"
            break
        if step.delete:
            result.deletions += 1
            if keep_all:
                result.ignored_deletions += 1
            elif not db.delete(step.lits):
                result.ignored_deletions += 1
            continue
        result.lemmas += 1
        if not db.rup(step.lits) and deletions == "auto" and not keep_all and not result.rat and db.dead:
            db.restore()
            keep_all, result.restored_at = True, step.line
        if not db.rup(step.lits):
            if rat and db.rat(step.lits):
                result.rat += 1
            else:
                shown = " ".join(map(str, step.lits[:12])) + (" ..." if len(step.lits) > 12 else "")
                need = "neither RUP nor RAT" if rat else "not RUP (RAT not allowed)"
                result.reason = f"proof line {step.line}: lemma `{shown} 0` is {need}"
                result.seconds = time.perf_counter() - start
                return result
        if not step.lits:
            result.ok = True
            break
        db.add(step.lits)
    else:
        result.reason = "no empty clause: the proof ends without deriving it"
    result.seconds = time.perf_counter() - start
    return result

