"""Reading the whitespace-separated ``PredictionString`` cells of detection tasks: numbers
and groups of tokens, with errors naming the column (:mod:`.detection` and its parts)."""

from __future__ import annotations

import math
from typing import Any

from mle_gym.grading.metrics._common import is_missing


def _number(token: str, what: str) -> float:
    try:
        value = float(token)
    except ValueError:
        raise ValueError(f"{what}: {token!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{what}: {token!r} is not a finite number")
    return value


def _tokens(cell: Any, per_object: int, what: str) -> list[list[str]]:
    """Whitespace-separated tokens of a cell in groups of ``per_object`` (blank = none)."""
    if is_missing(cell):
        return []
    tokens = str(cell).split()
    if len(tokens) % per_object:
        raise ValueError(
            f"{what}: expected {per_object} values per object, got {len(tokens)} value(s) in "
            f"{str(cell)[:60]!r}"
        )
    return [tokens[i : i + per_object] for i in range(0, len(tokens), per_object)]
