"""The comparison figures: cactus with the virtual best, pairwise scatter, scaling, lazy-loop behaviour."""

from __future__ import annotations

import textwrap
from itertools import combinations

import numpy as np
import pandas as pd

from harness.analysis import ranking
from harness.analysis.plots.data import (
    common_instances,
    per_instance,
    resolve_baseline,
    size_words,
    solved_times,
    stamp,
    with_config,
)
from harness.analysis.summary import clock_axis

FOOTER_LINE_IN = 0.13  # inches of figure height per line of the stamp under the axes
VBS_LABEL = "virtual best"


SVG_SALT = "loopbench"  # matplotlib names an SVG's clip paths and markers from this, not at random


def save_figure(fig, path, **options) -> None:
    """Write a figure (PNG or SVG by the path's suffix) so that the same data gives the same bytes:
    no timestamp, and an SVG's element ids from a fixed salt (matplotlib draws them at random otherwise)."""
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT}):
        fig.savefig(path, metadata={"Date": None} if str(path).endswith(".svg") else None, **options)


def palette(runs: pd.DataFrame) -> dict[str, str]:
    """One fixed colour per configuration, so a config looks the same in every figure."""
    import matplotlib as mpl

    colours = mpl.colormaps["tab10"].colors
    configs = sorted(with_config(runs)["config"].unique())
    return {c: mpl.colors.to_hex(colours[i % len(colours)]) for i, c in enumerate(configs)}


def _figure(title: str, ncols: int = 1, size: tuple[float, float] = (7.0, 4.8)):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, ncols, figsize=size, squeeze=False)
    fig.suptitle(title, fontsize=12)
    return fig, list(axes[0])


def _finish(fig, runs: pd.DataFrame) -> None:
    """Put the stamp under the axes, wrapped to the figure's width, and lay the figure out above it."""
    width = int(fig.get_figwidth() * 20)  # characters of 6.5 pt text per inch, roughly
    lines = [part for line in stamp(runs).splitlines() for part in textwrap.wrap(line, width)]
    fig.text(0.01, 0.01, "\n".join(lines), fontsize=6.5, color="0.35", va="bottom", ha="left")
    footer_in = 0.12 + FOOTER_LINE_IN * len(lines)
    fig.tight_layout(rect=(0, footer_in / fig.get_figheight(), 1, 1))


def _limit(inst: pd.DataFrame) -> float:
    return float(inst["limit_s"].max())


def cactus(runs: pd.DataFrame):
    """Per config, its verified solve times sorted (n-th solved instance on x, log time on y), and the VBS."""
    inst = per_instance(runs)
    colours = palette(runs)
    # Every config and instance has its column and row, so a config that solved nothing still shows
    # "(0/N)" and an instance no config solved (an unproven unsat everywhere) counts in the total.
    times = solved_times(inst)
    total = len(times)
    fig, (ax,) = _figure(f"Instances solved within a time ({inst['puzzle'].iloc[0]})")
    ran = inst.groupby("config").size()
    curves = [(c, times[c], ran[c], dict(color=colours[c], marker="o", ms=3, lw=1.6)) for c in times.columns]
    common = common_instances(inst)
    if len(curves) > 1 and len(common):  # with one config the virtual best is that config again
        # Only over the instances every config ran: a best over different puzzles compares nothing.
        label = VBS_LABEL if len(common) == total else f"{VBS_LABEL}, on the {len(common)} all ran"
        best = ranking.virtual_best(times.loc[common])
        curves.append((label, best, len(common), dict(color="black", ls="--", lw=1.2)))
    for name, series, runs_of, style in curves:
        t = np.sort(series.dropna().to_numpy())
        ax.plot(np.arange(1, len(t) + 1), t, label=f"{name} ({len(t)}/{runs_of})", **style)
    if times.notna().sum().sum() == 0:
        ax.text(0.5, 0.5, "no verified solves", transform=ax.transAxes, ha="center", color="0.4")
        ax.set_ylim(_limit(inst) / 1000, _limit(inst) * 2)  # a log axis needs a range even with no data
    ax.annotate("time limit", (0.01, _limit(inst)), xycoords=("axes fraction", "data"), va="bottom",
                fontsize=8, color="0.4")
    cactus_axes(ax, total, _limit(inst), f"instances solved (verified), of {total}",
                f"{clock_axis(runs)} per instance (s)")
    # Cactus curves rise to the right, so the lower right corner is the one left empty.
    ax.legend(title="solved / instances run", fontsize=8, title_fontsize=8, loc="lower right")
    _finish(fig, runs)
    return fig


def cactus_axes(ax, total: int, limit: float, xlabel: str, ylabel: str) -> None:
    """A cactus plot's axes: the time limit's line, log time up, whole instance counts across."""
    from matplotlib.ticker import MaxNLocator

    ax.axhline(limit, color="0.5", ls=":", lw=1)
    ax.set_yscale("log")
    log_axis(ax.yaxis, (1.0,))
    ax.set_xlim(0, total + 0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="major", alpha=0.3)


def pairs(runs: pd.DataFrame, baseline: str | None = None) -> list[tuple[str, str]]:
    """Every pair of configs, the baseline first (on the x axis) where it takes part."""
    configs = sorted(with_config(runs)["config"].unique())
    base = resolve_baseline(configs, baseline)
    ordered = [base, *[c for c in configs if c != base]] if base else configs
    return list(combinations(ordered, 2))


def scatter(runs: pd.DataFrame, a: str, b: str):
    """One point per instance both configs ran: a's time on x, b's on y; unsolved runs sit on the limit."""
    inst = per_instance(runs)
    columns = pd.MultiIndex.from_product([["time_s", "par2_s"], [a, b]])
    both = inst[inst["config"].isin([a, b])].pivot_table(
        index=["instance_set", "instance"], columns="config", values=["time_s", "par2_s"], aggfunc="first"
    ).reindex(columns=columns).dropna(subset=[("par2_s", a), ("par2_s", b)])
    return scatter_times(both[("time_s", a)], both[("time_s", b)], a, b, _limit(inst), runs,
                         f"{b} vs {a}, per instance ({inst['puzzle'].iloc[0]})")


def scatter_times(x_s: pd.Series, y_s: pd.Series, a: str, b: str, limit: float, runs: pd.DataFrame,
                  title: str, note: str = ""):
    """Two configs' per-instance times against each other (NaN: not solved, drawn at `limit`), stamped.

    `a` and `b` label the axes (with the runs' clock); `note` is a line added under the title.
    """
    x = x_s.fillna(limit).clip(upper=limit).to_numpy()
    y = y_s.fillna(limit).clip(upper=limit).to_numpy()
    solved = x_s.notna().to_numpy() & y_s.notna().to_numpy()
    fig, (ax,) = _figure(title, size=(6.0, 6.0))
    lo = max(min(x.min(), y.min()) / 2, 1e-5) if len(x) else 1e-3
    hi = limit * 1.6
    ax.plot([lo, hi], [lo, hi], color="0.3", lw=1)
    for factor in (10, 0.1):
        ax.plot([lo, hi], [lo * factor, hi * factor], color="0.6", lw=0.8, ls=":")
    ax.axvline(limit, color="0.5", ls="--", lw=1)
    ax.axhline(limit, color="0.5", ls="--", lw=1)
    ax.scatter(x[solved], y[solved], s=22, color="#1f77b4", alpha=0.8, label=f"both solved ({solved.sum()})")
    if (~solved).any():
        ax.scatter(x[~solved], y[~solved], s=30, marker="x", color="#d62728",
                   label=f"not solved by one or both, drawn at the limit ({(~solved).sum()})")
    faster_b, faster_a = int((y[solved] < x[solved]).sum()), int((x[solved] < y[solved]).sum())
    subtitle = (f"{note + '; ' if note else ''}of the instances both solved, {b} is faster on {faster_b}, "
                f"{a} on {faster_a}; dotted: 10× lines")
    ax.set_title(textwrap.fill(subtitle, int(fig.get_figwidth() * 15)), fontsize=8, color="0.35")
    ax.set(xscale="log", yscale="log", xlim=(lo, hi), ylim=(lo, hi), aspect="equal")
    log_axis(ax.xaxis, (1.0,))
    log_axis(ax.yaxis, (1.0,))
    ax.set_xlabel(f"{a}: {clock_axis(runs)} (s)")
    ax.set_ylabel(f"{b}: {clock_axis(runs)} (s)")
    ax.grid(True, which="major", alpha=0.3)
    # Under the axes: inside, the legend would cover points or the limit lines.
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, frameon=False)
    _finish(fig, runs)
    return fig


def log_axis(axis, subs: tuple[float, ...] = (1.0, 2.0, 5.0)) -> None:
    """Plain-number ticks (0.01, 0.02, 0.05, …) on a log axis: `3×10⁻¹` labels collide and read badly."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    axis.set_major_locator(LogLocator(subs=subs))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(NullFormatter())


def cells_axis(ax, cells: pd.Series | None = None, words: str = "cells (rows × cols)") -> None:
    """A log x axis of puzzle sizes (cells, vertices: `words`): ticks at the sizes present when there
    are few, else at 10, 20, 50, …"""
    from matplotlib.ticker import FixedLocator

    ax.set_xscale("log")
    log_axis(ax.xaxis)
    sizes = sorted(set(cells.dropna().astype(int))) if cells is not None else []
    if 0 < len(sizes) <= 8:
        ax.xaxis.set_major_locator(FixedLocator(sizes))
        ax.xaxis.set_minor_locator(FixedLocator([]))
    ax.set_xlabel(words)


def _quartiles(points: pd.DataFrame, value: str) -> pd.DataFrame:
    """Median and quartiles of `value` per number of cells."""
    grouped = points.groupby("cells")[value]
    return pd.DataFrame({"median": grouped.median(), "q1": grouped.quantile(0.25),
                         "q3": grouped.quantile(0.75)})


def growth_exponent(points: pd.DataFrame, value: str = "time_s") -> float:
    """The b of value ≈ a·cells^b, fitted by least squares in log–log space (NaN with < 2 sizes)."""
    points = points[(points[value] > 0) & points["cells"].notna()]
    if points["cells"].nunique() < 2:
        return float("nan")
    slope, _ = np.polyfit(np.log(points["cells"].astype(float)), np.log(points[value]), 1)
    return float(slope)


def scaling(runs: pd.DataFrame):
    """Verified solve time against the number of cells: medians with quartile bands, fitted exponent."""
    inst = per_instance(runs)
    colours = palette(runs)
    fig, (ax,) = _figure(f"Solve time against puzzle size ({inst['puzzle'].iloc[0]})")
    for config, ran in inst.groupby("config"):
        group = ran[ran["solved"]]
        if group.empty:
            continue
        q = _quartiles(group, "time_s")
        b = growth_exponent(group)
        label = f"{config}: {len(group)}/{len(ran)} solved"
        label += f", time ∝ {size_words(runs).split(' (')[0]}^{b:.2f}" if np.isfinite(b) else ""
        ax.plot(q.index, q["median"], marker="o", ms=4, color=colours[config], label=label)
        ax.fill_between(q.index, q["q1"], q["q3"], color=colours[config], alpha=0.18, lw=0)
    ax.set_yscale("log")
    log_axis(ax.yaxis)
    cells_axis(ax, inst.loc[inst["solved"], "cells"], size_words(runs))
    ax.set_ylabel(f"{clock_axis(runs)} (s): median, quartile band")
    ax.set_title("verified solves only; unsolved instances are left out", fontsize=8, color="0.35")
    ax.grid(True, which="both", alpha=0.25)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)
    _finish(fig, runs)
    return fig


def lazy_configs(inst: pd.DataFrame) -> list[str]:
    """The configs that ever needed more than one solve round (lazy loop strategies)."""
    rounds = inst.groupby("config")["iterations"].max()
    return sorted(rounds[rounds > 1].index)


def lazy_loop(runs: pd.DataFrame):
    """Rounds, cuts (and time outside the solver, where recorded) against size, for lazy configs; or None."""
    inst = per_instance(runs)
    configs = lazy_configs(inst)
    if not configs:
        return None
    inst = inst[inst["config"].isin(configs)].assign(
        outside_share=lambda d: d["outside_cpu_s"] / d["solve_cpu_s"]
    )
    panels = [("iterations", "solve rounds"), ("cuts", "cuts added")]
    if inst["outside_share"].notna().any():
        # Both CPU time (outside_cpu_s / solve_cpu_s); older rows, whose phase times were wall, have none.
        panels.append(("outside_share", "share of solve CPU time outside the solver"))
    colours = palette(runs)
    fig, axes = _figure(f"How the lazy loops converge ({inst['puzzle'].iloc[0]})", ncols=len(panels),
                        size=(4.2 * len(panels), 4.4))
    for ax, (value, ylabel) in zip(axes, panels, strict=True):
        for config, group in inst.groupby("config"):
            points = group.dropna(subset=[value])
            if points.empty:
                continue
            jitter = np.exp(np.random.default_rng(0).uniform(-0.04, 0.04, len(points)))  # unstack equal sizes
            ax.scatter(points["cells"] * jitter, points[value], s=10, alpha=0.35, color=colours[config])
            q = _quartiles(points, value)
            ax.plot(q.index, q["median"], marker="o", ms=4, color=colours[config], label=config)
        cells_axis(ax, inst["cells"], size_words(runs))
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.25)
        if value == "outside_share":
            ax.set_ylim(0, 1)
    # Under the middle panel: inside any panel the legend would cover dots.
    handles, labels = axes[0].get_legend_handles_labels()
    axes[len(axes) // 2].legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.16),
                                ncol=len(labels), frameon=False, fontsize=8,
                                title="lines: median per size; dots: instances", title_fontsize=7)
    _finish(fig, runs)
    return fig
