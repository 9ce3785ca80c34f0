"""Backward DRAT checking: replay the proof once without checks, then check its lemmas in reverse.

The forward pass adds every clause and lemma to one database (two watched literals over a root
trail that only grows), applies deletions, and stops at the proof's first empty clause, which must
follow by propagation from the root. The conflict there is analysed: every clause it rests on
(the conflicting clause and the reasons of the root literals behind it) is marked. The backward
pass then walks the proof in reverse, undoing each step (a lemma leaves the database and the root
literals fixed since it came are unassigned; a deleted clause comes back), and checks each lemma
against the database as it stood when the lemma came: RUP (its negation propagates to a conflict,
and the clauses the conflict rests on are marked in turn), or else RAT on its first literal (each
resolvent with a clause holding the pivot's negation is RUP). `core_only` checks only marked
lemmas (drat-trim's default: a lemma nothing rests on cannot change the verdict); otherwise every
lemma is checked, marked or not, so a proof with any invalid lemma is rejected. Either way each
lemma is checked once. Propagation is core-first (marked clauses before others, as drat-trim), so
the marked part stays small.
Soundness does not rest on the watches: a conflict is only reported when every literal of a
clause is false, and a literal is only fixed by a clause whose other literals are all false.
Literals are plain ints and every per-literal list is indexed by the literal itself (Python's
negative indices put -l at the far end).
"""

from __future__ import annotations

import time

from harness.proof.reasons import STOPPED, failed

GONE, LIVE, DELETED = 0, 1, 2  # a clause's state: out for good (its watches are dropped), in, deleted


class Database:
    """Clauses with two watched literals, a root trail with reasons, and core marks."""

    def __init__(self, num_vars: int) -> None:
        size = 2 * num_vars + 1
        self.value = [0] * size  # value[l]: 1 true, -1 false, 0 unassigned
        self.reason = [-1] * (num_vars + 1)  # the clause that fixed a variable, -1: none (a decision)
        self.core_watch: list[list[int]] = [[] for _ in range(size)]  # marked clauses watching l
        self.watch: list[list[int]] = [[] for _ in range(size)]  # other clauses watching l
        self.clauses: list[list[int]] = []
        self.state = bytearray()
        self.marked = bytearray()
        self.trail: list[int] = []
        self.conflict = -1  # a clause false at the root, -1: none

    # --- the clause store ---------------------------------------------------------------------------

    def add(self, lits: list[int]) -> int:
        """Add a clause (literals unique) at the root, propagating what it fixes; its id."""
        cid = len(self.clauses)
        self.clauses.append(lits)
        self.state.append(LIVE)
        self.marked.append(0)
        if self.conflict >= 0:
            self._watch_best(cid)
            return cid
        value = self.value
        free = [lit for lit in lits if value[lit] != -1]
        self._watch_best(cid)
        if not free:
            self.conflict = cid
        elif len(free) == 1 and value[free[0]] == 0:
            head = len(self.trail)
            self._fix(free[0], cid)
            self.conflict = self.propagate(head)
        return cid

    def _watch_best(self, cid: int) -> None:
        """Watch the two literals that are best: true or unassigned first, then the latest false."""
        c = self.clauses[cid]
        if len(c) < 2:
            return
        value = self.value
        if value[c[0]] == -1 or value[c[1]] == -1:
            self._sort(c)
        self.watch[c[0]].append(cid)
        self.watch[c[1]].append(cid)

    def _sort(self, c: list[int]) -> None:
        """Non-false literals first, then false ones, the latest fixed first (unassigned first, then)."""
        value = self.value
        position = {lit: k for k, lit in enumerate(self.trail)}
        c.sort(key=lambda lit: -1 - position[-lit] if value[lit] == -1 else -10**12)

    def revive(self, cid: int) -> None:
        """A deleted clause back in (the backward pass, before its deletion).

        Its watch entries stayed in the lists while it was deleted; where its watches are no longer
        the best, new ones are added and the old become stale (dropped when met: not watching there).
        """
        self.state[cid] = LIVE
        c = self.clauses[cid]
        if len(c) < 2:
            return
        old = c[0], c[1]
        value = self.value
        if value[c[0]] == 1 or value[c[1]] == 1 or (value[c[0]] == 0 and value[c[1]] == 0):
            return
        self._sort(c)
        lists = self.core_watch if self.marked[cid] else self.watch
        for lit in (c[0], c[1]):
            if lit not in old:
                lists[lit].append(cid)

    def _fix(self, lit: int, cid: int) -> None:
        self.value[lit] = 1
        self.value[-lit] = -1
        self.reason[abs(lit)] = cid
        self.trail.append(lit)

    def unassign_to(self, size: int) -> None:
        value, trail = self.value, self.trail
        for lit in trail[size:]:
            value[lit] = value[-lit] = 0
        del trail[size:]

    # --- propagation ------------------------------------------------------------------------------

    def propagate(self, head: int) -> int:
        """Propagate the trail from `head`, marked clauses first; a conflicting clause's id, or -1."""
        value, trail, clauses, state, marked = self.value, self.trail, self.clauses, self.state, self.marked
        reason = self.reason
        core_head = head
        core_watch, watch = self.core_watch, self.watch
        lists = (core_watch, watch)
        while True:
            # every literal through the marked clauses, then one literal through the others
            while core_head < len(trail) or head < len(trail):
                if core_head < len(trail):
                    which, false = 0, -trail[core_head]
                    core_head += 1
                else:
                    which, false = 1, -trail[head]
                    head += 1
                ws = lists[which][false]
                i = j = 0
                end = len(ws)
                before = len(trail)
                while i < end:
                    cid = ws[i]
                    i += 1
                    s = state[cid]
                    if s != LIVE:
                        if s == DELETED:
                            ws[j] = cid
                            j += 1
                        continue
                    c = clauses[cid]
                    if c[0] == false:
                        c[0], c[1] = c[1], false
                    elif c[1] != false:  # stale: left from before the clause was deleted and revived
                        continue
                    here = True  # the entry stays in this list
                    if which and marked[cid]:  # marked since it was watched: the entry moves
                        core_watch[false].append(cid)
                        here = False
                    first = c[0]
                    if value[first] == 1:
                        if here:
                            ws[j] = cid
                            j += 1
                        continue
                    for k in range(2, len(c)):
                        lit = c[k]
                        if value[lit] != -1:
                            c[1], c[k] = lit, false
                            (core_watch if marked[cid] else watch)[lit].append(cid)
                            break
                    else:
                        if here:
                            ws[j] = cid
                            j += 1
                        if value[first] == -1:
                            ws[j:] = ws[i:end]
                            return cid
                        value[first] = 1
                        value[-first] = -1
                        reason[first if first > 0 else -first] = cid
                        trail.append(first)
                del ws[j:]
                if which and len(trail) > before:
                    break  # a new literal: back to the marked clauses
            if head >= len(trail) and core_head >= len(trail):
                return -1

    # --- checking ---------------------------------------------------------------------------------

    def mark_from(self, cid: int, floor: int = 0) -> None:
        """Mark `cid` and every clause its false literals rest on (reasons found on the trail)."""
        marked, reason, clauses, value = self.marked, self.reason, self.clauses, self.value
        seen: set[int] = set()
        todo = [cid]
        while todo:
            k = todo.pop()
            marked[k] = 1  # its watch entries move to the marked lists when next met
            for lit in clauses[k]:
                var = lit if lit > 0 else -lit
                if var in seen or value[lit] != -1:
                    continue
                seen.add(var)
                r = reason[var]
                if r >= 0:
                    todo.append(r)

    def rup(self, lits: list[int], mark: bool) -> bool:
        """Whether the negation of `lits` propagates to a conflict; `mark`: mark what it rests on."""
        if self.conflict >= 0:
            if mark:
                self.mark_from(self.conflict)
            return True
        value, reason = self.value, self.reason
        root = len(self.trail)
        conflict = -1
        for lit in lits:
            v = value[lit]
            if v == 1:  # true at the root (or, a tautology, by the negation of another literal)
                if mark:
                    self._mark_literal(lit)
                conflict = -2
                break
            if v == 0:
                value[lit], value[-lit] = -1, 1
                reason[abs(lit)] = -1
                self.trail.append(-lit)
        if conflict == -1:
            conflict = self.propagate(root)
            if conflict >= 0 and mark:
                self.mark_from(conflict)
        self.unassign_to(root)
        return conflict != -1

    def _mark_literal(self, lit: int) -> None:
        r = self.reason[abs(lit)]
        if r >= 0:
            self.mark_from(r)

    def rat(self, lits: list[int], mark: bool) -> bool:
        """drat-trim's RAT on the first literal: each resolvent with a live clause holding -pivot is RUP."""
        if not lits:
            return False
        pivot = lits[0]
        own = set(lits)
        for cid, clause in enumerate(self.clauses):
            if self.state[cid] != LIVE or -pivot not in clause:
                continue
            rest = [lit for lit in clause if lit != -pivot and lit not in own]
            if any(-lit in own for lit in rest):
                continue  # a tautology is implied by anything
            if not self.rup(lits + rest, mark):
                return False
            if mark and not self.marked[cid]:
                self.marked[cid] = 1
        return True


def run(clauses: list[list[int]], steps, num_vars: int, *, rat: bool, deletions: str, core_only: bool,
        deadline: float | None, result) -> None:
    """Check `steps` against `clauses` (see the module docstring), filling in `result` (a drat.Result)."""
    db = Database(num_vars)
    index: dict[tuple[int, ...], list[int]] = {}  # sorted literals -> live clause ids
    for clause in clauses:
        lits = list(dict.fromkeys(clause))
        index.setdefault(tuple(sorted(lits)), []).append(db.add(lits))
    honour = deletions != "ignore"
    # forward: per lemma (step, clause id, root trail length before it), per deletion (step, clause id, -1)
    done: list[tuple[int, int, int]] = []
    empty, conflict_at = -1, -1  # the empty clause's step; the `done` entry whose lemma conflicts at the root
    for k, step in enumerate(steps):
        if deadline is not None and not k % 1024 and time.process_time() >= deadline:
            result.reason = f"{STOPPED} at proof line {step.line} of {steps[-1].line}"
            return
        lits = list(dict.fromkeys(step.lits))
        key = tuple(sorted(lits))
        if step.delete:
            result.deletions += 1
            ids = index.get(key) if honour else None
            if not ids or len(lits) < 2 or any(db.value[lit] == 1 and db.reason[abs(lit)] == ids[-1]
                                               for lit in lits):
                result.ignored_deletions += 1  # absent, a unit, or the reason of a root literal
                continue
            cid = ids.pop()
            db.state[cid] = DELETED
            done.append((k, cid, -1))
            continue
        if not lits:
            empty = k
            break
        size = len(db.trail)
        had = db.conflict >= 0
        cid = db.add(lits)
        index.setdefault(key, []).append(cid)
        if not had and db.conflict >= 0:
            conflict_at = len(done)
        done.append((k, cid, size))
    if empty < 0:
        result.reason = "no empty clause: the proof ends without deriving it"
        return
    result.lemmas = result.checked = 1
    if db.conflict < 0:  # the root is propagated in full: the empty clause is not RUP
        result.reason = failed(steps[empty], rat)
        return
    db.mark_from(db.conflict)
    for n in range(len(done) - 1, -1, -1):
        k, cid, size = done[n]
        if deadline is not None and not n % 256 and time.process_time() >= deadline:
            result.reason = f"{STOPPED} at proof line {steps[k].line} (checking backward from line " \
                            f"{steps[empty].line})"
            return
        if size < 0:
            db.revive(cid)
            continue
        db.state[cid] = GONE
        if n == conflict_at:
            db.conflict = -1
        db.unassign_to(size)
        result.lemmas += 1
        if core_only and not db.marked[cid]:
            continue
        result.checked += 1
        lemma = list(dict.fromkeys(steps[k].lits))  # the proof's order: its first literal is the RAT pivot
        if db.rup(lemma, True):
            continue
        if rat and db.rat(lemma, True):
            result.rat += 1
            continue
        result.reason = failed(steps[k], rat)
        return
    result.core = sum(db.marked[cid] for _, cid, size in done if size >= 0)
    result.ok = True
