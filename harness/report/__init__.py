"""A report people open in a browser: `python -m harness.report --db DB --out DIR` writes DIR/index.html.

Per instance set (as `harness.plot` splits them): the summary table `harness.run` prints, the
cactus and scatter plots, the versions of the code, and the runs table (one row per instance,
a column per configuration) that sorts, filters and opens an instance with its puzzle and
every configuration's answer drawn. `data` arranges what the analysis package computes,
`figures` draws, `page` writes the HTML; `report.js` and `report.css` are copied beside it.
"""

from __future__ import annotations

from pathlib import Path

from harness.report import data, page


def build(db: str | Path, out: str | Path, draw: int | None = 20, baseline: str | None = None,
          all_fingerprints: bool = False, max_size: int | None = None,
          published: str | Path | None = None, published_columns: str = "") -> Path:
    """Write the report of `db` into `out`; returns index.html. `draw`: instances drawn per set, None all;
    `max_size`: the largest puzzle drawn, in its kind's measure (None: each kind's `drawn_up_to`);
    `published`: a published per-instance table shown beside each set that has instances in it
    (`harness.published`; raises its PublishedError, a ValueError, for a bad file), only the columns
    `published_columns` matches where it names any (`published.only`)."""
    from harness.published import only, read

    table = only(read(published), published_columns) if published is not None else None
    found = data.sets(str(db), all_fingerprints, table, baseline)
    if baseline is not None:  # a set without it uses its default; a name no set knows is an error
        from harness.analysis.plots import resolve_baseline

        resolve_baseline(sorted({c for one in found for c in one.configs}), baseline)
    return page.write(found, Path(out), str(db), draw, baseline, max_size)
