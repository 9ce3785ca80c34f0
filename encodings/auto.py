"""`auto`: a configuration chosen per graph by a trained rule, then run as it would run by its own name.

Model: none of its own. The graph's features (`loop.features`: size, degrees, hubs, degree-2 chains,
what `split=hubs` would find) are computed, the rule (`loop.choose`, the committed one trained by
`python -m harness.select train` on the public FHCP graphs' stored runs, outside fhcp-sample) names a
configuration (a preset or encoding, e.g. `cegar-split-frontier` or `asp`), and that configuration solves the
graph within the same budget, its options resolved for the graph as a run of it would resolve them.
The features' CPU time is the run's (it is counted, never hidden). Stats: the chosen configuration's
own, and `auto_choice`, `auto_rule`, `auto_features` (every feature by name) and `auto_features_cpu_s`,
which land in the run's `extra`, a run stopped past its limit's too (they are reported before the
chosen configuration runs, and with each of its reports). Its fingerprint holds `sat`'s and `asp`'s
code (the committed rule's; a rule given that names another encoding runs it, but that code is not in
the fingerprint).
Graphs only: the rule was trained on graphs, and a puzzle's grid says nothing its features were
measured on, so another kind is not served (a sweep never plans it there; `harness.solve` refuses it
in one line). The answer is judged by the graph checker as every answer is.
"""

from __future__ import annotations

from typing import Any

from harness.encoding import Encoding, Limits, Outcome, cpu_time
from harness.options import Option

from .loop import choose
from .loop.features import NAMES, features


def _rule(text: str) -> str:
    """The rule's canonical text; ValueError for one that names an unknown feature or configuration."""
    from harness import registry

    rule = choose.parse(text)
    unknown = sorted({c.feature for c in rule.when} - set(NAMES))
    if unknown:
        raise ValueError(f"option rule: no feature {', '.join(unknown)} (features: {', '.join(NAMES)})")
    for config in (rule.then, rule.otherwise):
        registry.entry(config)  # ValueError naming an unknown configuration
        if registry.entry(config).encoding == Auto.name:
            raise ValueError(f"option rule: {config!r} is auto itself")
    return str(rule)


class Auto(Encoding):
    name = "auto"
    puzzles = ("graph",)
    excludes = True  # both configurations the committed rule names honour `exclude` (sat, asp)
    declared = (
        Option("rule", str(choose.read()), "the rule choosing the configuration from the graph's features "
               "(`CONFIG if FEATURE > T [and FEATURE <= T] else CONFIG`, or `always CONFIG`); default: the "
               "committed one, encodings/auto.json (results/selector/README.md)", check=_rule),
    )
    imports = ("pysat.solvers", "networkx", "clingo")  # what the committed rule's configurations import

    def solve(self, puzzle: Any, limits: Limits, seed: int, exclude: tuple[str, ...] = ()) -> Outcome:
        from harness import registry

        # the encodings the committed rule's configurations run (`cegar-split` is sat's), named here so
        # that this encoding's fingerprint (which reads imports, not the registry's lookups) holds their code
        from . import asp, sat  # noqa: F401

        start = cpu_time()
        rule = choose.parse(self.options["rule"])
        found = features(puzzle.neighbours)
        choice = rule.choose(found)
        spent = cpu_time() - start
        said = {"auto_choice": choice, "auto_rule": str(rule), "auto_features": found,
                "auto_features_cpu_s": spent}
        # handed over before the chosen configuration runs, and with each of its own reports
        limits = limits.saying(said)
        chosen = registry.create_for(choice, puzzle.kind)
        chosen.prepare()  # its solver packages: imported already by this encoding's own prepare
        outcome = chosen.solve(puzzle, limits, seed, exclude)
        outcome.stats.update(said)
        return outcome
