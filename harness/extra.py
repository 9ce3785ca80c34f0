"""The `extra` JSON column of runs, read and written in one place: a dict, merged fields, one field's column.

`extra` holds what is encoding- or harness-specific (docs/FORMATS.md). Readers are lenient: an empty,
missing, unreadable or non-object blob reads as `{}`, so one damaged row never stops a summary.
Writers always sort keys and turn what JSON cannot hold into strings, so equal fields give equal text.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported only by `extra_column`: workers read and write extra without it
    import pandas as pd


def read_extra(blob: object) -> dict[str, Any]:
    """The dict an `extra` value holds; `{}` for None, "", text that is not JSON, JSON that is no object."""
    if isinstance(blob, dict):
        return dict(blob)
    if not isinstance(blob, str) or not blob:
        return {}
    try:
        value = json.loads(blob)
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def row_extra(row: dict[str, Any]) -> dict[str, Any]:
    """A run row's `extra` as a fresh dict (see `read_extra`)."""
    return read_extra(row.get("extra"))


def write_extra(fields: dict[str, Any]) -> str:
    """The `extra` text for `fields`: keys sorted, values JSON cannot hold written as strings."""
    return json.dumps(fields, sort_keys=True, default=str)


def merge_extra(blob: object, fields: dict[str, Any]) -> str:
    """The `extra` text of `blob` with `fields` added (a field already there is replaced)."""
    return write_extra({**read_extra(blob), **fields})


def extra_column(runs: pd.DataFrame, key: str) -> pd.Series:
    """One field of every run's `extra` (None where a run lacks it or has no `extra` column)."""
    import pandas as pd

    if "extra" not in runs:
        return pd.Series([None] * len(runs), index=runs.index, dtype=object)
    quoted = json.dumps(key)  # a blob without the quoted key cannot hold it: most blobs are never parsed

    def value(blob: object) -> Any:
        return read_extra(blob).get(key) if isinstance(blob, str) and quoted in blob else None

    # not Series.map: it turns None into NaN where the other values are numbers
    return pd.Series([value(blob) for blob in runs["extra"]], index=runs.index, dtype=object)
