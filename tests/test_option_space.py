"""The declared option space walked per kind: for every encoding in the registry with options that take
choices, on every kind it serves that has a smoke set, every option value the declarations accept
changes the model or the search there (no option that does nothing enters a run key).

From each kind's own defaults, each other value of each option with choices, one at a time: either the
declarations refuse it on that kind (it does nothing there, or breaks a rule), or the runs on the kind's
puzzles (the smoke set's first four, or harder ones where those are solved before a value can act:
`HARDER`) differ from the defaults' in their answers or search statistics (conflicts, cuts, clauses,
variables and the rest; times and what the worker kept from an earlier run, `shape_reused`, aside).
Left out: `proof=true`, which changes what is recorded (the proof of an unsat answer, tests/test_proof*.py
check it), not the search; `dummy`, a test double whose options script its outcome; `cpsat` and `dfs`,
whose options take no choices. The values that change nothing for a reason the declarations cannot say
(a value, not an option, idle on a kind) are `EXCEPTIONS`, each with its reason; those changing nothing for
no reason found are `UNEXPLAINED`, kept visible for the lead.
"""

from __future__ import annotations

import json

import pytest

from harness import options, registry, sets
from harness.encoding import Limits

RECORDS_ONLY = {"proof"}
LIMITS = Limits(time_s=20.0)
SKIPPED = {"dummy",  # a test double: its options script the outcome
           "command"}  # its program is the user's: tests/test_command.py gives it one, input= too
# every kind with a smoke set, and the set
SMOKE = {"masyu": "masyu-smoke", "slitherlink": "slither-smoke", "graph": "graph-smoke",
         "walls": "walls-smoke", "marupeke": "marupeke-smoke", "castlewall": "castlewall-smoke",
         "country": "country-smoke",
         "geradeweg": "geradeweg-smoke", "moonsun": "moonsun-smoke", "yajilin": "yajilin-smoke"}
# puzzles where the smoke set's first four are solved before some value can act (no conflict, or one round)
HARDER = {
    # amo acts above PAIRWISE_MAX arcs at a vertex: the knight's graph (degree 8); asp's configurations
    # differ once clingo meets conflicts
    ("eager", "graph"): ("graph-smoke", ("graph-knight-36-s2026-000", "graph-cubic-60-s2026-000")),
    ("asp", "graph"): ("graph-smoke", ("graph-knight-36-s2026-000", "graph-cubic-60-s2026-000",
                                       "graph-tutte-46-s2026-000")),
    ("asp", "masyu"): ("masyu-hard", ("janko760",)),
    ("asp", "geradeweg"): ("geradeweg-janko", ("Geradeweg-040", "Geradeweg-020")),
    ("asp", "yajilin"): ("yajilin-janko", ("Yajilin-234", "Yajilin-179")),
    # hint acts from a second CP-SAT solve on
    ("lazy", "geradeweg"): ("geradeweg-janko", ("Geradeweg-073", "Geradeweg-020")),
    # the watch's cut-sets act on a wrong loop that outlived propagation (`loop.watch`: under
    # eager=propagate only check_model cuts a cycle holding required vertices): harder puzzles meet some
    ("propagator", "masyu"): ("masyu-hard", ("janko760",)),
    ("propagator", "slitherlink"): ("slither-hard", ("janko-sl-0690",)),
    ("connect", "masyu"): ("masyu-hard", ("janko760",)),
    ("sat", "geradeweg"): ("geradeweg-janko", ("Geradeweg-051", "Geradeweg-020")),
    # sat's graph default begins with the frontier search, which answers the smoke set's first Hamiltonian
    # graphs before the rotations could: the knight's graph is too wide for it and the rotations' own
    ("sat", "graph"): ("graph-smoke", ("graph-petersen-10-s2026-000", "graph-cycle-12-s2026-000",
                                       "graph-complete-4-s2026-000", "graph-knight-36-s2026-000")),
}
# options whose values change the cost only, by design, never the search: `components` finds the same loops
# on integer arrays or with networkx, `cache=degree` keeps the same degree clauses for the next run on the
# grid's shape; no statistic a run records tells them apart (times aside), so they are not walked
COST_ONLY = {"components", "cache"}
# options whose default is another value chosen by the run's limits: walked under these limits too
# (`eager`'s `solver=auto` is CaDiCaL within half the memory limit, Glucose beyond: `solver_for`)
PROBES = {("eager", "solver"): Limits(time_s=20.0, memory_mb=0)}
# (encoding, kind, KEY=VALUE): accepted, changing nothing here, for a reason the declarations cannot say
# (one value idle on a kind, or a value acting only on puzzles harder than a test can afford)
EXCEPTIONS = {
    # `cutset` asks a loop holding some required vertices for an edge leaving it; these kinds have none
    # (`gridrules.visiting`: hits groups only), so it cuts as `loop` does, while `disc` may not
    *((e, k, "cuts=cutset") for e in ("sat", "lazy") for k in ("country", "moonsun")),
    # `colour=late` is `off` until COLOUR_FLOOR (4000) conflicts (`cegar.rebuild.colour_after`); no puzzle
    # here takes as many (masyu-hard's janko760 neither)
    *(("sat", k, "colour=off") for k in ("masyu", "slitherlink", "castlewall", "country", "geradeweg",
                                          "moonsun", "yajilin")),
    # `alone` acts on a model holding a complete loop beside wrong ones (`tried_alone` counts them); none of
    # these puzzles' models holds one (masyu-hard's janko760 neither); on Castle Wall and Yajilin every
    # loop is complete, and there it acts
    *(("sat", k, "alone=false") for k in ("masyu", "slitherlink", "country", "geradeweg")),
}
# (encoding, kind, KEY=VALUE): accepted, changing nothing, and no reason found in the code: for the lead
UNEXPLAINED = {
    # the watch's `cutset` acts only on a wrong loop that outlived propagation to check_model (see HARDER);
    # on Geradeweg, none found (connect's does act there)
    ("propagator", "geradeweg", "cuts=cutset"),
    # `disc` acts on a wrong loop whose disc holds a `hits` group and misses one; why none does here, not
    # found
    *((e, k, "cuts=disc") for e in ("sat", "lazy") for k in ("country", "moonsun")),
}


def observed(outcome) -> str:
    """What a run did, times aside: its verdict, answer and search statistics."""
    stats = {k: v for k, v in outcome.stats.items()
             if not k.endswith("_s") and k not in ("rounds", "shape_reused")}
    return json.dumps([outcome.status, outcome.solution, stats], sort_keys=True, default=str)


def values(option: options.Option) -> tuple:
    """The values walked: its choices, or both of a Boolean's."""
    if option.choices is not None:
        return option.choices
    return (False, True) if isinstance(option.default, bool) else ()


def walked(encoding: str, kind: str) -> list[tuple[str, object, dict]]:
    """Each (option, value, resolved options) the declarations accept on `kind` beside its defaults."""
    cls = registry.encodings()[encoding]
    base = registry.entry(encoding).resolve(kind).options
    out = []
    for name, option in options.declarations(cls).items():
        if name not in base or name in RECORDS_ONLY:
            continue
        for value in values(option):
            if value == base[name]:
                continue
            try:
                out.append((name, value, options.resolve(cls, {name: value}, kind).options))
            except ValueError:
                continue  # refused on this kind: it does nothing here, or breaks a rule
    return out


CASES = [(e, k) for e, cls in registry.encodings().items() if e not in SKIPPED
         for k in SMOKE if cls.serves(k) and walked(e, k)]


def test_the_walk_covers_every_encoding_with_choices():
    assert {e for e, _ in CASES} == {e for e, cls in registry.encodings().items() if e not in SKIPPED
                                      and any(values(o) for o in options.declarations(cls).values())}
    assert len(CASES) >= 40, len(CASES)


@pytest.mark.parametrize(("encoding", "kind"), CASES)
def test_every_accepted_option_changes_the_run_on_its_kind(encoding, kind):
    cls = registry.encodings()[encoding]
    collection, names = HARDER.get((encoding, kind), (SMOKE[kind], None))
    puzzles = [i.puzzle for i in sets.instances(collection) if i.puzzle is not None
               and (names is None or i.name in names)][:4]
    assert puzzles and all(p.kind == kind for p in puzzles)

    def runs(resolved: dict, limits: Limits = LIMITS) -> list[str]:
        made = cls.made(resolved)
        return [observed(made.solve(p, limits, 0)) for p in puzzles]

    base = registry.entry(encoding).resolve(kind).options
    reference = runs(base)
    # answered within the limit: a run stopped by the clock would differ by the clock alone
    assert all(json.loads(r)[0] in ("sat", "unsat") for r in reference)
    probes = {name: (limits, runs(base, limits)) for (e, name), limits in PROBES.items() if e == encoding}

    def unchanged(name: str, resolved: dict) -> bool:
        if runs(resolved) != reference:
            return False
        return name not in probes or runs(resolved, probes[name][0]) == probes[name][1]

    same = {f"{name}={value}" for name, value, resolved in walked(encoding, kind)
            if name not in COST_ONLY and unchanged(name, resolved)}
    known = {said for e, k, said in EXCEPTIONS | UNEXPLAINED if (e, k) == (encoding, kind)}
    assert same == known, f"{encoding} on {kind}, accepted but changing nothing: {', '.join(sorted(same))}"
