"""Small statistics used by the report: mean with its standard error.

A statistic is the dict ``{"mean": m, "sem": s, "n": n}``: ``n`` values,
their mean, and the standard error of the mean ``stdev / sqrt(n)`` with the
sample standard deviation (``ddof=1``). ``sem`` is None when ``n < 2``; both
are None when ``n == 0`` (the statistic does not apply). Values are rounded to
:data:`DIGITS` decimals so reports computed in different sessions compare equal.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

DIGITS = 6


def _round(x: float | None) -> float | None:
    return None if x is None else round(float(x), DIGITS)


def mean_sem(values: Iterable[float]) -> dict[str, Any]:
    """``{"mean", "sem", "n"}`` of ``values`` (see the module docstring)."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return {"mean": None, "sem": None, "n": 0}
    mean = math.fsum(xs) / n
    if n < 2:
        return {"mean": _round(mean), "sem": None, "n": n}
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    return {"mean": _round(mean), "sem": _round(math.sqrt(var) / math.sqrt(n)), "n": n}


def fmt(stat: dict[str, Any] | None, digits: int = 1) -> str:
    """``"mean ± sem"`` for tables; ``"-"`` when the statistic does not apply."""
    if not stat or stat.get("mean") is None:
        return "-"
    text = f"{stat['mean']:.{digits}f}"
    if stat.get("sem") is not None:
        text += f" ± {stat['sem']:.{digits}f}"
    return text
