"""Training the selector on the public graphs' stored runs, and judging it: the rule file and its figures.

The training graphs are the public FHCP graphs (the features file's) outside `fhcp-sample`, the held-out
evaluation set, which training never reads. `train` fits one rule on all of them (the committed rule);
`evaluation` gives, per graph group, each candidate alone, the selector and the virtual best of the
candidates: on the training graphs the selector's choice cross-validated by family (each family's
graphs chosen by the rule fitted on the others), on fhcp-sample the committed rule's choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from harness.select import cells as cell_data
from harness.select import featurefile, search
from loopbench_encodings.loop.choose import Rule

HELD_OUT = "fhcp-sample"


def held_out_names() -> set[str]:
    from harness import sets

    return {str(row["name"]) for _, row in sets.rows(HELD_OUT)}


@dataclass
class Data:
    features: pd.DataFrame  # every public graph's
    seconds: pd.DataFrame  # a column per candidate, NaN unknown
    borrowed: pd.DataFrame
    training: pd.Series  # bool: outside HELD_OUT
    families: pd.Series
    floor: pd.DataFrame  # the limit an unknown cell is known unsolved within (0: nothing known)

    @property
    def soonest(self) -> pd.DataFrame:
        return cell_data.soonest(self.seconds, self.floor)


def data(databases: list[Path], features_csv: Path, candidates: tuple[str, ...] = cell_data.CANDIDATES
         ) -> Data:
    features = featurefile.read(features_csv)
    seconds, borrowed, floor = cell_data.cells(databases, features, candidates)
    training = pd.Series(~features.index.isin(held_out_names()), index=features.index)
    return Data(features, seconds, borrowed, training, search.families(features), floor)


def train(found: Data, databases: list[Path], features_csv: Path) -> Rule:
    """The rule fitted on every training graph, with what it was trained on in `trained`."""
    t = found.training
    rule = search.fit(found.features[t], found.seconds[t])
    solved = search.score(search.picked(found.seconds[t], search.chosen(rule, found.features[t])))
    trained = {
        "graphs": int(t.sum()), "held_out": HELD_OUT, "limit_s": cell_data.LIMIT_S,
        "candidates": list(found.seconds.columns), "features": str(features_csv),
        "databases": [str(p) for p in databases],
        "unknown_cells": {c: int(found.seconds.loc[t, c].isna().sum()) for c in found.seconds.columns},
        "known_unsolved_within": {c: {f"{limit:g} s": int(n) for limit, n in
                                      found.floor.loc[t, c][found.floor.loc[t, c] > 0].value_counts().items()}
                                  for c in found.floor.columns},
        "borrowed_cells": {c: int(found.borrowed.loc[t, c].sum()) for c in found.borrowed.columns},
        "objective": f"most solved within {', '.join(f'{c:g}' for c in search.OBJECTIVE_CUTOFFS)} s, summed "
                     "(an unknown cell unsolved), then least PAR-2",
        "solved_in_sample": solved[f"solved <= {cell_data.LIMIT_S:g} s"][0],
    }
    return Rule(rule.when, rule.then, rule.otherwise, trained)


@dataclass
class Row:
    graphs: str
    config: str
    scores: dict[str, tuple[float, float]]


def _rows(group: str, seconds: pd.DataFrame, soonest: pd.DataFrame, choice: pd.Series, selector: str
          ) -> list[Row]:
    rows = [Row(group, f"`{c}`", search.score(seconds[c], soonest[c])) for c in seconds.columns]
    best = max(range(len(rows)), key=lambda i: (rows[i].scores[f"solved <= {cell_data.LIMIT_S:g} s"][0],
                                                -rows[i].scores["PAR-2"][0]))
    rows[best].config += " (best single)"
    rows.append(Row(group, selector, search.score(search.picked(seconds, choice),
                                                  search.picked(soonest, choice))))
    rows.append(Row(group, f"virtual best of {', '.join(seconds.columns)}",
                    search.score(*search.oracle(seconds, soonest))))
    return rows


def evaluation(found: Data, rule: Rule) -> tuple[list[Row], dict[str, pd.Series]]:
    """The table's rows (training graphs cross-validated, fhcp-sample with `rule`, all together) and
    each group's choice per graph."""
    t = found.training
    cv = search.cross_validated(found.features[t], found.seconds[t], found.families[t])
    held = search.chosen(rule, found.features[~t])
    both = pd.concat([cv, held]).reindex(found.features.index)
    soonest = found.soonest
    rows = (_rows(f"{int(t.sum())} public, not {HELD_OUT}", found.seconds[t], soonest[t], cv,
                  "selector, cross-validated by family")
            + _rows(f"{int((~t).sum())} {HELD_OUT} (held out)", found.seconds[~t], soonest[~t], held,
                    "selector, the committed rule")
            + _rows(f"all {len(t)}", found.seconds, soonest, both, "selector (the two above)"))
    return rows, {"cv": cv, "held": held}
