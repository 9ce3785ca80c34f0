"""The rule search and its scores: exhaustive over one or two thresholds, families for cross-validation.

Objective (`fit`): graphs solved within each of OBJECTIVE_CUTOFFS, summed (a graph solved within 1 s
counts three times, within 60 s once), counting an unknown cell as unsolved (the lower bound), then the
least PAR-2 at LIMIT_S (an unknown cell scored as unsolved, 2 x LIMIT_S): a rule is judged at the short
cutoffs as well as at the limit, as the published tables are. `fit` tries every rule
of `loop.choose` with at most two conditions, each `feature > t` or `feature <= t` at up to THRESHOLDS
cut points per feature (midpoints between distinct values, spread over their quantiles), and each
ordered pair of candidates as `then` / `otherwise`; a condition more is taken only when it scores more
(a lower PAR-2 alone is not worth it), and of equals the first found wins, so a fit is deterministic.

Families (`family`): FHCP graphs carry no generator's name, so graphs are grouped by the shape of
their degree histogram: minimum degree, maximum degree class, degree-2 share class, cubic or not.
The set's generators (cubic graphs, hub-and-gadget constructions, degree-2 subdivisions) each make
graphs of one such shape at many sizes, so a family held out holds one generator's graphs, and a
rule cross-validated by family is judged on shapes it has not seen, not on a size of one it has.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from harness.select.cells import LIMIT_S
from loopbench_encodings.loop.choose import Condition, Rule
from loopbench_encodings.loop.features import NAMES

THRESHOLDS = 24  # cut points tried per feature
OBJECTIVE_CUTOFFS = (1.0, 10.0, LIMIT_S)  # the cutoffs the published tables and issue 47 count at
MAX_DEGREE_CLASSES = (3, 4, 9, 29, 99)  # class upper ends: 3, 4, 5-9, 10-29, 30-99, 100+
SHARE2_CLASSES = (0.0, 0.1, 0.25)  # none, up to 10 %, up to 25 %, more


def family(row: pd.Series) -> str:
    """The family of a graph from its features: `min2-max4-d2<=0.1` (`-cubic` for a cubic one)."""
    top = next((str(c) for c in MAX_DEGREE_CLASSES if row["max_degree"] <= c), f">{MAX_DEGREE_CLASSES[-1]}")
    share = next((f"<={c:g}" for c in SHARE2_CLASSES if row["share_degree2"] <= c),
                 f">{SHARE2_CLASSES[-1]:g}")
    return f"min{int(row['min_degree'])}-max{top}-d2{share}" + ("-cubic" if row["cubic"] else "")


def families(features: pd.DataFrame) -> pd.Series:
    return features.apply(family, axis=1)


def _cuts(values: np.ndarray) -> np.ndarray:
    distinct = np.unique(values)
    mids = (distinct[:-1] + distinct[1:]) / 2
    if len(mids) <= THRESHOLDS:
        return mids
    return np.unique(np.quantile(mids, np.linspace(0, 1, THRESHOLDS), method="nearest"))


def conditions(features: pd.DataFrame) -> list[Condition]:
    """Every condition the search tries on these graphs, in a fixed order."""
    out = []
    for name in NAMES:
        for t in _cuts(features[name].to_numpy(dtype=float)):
            out += [Condition(name, True, float(round(t, 6))), Condition(name, False, float(round(t, 6)))]
    return out


def _holds(condition: Condition, values: np.ndarray) -> np.ndarray:
    """`Condition.holds` over a column of values at once."""
    return values > condition.threshold if condition.above else values <= condition.threshold


def _lower(seconds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cell: the cutoffs of OBJECTIVE_CUTOFFS it is solved within (unknown: none) and its PAR-2
    (unknown: 2 x LIMIT_S)."""
    known = ~np.isnan(seconds)
    within = sum((known & (seconds <= c)).astype(float) for c in OBJECTIVE_CUTOFFS)
    solved = known & (seconds <= LIMIT_S)
    return within, np.where(solved, seconds, 2 * LIMIT_S)


def fit(features: pd.DataFrame, seconds: pd.DataFrame) -> Rule:
    """The best rule for these graphs (`features` and `seconds` on the same index, a column per candidate)."""
    configs = list(seconds.columns)
    solved, par = _lower(seconds.to_numpy(dtype=float))
    conds = conditions(features)
    masks = np.array([_holds(c, features[c.feature].to_numpy(dtype=float)) for c in conds], dtype=float)
    best: tuple[float, float, int] | None = None
    found = Rule((), configs[0], configs[0])
    for b, otherwise in enumerate(configs):  # no condition
        key = (solved[:, b].sum(), -par[:, b].sum(), 0)
        if best is None or key[:2] > best[:2]:
            best, found = key, Rule((), otherwise, otherwise)
    for a, then in enumerate(configs if conds else ()):  # no cut point on any feature: `always` only
        for b, otherwise in enumerate(configs):
            if a == b:
                continue
            gain_s, gain_p = solved[:, a] - solved[:, b], par[:, a] - par[:, b]
            base_s, base_p = solved[:, b].sum(), par[:, b].sum()
            for depth, (s, p) in ((1, (masks @ gain_s, masks @ gain_p)),
                                  (2, ((masks * gain_s) @ masks.T, (masks * gain_p) @ masks.T))):
                total_s, total_p = base_s + s, base_p + p
                flat = np.lexsort((total_p.ravel(), -total_s.ravel()))[0]  # most solved, then least PAR-2
                top_s, top_p = float(total_s.ravel()[flat]), float(total_p.ravel()[flat])
                better = top_s > best[0] or (best[2] >= depth and top_s == best[0] and -top_p > best[1])
                if better:
                    which = np.unravel_index(flat, total_s.shape)
                    when = tuple(conds[i] for i in dict.fromkeys(int(i) for i in which))
                    best, found = (top_s, -top_p, depth), Rule(when, then, otherwise)
    return found


def chosen(rule: Rule, features: pd.DataFrame) -> pd.Series:
    """The rule's configuration for each graph."""
    return pd.Series([rule.choose(r) for r in features.to_dict("records")], index=features.index)


def folds(groups: pd.Series) -> list[pd.Series]:
    """The held-out masks of leave-one-family-out: one per family, its graphs; the rest train."""
    return [groups == name for name in sorted(set(groups))]


def cross_validated(features: pd.DataFrame, seconds: pd.DataFrame, groups: pd.Series) -> pd.Series:
    """Each graph's configuration as chosen by the rule fitted on every other family than its own."""
    out = pd.Series("", index=features.index, dtype=object)
    for held in folds(groups):
        rule = fit(features[~held], seconds[~held])
        out[held] = chosen(rule, features[held])
    return out


def picked(seconds: pd.DataFrame, choice: pd.Series) -> pd.Series:
    """The seconds of each graph's chosen configuration's cell."""
    columns = list(seconds.columns)
    values = seconds.to_numpy(dtype=float)
    return pd.Series([values[i, columns.index(c)] for i, c in enumerate(choice)], index=seconds.index)


def oracle(seconds: pd.DataFrame, soonest: pd.DataFrame | None = None) -> tuple[pd.Series, pd.Series]:
    """The virtual best's seconds per graph as a lower bound (the least known) and an upper one (the least
    any cell could have, `cells.soonest`; default: 0 where a cell is unknown, which might have solved at
    once)."""
    known = seconds.min(axis=1, skipna=True).fillna(math.inf)
    could = seconds.fillna(0.0) if soonest is None else soonest
    return known, could.min(axis=1)


def score(lower: pd.Series, upper: pd.Series | None = None, cutoffs: tuple[float, ...] = (1, 10, LIMIT_S)
          ) -> dict[str, tuple[float, float]]:
    """Solved within each cutoff (at least, at most) and PAR-2 at LIMIT_S (the lower bound's: an
    unknown scored as unsolved); `lower` seconds with NaN for unknown, `upper` where an unknown
    could be (default: NaN counts solved in the upper bound)."""
    low = lower.fillna(math.inf)
    high = lower.fillna(0.0) if upper is None else upper.fillna(0.0)
    out = {f"solved <= {c:g} s": (float((low <= c).sum()), float((high <= c).sum())) for c in cutoffs}
    par2 = low.where(low <= LIMIT_S, 2 * LIMIT_S).mean()
    out["PAR-2"] = (float(par2), float(par2))
    return out
