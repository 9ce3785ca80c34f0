"""Every clause of a logged CNF judged or made again: what a certificate covers besides the DRAT refutation.

By its mark (the comment line before it):
- unmarked: a base clause; together they must be exactly the clauses the encoding's code makes for
  the puzzle and the run's options (`harness.proof.base`, compared as a multiset), and the `c edge`
  lines exactly its numbering, which must name the kind's own edges (`harness.kinds.demands`);
- `c face`: the faces' colouring `colour=late` adds mid-run: all of them exactly, only under `late`;
- `c cut`: judged against what the kind states of every answer (`harness.proof.cuts`);
- `c exclude`: only in a uniqueness proof (an `answer` given), exactly once, and exactly the
  negation of that answer's edges as the kind reads them (rules' variables for kinds without a loop).
Without a puzzle nothing can be judged: every clause is counted `unjudged`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from harness.kinds.demands import stated
from harness.proof.base import key, made, options_of
from harness.proof.cuts import check_cuts, edge_names
from harness.proof.drat import Cnf
from harness.prooflog import CUT, EXCLUDE, FACE, MARKS, mark_line

SHOWN = 3  # differing clauses named in a problem


@dataclass
class Contents:
    """What was judged of the CNF: counts by mark, and `problems`, one line each (empty: all holds)."""

    base: int = 0
    faces: int = 0
    cuts: int = 0
    excluded: int = 0
    unjudged: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.unjudged

    def summary(self) -> str:
        head = (f"{self.base} base clauses, {self.faces} face clauses, {self.cuts} cuts, "
                f"{self.excluded} excluded answers")
        if self.unjudged:
            return f"{self.unjudged} clauses unjudged (no puzzle): {head}"
        if not self.problems:
            return f"clauses judged: {head}"
        return f"invalid CNF: {len(self.problems)} problems ({head}); first: {self.problems[0]}"


def mark_of(notes: list[str]) -> str:
    """The mark of a clause (`CUT`, ...) from the comment lines before it; "" for a base clause."""
    return next((m for m in MARKS if mark_line(m) in notes), "")


def judge(cnf: Cnf, puzzle: Any, options: dict[str, Any] | None = None, answer: str | None = None,
          deadline: float | None = None, encoding: str = "sat") -> Contents:
    """Judge or make again every clause of `cnf` (see the module docstring).

    `answer`: the answer a uniqueness proof rules out (the run's reported one), None for an unsat proof;
    `deadline`: a `time.process_time()` instant where judging cuts stops (`check_cuts`); `encoding`: the
    one whose run logged the proof (its base clauses are made again, `harness.proof.base.made`).
    """
    by_mark: dict[str, list[int]] = {m: [] for m in ("", *MARKS)}
    for k, notes in enumerate(cnf.notes):
        by_mark[mark_of(notes)].append(k)
    out = Contents(len(by_mark[""]), len(by_mark[FACE]), len(by_mark[CUT]), len(by_mark[EXCLUDE]))
    if puzzle is None:
        out.unjudged = len(cnf.clauses)
        return out
    expected = made(puzzle, options, encoding)
    if expected is None:
        out.problems.append(f"{puzzle.kind}: no encoding's clauses to make again for this kind")
        return out
    problems = out.problems
    problems += _numbering(cnf, expected.edges, puzzle)
    problems += _same(cnf, by_mark[""], expected.base, "base clauses")
    colour = options_of(options, encoding).get("colour", "off")
    if by_mark[FACE] and colour != "late":
        problems.append(f"line {cnf.lines[by_mark[FACE][0]]}: `c face` clauses in a run with colour={colour}")
    elif by_mark[FACE]:
        problems += _same(cnf, by_mark[FACE], expected.faces, "face clauses")
    problems += _exclusions(cnf, by_mark[EXCLUDE], answer, expected, puzzle)
    if not problems:  # cuts are judged on the kind's edges, once the numbering is known to be right
        problems += check_cuts(cnf, puzzle, deadline).problems
    return out


def _numbering(cnf: Cnf, edges: list[tuple[int, int]], puzzle: Any) -> list[str]:
    """The `c edge` lines, in order, against the encoding's numbering and the kind's edges."""
    names = edge_names(cnf)
    listed = [names.get(var) for var in range(1, len(names) + 1)]
    if listed != edges or len(names) != len(edges):
        first = next((i for i, (a, b) in enumerate(zip(listed, edges, strict=False)) if a != b),
                     min(len(listed), len(edges)))
        return [f"the `c edge` lines are not the encoding's numbering of the puzzle's edges (first differing "
                f"variable {first + 1}; {len(names)} lines for {len(edges)} edges)"]
    kind = stated(puzzle)
    if kind is not None and {(u, v) if u < v else (v, u) for u, v in edges} != kind.edges:
        return ["the encoding's edges are not the edges of the puzzle's kind"]
    return []


def _same(cnf: Cnf, positions: list[int], expected: Counter, what: str) -> list[str]:
    """"Problems when the clauses at `positions` are not exactly `expected` (as a multiset)."""
    found = Counter(key(cnf.clauses[k]) for k in positions)
    if found == expected:
        return []
    extra, missing = found - expected, expected - found
    out = []
    if extra:
        lines = [cnf.lines[k] for k in positions if key(cnf.clauses[k]) in extra][:SHOWN]
        out.append(f"{sum(extra.values())} {what} the encoding's code does not make for this puzzle and "
                   f"these options (lines {', '.join(map(str, lines))})")
    if missing:
        shown = "; ".join(" ".join(map(str, c)) for c in list(missing)[:SHOWN])
        out.append(f"{sum(missing.values())} {what} the encoding's code makes are missing (such as {shown})")
    return out


def _exclusions(cnf: Cnf, positions: list[int], answer: str | None, expected: Any,
                puzzle: Any) -> list[str]:
    if answer is None:
        if positions:
            return [f"line {cnf.lines[positions[0]]}: `c exclude` in a proof that is not a uniqueness proof"]
        return []
    if len(positions) != 1:
        return [f"a uniqueness proof holds {len(positions)} `c exclude` clauses, not one"]
    k = positions[0]
    clause = key(cnf.clauses[k])
    if expected.exclude is not None:
        wanted = expected.exclude(answer)
    else:
        kind = stated(puzzle)
        if kind is None:
            return [f"line {cnf.lines[k]}: {puzzle.kind} states no edges to read the answer by"]
        var = {(u, v) if u < v else (v, u): var for var, (u, v) in edge_names(cnf).items()}
        try:
            wanted = key([-var[edge] for edge in kind.read(answer)])
        except (KeyError, ValueError) as exc:
            return [f"line {cnf.lines[k]}: the reported answer cannot be read as the puzzle's edges ({exc})"]
    if clause != wanted:
        return [f"line {cnf.lines[k]}: the `c exclude` clause is not the negation of the reported answer"]
    return []
