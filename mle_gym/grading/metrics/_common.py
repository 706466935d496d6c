"""Input checks and small numeric helpers shared by the metric families."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np


def floats(name: str, values: Any, *, what: str = "values") -> np.ndarray:
    """``values`` as a float64 array; ``ValueError`` for text, NaN or infinity."""
    try:
        out = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}: {what} must be numbers ({exc})") from None
    if out.size and not np.isfinite(out).all():
        bad = int(np.count_nonzero(~np.isfinite(out)))
        raise ValueError(f"{name}: {what} contain {bad} NaN or infinite value(s)")
    return out


def probabilities(name: str, values: Any, *, what: str = "predictions") -> np.ndarray:
    """Finite floats in ``[0, 1]``; ``ValueError`` otherwise."""
    out = floats(name, values, what=what)
    if out.size and (out.min() < 0 or out.max() > 1):
        raise ValueError(
            f"{name}: {what} must be probabilities in [0, 1]; got values in "
            f"[{out.min():g}, {out.max():g}]"
        )
    return out


def as_2d(name: str, values: np.ndarray) -> np.ndarray:
    """A 1-D array as one column, a 2-D array unchanged; ``ValueError`` otherwise."""
    if values.ndim == 1:
        return values[:, None]
    if values.ndim != 2:
        raise ValueError(f"{name}: expected a 1-D or 2-D array, got {values.ndim} dimensions")
    return values


def need_columns(name: str, values: np.ndarray, count: int, meaning: str) -> None:
    """``ValueError`` unless ``values`` is 2-D with ``count`` columns."""
    if values.ndim != 2 or values.shape[1] != count:
        raise ValueError(
            f"{name}: expected a 2-D array with {count} columns ({meaning}); got shape "
            f"{values.shape}"
        )


def _cell_text(value: Any, missing: str) -> str:
    """A cell as text, ``missing`` for ``None`` and NaN."""
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return missing
    return str(value)


def text(value: Any) -> str:
    """A cell as text the way ``pandas`` ``astype(str)`` shows it (``None``/NaN -> ``'nan'``)."""
    return _cell_text(value, "nan")


def blank_to_empty(value: Any) -> str:
    """A cell as text with missing values (``None``/NaN) as ``''`` (``fillna('')``)."""
    return _cell_text(value, "")


def is_missing(value: Any) -> bool:
    """``None``, NaN or a blank string: a cell ``pandas`` would read as missing."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return isinstance(value, str) and value.strip() == ""


def rank_average(values: np.ndarray) -> np.ndarray:
    """1-based ranks of a 1-D array, ties getting the mean of their ranks."""
    order = np.argsort(values, kind="mergesort")
    ordered = values[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    ends = np.r_[starts[1:], len(values)]
    mean_rank = (starts + ends + 1) / 2.0  # ranks starts+1 .. ends averaged
    ranks = np.empty(len(values), dtype=np.float64)
    ranks[order] = np.repeat(mean_rank, ends - starts)
    return ranks


def pearson(name: str, x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r of two 1-D float arrays; ``ValueError`` if either is constant."""
    if len(x) < 2:
        raise ValueError(f"{name}: a correlation needs at least 2 rows")
    dx = x - x.mean()
    dy = y - y.mean()
    nx = math.sqrt(float(np.dot(dx, dx)))
    ny = math.sqrt(float(np.dot(dy, dy)))
    if nx == 0.0 or ny == 0.0:
        which = "answers" if nx == 0.0 else "predictions"
        raise ValueError(f"{name}: the correlation is undefined because the {which} are constant")
    r = float(np.dot(dx / nx, dy / ny))
    return max(-1.0, min(1.0, r))


def mean_of(name: str, values: Sequence[float]) -> float:
    """Arithmetic mean; ``ValueError`` for an empty sequence."""
    if len(values) == 0:
        raise ValueError(f"{name}: nothing to average")
    return float(np.mean(np.asarray(values, dtype=np.float64)))
