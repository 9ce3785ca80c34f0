"""Why a DRAT check ends without a verdict of refuted, in the words both engines and `certify` share."""

from __future__ import annotations

from typing import Any

STOPPED = "check stopped at the time limit"


def failed(step: Any, rat: bool) -> str:
    """Why a lemma (a `drat.Step`) is rejected: its line and literals (the first 12), and what it is not."""
    shown = " ".join(map(str, [*step.lits[:12], *(["..."] if len(step.lits) > 12 else []), 0]))
    need = "neither RUP nor RAT" if rat else "not RUP (RAT not allowed)"
    return f"proof line {step.line}: lemma `{shown}` is {need}"
