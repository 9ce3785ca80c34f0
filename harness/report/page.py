"""Writing the report: `index.html` with its tables and data, the SVG pictures and the two assets beside it.

The page is static and self-contained: no script, font or stylesheet from another host, so it
works from a file and offline. Tables are HTML (readable without the script); `report.js`
sorts, filters and opens an instance from the URL fragment (`#set=S&sort=C&filter=T&instance=K`),
so a state can be sent as a link; each instance's statistics travel as JSON inside the page.
"""

from __future__ import annotations

import html
import json
import math
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pandas as pd

from harness import kinds
from harness.analysis import plots
from harness.analysis.machines import machine_note
from harness.outcomes import Shown
from harness.report import figures
from harness.report.data import FLAGGED, SHOWN_COLUMNS, Row, SetData, Version, to_drawn, unique_slug

ASSETS = ("report.css", "report.js")
MARK = '<meta name="generator" content="loopbench harness.report">'  # how a rerun knows its own output
# Status classes with their meaning, in the legend's order (`st-NAME` on table cells): every shown
# status (harness.outcomes.Shown).
LEGEND = (
    (Shown.SOLVED, "solved: the answer was verified by the independent checker"),
    (Shown.UNSAT, "unsat: claimed by two or more encodings, and no verified solution exists"),
    (Shown.CERTIFIED, "certified: unsat claimed, and the run's own proof (DRAT, cuts and CNF) was checked"),
    (Shown.WRONG, "wrong: the checker rejected the answer, or an unsat claim where a solution exists"),
    (Shown.UNPROVEN, "unproven: unsat claimed by one encoding alone (not confirmed)"),
    (Shown.SUSPECT, "suspect: unsat claimed, but the run's own proof (DRAT, cuts or CNF) was judged wrong"),
    (Shown.TIMEOUT, "timeout: the CPU-time limit ran out"),
    (Shown.MEMOUT, "memout: the memory limit ran out"),
    (Shown.CRASH, "crash: the run's process died"),
    (Shown.ERROR, "error: bad input, or the encoding does not support the puzzle"),
    (Shown.UNKNOWN, "unknown: the encoding stopped without an answer"),
)


FLAG = ' <span class="flag" title="a wrong, unproven or disagreeing answer">!</span>'
PICTURED = ' <span class="pictured" title="drawn: its page shows the puzzle and the answers">&#9638;</span>'


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def number(value: float | None, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and (math.isnan(value) or math.isinf(value))):
        return "–"
    return f"{value:.{digits}g}"


def write(sets: Sequence[SetData], out: Path, db: str, draw: int | None = 20,
          baseline: str | None = None, max_size: int | None = None) -> Path:
    """Write the whole report into `out` and return the path of its index.html.

    `draw`: instances drawn per set (None: all); a puzzle past `max_size`, in its kind's measure
    (None: each kind's own cap, `drawing_cap`), is not drawn (a 200x200 Masyu is a 20 MB SVG and
    a minute of matplotlib).
    """
    out.mkdir(parents=True, exist_ok=True)
    index = out / "index.html"
    if index.is_file() and MARK in index.read_text(errors="replace"):  # our older report: drop its pictures
        shutil.rmtree(out / "sets", ignore_errors=True)
    for name in ASSETS:
        shutil.copyfile(Path(__file__).with_name(name), out / name)
    bodies = [section(data, out, draw, baseline, max_size) for data in sets]
    nav = "".join(f'<li><a href="{esc(fragment(set=d.slug))}">{esc(d.group)}</a> '
                  f'<span class="dim">{esc(d.kind)}, '
                  f'{len(d.rows)} instances, {len(d.configs)} configs</span></li>' for d in sets)
    older = sum(d.older for d in sets)
    note = (f"<p>{older} runs of older code are left out of the tables and plots; the versions view of "
            "each set shows them.</p>") if older else ""
    legend = "".join(f'<li><span class="chip st-{name}">{name}</span> {esc(text.partition(": ")[2])}</li>'
                     for name, text in LEGEND)
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
{MARK}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>loopbench report: {esc(Path(db).name)}</title>
<link rel="stylesheet" href="report.css">
</head>
<body>
<header>
<h1>loopbench report</h1>
<p>{sum(len(d.runs) for d in sets)} runs from <code>{esc(db)}</code> in {len(sets)} instance
set{'' if len(sets) == 1 else 's'}. Solved means verified by the checker; PAR-2 counts an unanswered
run as twice its time limit; times are CPU seconds of the encoding's own work (solve_cpu_s, the
clock the limit is judged on; the stamp under each set says when older rows fall back to wall
time), every other time is CPU time too and named so (<code>build_cpu_s</code>, <code>…_cpu_s</code>), and a
time measured on the wall clock is named so (<code>solve_wall_s</code>, older rows' <code>…_wall_s</code>).
Configurations are ranked as the SAT Competition ranks them: a wrong answer after every
configuration without one, then most solved, then least PAR-2.</p>
{note}
<noscript><p class="warn">Sorting, filtering and the instance pages need JavaScript (a local file,
report.js, beside this page).</p></noscript>
<nav><ul>{nav}</ul></nav>
<details class="legend" open><summary>Status colours</summary><ul>{legend}</ul></details>
</header>
<main>
{"".join(bodies)}
</main>
<script src="report.js"></script>
</body>
</html>
"""
    index.write_text(page)
    return index


def section(data: SetData, out: Path, draw: int | None, baseline: str | None, max_size: int | None) -> str:
    """One instance set: summary, disagreements, plots, versions, the runs table and its data."""
    folder = out / "sets" / data.slug
    pictures = figures.comparison(data, folder, baseline)
    figs = "".join(f'<figure><a href="{esc(link(path, out))}"><img src="{esc(link(path, out))}" '
                   f'alt="{esc(caption)}" loading="lazy"></a><figcaption>{esc(caption)}</figcaption></figure>'
                   for caption, path in pictures)
    drawn = to_drawn(data, draw)
    cap, unit = drawing_cap(data.kind, max_size)
    instances = instance_data(data, drawn, folder, out, cap, unit)
    how = ("every instance is drawn" if draw is None else
           f"the first {draw} instances (by name) and every one with a wrong, unproven or disagreeing answer "
           f"are drawn: {len(drawn)} of {len(data.rows)} (<code>--draw all</code> draws every one)")
    big = sum(row.measure > cap for row in drawn)
    if big:
        how += f"; {big} of them are past {cap} {unit} and left undrawn (<code>--max-size</code>)"
    stamp = "<br>".join(esc(line) for line in plots.stamp(data.runs).splitlines())
    mixed = machine_note(data.runs)  # two hosts or CPU models: said, never silently pooled
    warning = f'<p class="warn">warning: {esc(mixed)}</p>' if mixed else ""
    return f"""
<section class="set" id="set-{esc(data.slug)}" data-set="{esc(data.slug)}">
<h2>{esc(data.group)} <span class="dim">({esc(data.kind)})</span></h2>
<p class="stamp">{stamp}</p>
{warning}
<h3>Summary</h3>
{summary_table(data.summary)}
{disagreement_table(data.disagreements)}
<p class="note">only_solved: instances no other configuration solved; par2_lost_s: how much the virtual
best's PAR-2 rises without it; speedup_vs_…: geometric mean of the baseline's time / this one's over
the both_solved instances both solved (read it beside each one's solved count).</p>
<h3>Plots</h3>
<div class="figures">{figs}</div>
{published_view(data, folder, out)}
{versions_view(data.versions, folder, out)}
<h3>Runs</h3>
<div class="controls">
<label>filter <input type="search" class="filter" placeholder="instance name, size or status"></label>
<label>status <select class="status"><option value="">any</option>{status_options(data)}</select></label>
<span class="count"></span>
</div>
<p class="note">One row per instance, a column per configuration: its status and solve time (median over
seeds). Click a header to sort (a configuration sorts by PAR-2, unanswered last), click an instance to
see it drawn with every configuration's answer and statistics. Drawings (marked &#9638;): {how}.</p>
<div class="detail" hidden></div>
{runs_table(data, {row.key for row in drawn})}
{data_block(data.slug, data.configs, instances)}
</section>
"""


def rel(path: Path, out: Path) -> str:
    return path.relative_to(out).as_posix()


def link(path: Path, out: Path) -> str:
    """The address of a file of the report, from index.html, URL-encoded."""
    return quote(rel(path, out))


def fragment(**state: str) -> str:
    """A link to a state of the page (`#set=S&instance=K`), each value URL-encoded as report.js's
    URLSearchParams reads it: a name with `&`, `;`, `#` or a space stays one value."""
    return "#" + urlencode(state)


def data_block(slug: str, configs: list[str], instances: dict[str, Any]) -> str:
    """The <script> element holding a set's data for report.js: its configs, columns and instances."""
    payload = json.dumps({"slug": slug, "configs": configs, "columns": SHOWN_COLUMNS, "instances": instances},
                         separators=(",", ":"), default=str, allow_nan=False)
    return f'<script type="application/json" id="data-{esc(slug)}">{script_safe(payload)}</script>'


def script_safe(payload: str) -> str:
    """JSON text that cannot end or comment out the <script> element holding it: every `<`, `>` and `&`
    (only ever inside its strings) written as its \\u escape, which JSON.parse reads back as it was.
    Escaping `</` alone is not enough: `<!--<script>` in a name puts the HTML parser in a state where the
    element's real end tag is taken as text, and the rest of the page is swallowed."""
    return payload.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def summary_table(summary: pd.DataFrame) -> str:
    """The per-configuration summary that `harness.run` prints, as HTML."""
    head = "".join(f"<th>{breakable(c)}</th>" for c in ["config", *summary.columns])
    body = []
    for config, row in summary.iterrows():
        cells = []
        for column, value in row.items():
            if column.endswith("_s") or column.startswith(("speedup", "solved_median")):
                cells.append(f'<td class="num">{number(float(value))}</td>')
            elif pd.isna(value):
                cells.append('<td class="num">–</td>')
            else:
                marked = f' class="num st-{column}"' if column in FLAGGED and value else ' class="num"'
                cells.append(f'<td{marked}>{"" if value == 0 else int(value)}</td>')
        body.append(f"<tr><th>{esc(config)}</th>{''.join(cells)}</tr>")
    return (f'<div class="wide"><table class="summary"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def breakable(name: str) -> str:
    """A column name, escaped, that may wrap after each `_` (`speedup_vs_circuit_low`), so a table of
    many such columns fits the page's width."""
    return "_<wbr>".join(esc(part) for part in name.split("_"))


def disagreement_table(contested: pd.DataFrame) -> str:
    if contested.empty:
        return ""
    head = "".join(f"<th>{esc(c)}</th>" for c in contested.columns)
    body = "".join("<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row) + "</tr>"
                   for row in contested.itertuples(index=False))
    opened = " open" if len(contested) <= 5 else ""
    return (f'<details class="disagreements"{opened}><summary class="st-wrong">Disagreements: '
            f"{len(contested)} puzzle(s) called unsat by some runs while a solution the checker accepts "
            f"exists, or with a suspect claim (a proof judged wrong, a refuted uniqueness claim)"
            f"</summary><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></details>")


def versions_view(versions: list[Version], folder: Path, out: Path) -> str:
    """Where a config ran under several fingerprints: its median time per fingerprint, with the commits."""
    if not versions:
        return ""
    plot = figures.versions_plot(versions, folder)
    first: dict[str, float] = {}
    rows = []
    for v in versions:
        base = first.setdefault(v.config, v.median_s)
        known = base and not math.isnan(base) and not math.isnan(v.median_s)
        ratio = v.median_s / base if known else math.nan
        slower = ' class="st-wrong"' if ratio > 1.2 else ""
        rows.append(f"<tr><th>{esc(v.config)}</th><td><code>{esc(v.fingerprint[:12])}</code></td>"
                    f"<td><code>{esc(', '.join(v.commits) or '–')}</code></td><td>{esc(v.first_run)}</td>"
                    f'<td class="num">{v.runs}</td><td class="num">{v.solved}</td>'
                    f'<td class="num">{number(v.median_s)}</td><td class="num">{v.common}</td>'
                    f'<td class="num"{slower}>{number(ratio)}</td></tr>')
    head = "".join(f"<th>{h}</th>" for h in ("config", "fingerprint", "commit", "first run", "runs", "solved",
                                               "median CPU (s)", "on instances", "× first version"))
    image = (f'<figure><img src="{esc(link(plot, out))}" alt="median solve time per code version" '
             f'loading="lazy"></figure>') if plot else ""
    return f"""<h3>Versions of the code</h3>
<p class="note">Configurations that ran under several fingerprints (code versions), oldest first: the
median verified solve time of each version on the instances every version of that configuration ran;
more than 1.2× the first version is marked. Times are CPU time of the encoding's own work. The tables
and plots above show only the newest version.</p>
<table class="versions"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>
{image}"""


def published_view(data: SetData, folder: Path, out: Path) -> str:
    """The measured configurations beside a published table's (`analysis.side_by_side`), labelled so."""
    s = data.beside
    if s is None:
        return ""
    table = s.table.assign(rank=s.table["rank"].map(lambda r: "" if pd.isna(r) else str(int(r))))
    head = "".join(f"<th>{breakable(c)}</th>" for c in ["config", *table.columns])
    body = []
    for config, row in table.iterrows():
        mark = ' class="published"' if row["side"] != "measured" else ""
        cells = "".join(f'<td class="num">{number(v) if isinstance(v, float) else esc(v)}</td>' for v in row)
        body.append(f"<tr{mark}><th>{esc(config)}</th>{cells}</tr>")
    same = "".join(f"<li>{esc(one)}</li>" for one in s.same)
    pictures = figures.published(data, folder)
    figs = "".join(f'<figure><a href="{esc(link(path, out))}"><img src="{esc(link(path, out))}" '
                   f'alt="{esc(caption)}" loading="lazy"></a><figcaption>{esc(caption)}</figcaption></figure>'
                   for caption, path in pictures)
    return f"""<h3>Published results side by side</h3>
<p class="warn">{esc(s.note)}</p>
<p class="note">Ranked over both sides (a wrong answer after every configuration without one, then most
solved within {s.limit_s:g} s, then least PAR-2). Published rows ran on another machine: compare the
shapes of the curves and the ranks, not the seconds. Nothing of the published file is in the results
database.</p>
<div class="wide"><table class="summary published-table"><thead><tr>{head}</tr></thead>
<tbody>{"".join(body)}</tbody></table></div>
{f"<p>Same program on both sides (the machine factor):</p><ul>{same}</ul>" if same else ""}
<div class="figures">{figs}</div>"""


def status_options(data: SetData) -> str:
    present = {c.status for row in data.rows for c in row.by_config.values()}
    ordered = [name for name, _ in LEGEND if name in present] + sorted(present - {n for n, _ in LEGEND})
    return "".join(f'<option value="{esc(s)}">{esc(s)}</option>' for s in ordered)


def runs_table(data: SetData, drawn: set[str]) -> str:
    head = ['<th data-col="instance" data-type="text">instance</th>',
            '<th data-col="size" data-type="num">size</th>']
    head += [f'<th data-col="{esc(c)}" data-type="num">{esc(c)}</th>' for c in data.configs]
    body = []
    for row in data.rows:
        pictured = PICTURED if row.key in drawn else ""
        statuses = sorted({c.status for c in row.by_config.values()})
        text = " ".join([row.key, row.size, *statuses]).lower()
        href = fragment(set=data.slug, instance=row.key)
        flag = FLAG if row.flagged else ""
        cells = [f'<td data-sort="{esc(row.name)}"><a href="{esc(href)}" class="open">{esc(row.name)}</a>'
                 f"{flag}{pictured}</td>",
                 f'<td class="num" data-sort="{row.measure}">{esc(row.size)}</td>']
        for config in data.configs:
            c = row.by_config.get(config)
            if c is None:
                cells.append('<td class="st-none" data-sort="Infinity">not run</td>')
                continue
            score = "Infinity" if math.isinf(c.score) or math.isnan(c.score) else repr(c.score)
            cells.append(f'<td class="st-{esc(c.status)}" data-sort="{score}"><span class="s">{esc(c.status)}'
                         f'</span> <span class="t">{number(c.time_s)}</span></td>')
        body.append(f'<tr data-key="{esc(row.key)}" data-statuses="{esc(" ".join(statuses))}" '
                    f'data-text="{esc(text)}">{"".join(cells)}</tr>')
    return (f'<table class="runs"><thead><tr>{"".join(head)}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def drawing_cap(kind: str, max_size: int | None) -> tuple[int, str]:
    """The largest puzzle of this kind the report draws, and its unit: `max_size` if given, else the
    kind's own (`Kind.drawn_up_to`: 2500 cells, a 50x50 grid; a graph's 1000 vertices)."""
    known = kinds.kinds().get(kind, kinds.Kind)  # a kind no longer installed: a grid's defaults
    return (known.drawn_up_to if max_size is None else max_size), known.size_words.split(" (")[0]


def instance_data(data: SetData, drawn: list[Row], folder: Path, out: Path, cap: int,
                  unit: str) -> dict[str, Any]:
    """Per instance: its statistics per config and, for the drawn ones, the SVGs of puzzle and answers."""
    chosen = {row.key for row in drawn}
    instances = {}
    for row in data.rows:
        entry: dict[str, Any] = {"name": row.name, "size": row.size, "source": row.source,
                                 "sha256": row.sha256[:12], "flagged": row.flagged,
                                 "drawn": row.key in chosen,
                                 "runs": {c: cell.runs for c, cell in row.by_config.items()},
                                 "status": {c: cell.status for c, cell in row.by_config.items()},
                                 "time": {c: cell.time_s for c, cell in row.by_config.items()}}
        if row.key in chosen and row.measure > cap:
            entry["note"] = f"not drawn: {row.size} is past the report's {cap} {unit} (--max-size)"
        elif row.key in chosen:
            entry.update(draw_row(row, folder / "puzzles", out))
        instances[row.key] = clean(entry)
    return instances


def draw_row(row: Row, folder: Path, out: Path) -> dict[str, Any]:
    """Draw the puzzle and each distinct answer once; returns where each drawing is, or why there is none."""
    puzzle, why = figures.puzzle_of(row.source, row.sha256)
    if puzzle is None:
        return {"note": f"not drawn: {why}"}
    stem = unique_slug(row.key)  # `a b`, `a_b` and `a?b` slug alike: the hash keeps them apart
    plain = figures.drawing(puzzle, "", folder / f"{stem}.svg")
    answers: dict[str, Any] = {}
    done: dict[str, Path | None] = {}
    for config, c in row.by_config.items():
        if not c.solution:
            continue
        if c.solution not in done:
            done[c.solution] = figures.drawing(puzzle, c.solution,
                                               folder / f"{stem}--{figures.answer_name(c.solution)}.svg")
        path = done[c.solution]
        answers[config] = {"img": rel(path, out) if path else None, "partial": c.partial}
    return {"puzzle": rel(plain, out) if plain else None, "answers": answers}


def clean(value: Any) -> Any:
    """JSON-safe: NaN and infinities become null."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value
