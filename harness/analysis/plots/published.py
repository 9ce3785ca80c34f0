"""Figures of measured configurations beside a published table's: the cactus and per-instance scatters."""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd

from harness.analysis import ranking
from harness.analysis.plots.figures import _figure, _finish, cactus_axes, palette, scatter_times
from harness.analysis.side_by_side import LABEL, SideBySide
from harness.analysis.summary import clock_axis

MAX_PUBLISHED_CURVES = 6  # the best-ranked published configs drawn; the rest only count in their virtual best


def _published_name(config: str, s: SideBySide | None = None) -> str:
    """A published config's curve or axis name, with the clock its file declares (`published.Column`)."""
    clock = f", {s.table.loc[config, 'clock']} time" if s is not None and config in s.table.index else ""
    return f"{config} (published{clock})"


def cactus(s: SideBySide, runs: pd.DataFrame):
    """Measured configs (solid) and the best-ranked published ones (dashed), each side's virtual best and
    both sides' together, on the same instances and the same limit."""
    colours = palette(runs)
    fig, (ax,) = _figure("Measured beside published: instances solved within a time", size=(11.0, 5.2))
    total = len(s.measured)
    curves = [(c, s.measured[c], dict(color=colours.get(c, "C0"), marker="o", ms=3, lw=1.6))
              for c in s.measured.columns]
    within = s.published.where(s.published <= s.limit_s)
    ranked = s.table[s.table["side"] == "published"].index.intersection(within.columns)
    grey = iter(np.linspace(0.25, 0.7, MAX_PUBLISHED_CURVES))
    for config in list(ranked)[:MAX_PUBLISHED_CURVES]:
        curves.append((_published_name(config, s), within[config],
                       dict(color=str(next(grey)), ls="--", lw=1.1)))
    curves += [("virtual best, measured", ranking.virtual_best(s.measured), dict(color="black", lw=1.4)),
               (f"virtual best, published ({s.table.loc['virtual best (published)', 'clock']} time)",
                ranking.virtual_best(within),
                dict(color="black", ls="--", lw=1.4)),
               ("virtual best of both", ranking.virtual_best(pd.concat([s.measured, within], axis=1)),
                dict(color="#d62728", ls=":", lw=1.6))]
    for name, series, style in curves:
        t = np.sort(series.dropna().to_numpy())
        ax.plot(np.arange(1, len(t) + 1), np.clip(t, 1e-3, None), label=f"{name} ({len(t)}/{total})", **style)
    cactus_axes(ax, total, s.limit_s, f"instances solved, of the {total} both sides have",
                f"{clock_axis(runs)} per instance (s; published: theirs)")
    mixed = f"; {s.mixed}" if s.mixed else ""
    ax.set_title(textwrap.fill(f"dashed: {LABEL}; all scored at {s.limit_s:g} s (times under 1 ms drawn "
                               f"at 1 ms){mixed}", 90), fontsize=8, color="0.35")
    # Right of the axes: the published names are long, and inside the legend would cover the curves.
    ax.legend(fontsize=7, title="solved / instances", title_fontsize=7, loc="upper left",
              bbox_to_anchor=(1.01, 1.0), frameon=False)
    _finish(fig, runs)
    return fig


def pairs(s: SideBySide, published: list[str] = ()) -> list[tuple[str, str]]:
    """(measured, published) pairs to scatter: every measured config against the published virtual best,
    the same program on both sides, and each measured config against each published config named."""
    out = [(c, VIRTUAL_BEST) for c in s.measured.columns]
    out += [(one.measured, one.published) for one in s.same]
    out += [(c, p) for p in published for c in s.measured.columns if (c, p) not in out]
    return out


VIRTUAL_BEST = "virtual best"


def scatter(s: SideBySide, runs: pd.DataFrame, measured: str, published: str):
    """One point per instance: the measured config's time on x, the published config's (or the published
    virtual best's) on y; unsolved within the shared limit drawn at it."""
    within = s.published.where(s.published <= s.limit_s)
    theirs = ranking.virtual_best(within) if published == VIRTUAL_BEST else within[published]
    theirs = theirs.clip(lower=1e-3)  # published 0.0 (rounded) would vanish from a log axis
    row = published if published != VIRTUAL_BEST else "virtual best (published)"
    clock = s.table.loc[row, "clock"] if row in s.table.index else "?"
    name = (f"{published}, published" if published != VIRTUAL_BEST else "published virtual best") + \
        f" ({clock} time)"
    same = next((one for one in s.same if (one.measured, one.published) == (measured, published)), None)
    note = LABEL + "; published times under 1 ms drawn at 1 ms"
    if same and same.both_solved:
        note += f"; same program: theirs {same.ratio:.3g}x ours"
    return scatter_times(s.measured[measured], theirs, measured, name, s.limit_s, runs,
                         f"{name} vs {measured}, per instance", note)
