"""The metric registry: named scoring functions and their direction.

A metric is a function of two aligned arrays (answers first, predictions
second, same shape, one row per id, sorted the same way) returning a float.
Adding one takes one function and the decorator line above it::

    @register("mean-absolute-error", lower_is_better=True, aliases=("mae",))
    def mean_absolute_error(y_true: np.ndarray, y_pred: np.ndarray) -> float:
        return float(np.mean(np.abs(y_true - y_pred)))

Every name (the canonical one and each alias) is a key of :data:`METRICS`;
all of them map to :class:`Metric` objects sharing the same function.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

MetricFn = Callable[[np.ndarray, np.ndarray], float]


@dataclass(frozen=True)
class Metric:
    """A named scoring function and its direction.

    ``name`` is the name the metric was looked up under; ``canonical`` the name
    of the implementation it shares with its aliases (equal to ``name`` for the
    canonical entry itself).
    """

    name: str
    lower_is_better: bool
    fn: MetricFn
    canonical: str = ""
    aliases: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.canonical:
            object.__setattr__(self, "canonical", self.name)

    def score(self, y_true: np.ndarray, y_pred: np.ndarray) -> float:
        """Score aligned arrays; ``ValueError`` if shapes differ or there are no rows."""
        truth = np.asarray(y_true)
        pred = np.asarray(y_pred)
        if truth.shape != pred.shape:
            raise ValueError(f"{self.name}: shapes differ: {truth.shape} vs {pred.shape}")
        if truth.ndim == 0 or truth.shape[0] == 0:
            raise ValueError(f"{self.name}: no rows to score")
        return float(self.fn(truth, pred))


class UnknownMetric(KeyError):
    """No metric of that name is registered."""

    def __str__(self) -> str:  # KeyError would show the repr of the message
        return str(self.args[0]) if self.args else "unknown metric"


METRICS: dict[str, Metric] = {}
"""Every registered metric, by name (canonical names and aliases alike)."""


def register(
    name: str, *, lower_is_better: bool, aliases: Iterable[str] = ()
) -> Callable[[MetricFn], MetricFn]:
    """Decorator adding ``fn`` to :data:`METRICS` under ``name`` and each of ``aliases``.

    Returns ``fn`` unchanged. ``ValueError`` if any of the names is already taken
    (nothing is registered in that case).
    """
    alias_names = tuple(aliases)

    def add(fn: MetricFn) -> MetricFn:
        names = (name, *alias_names)
        taken = [n for n in names if n in METRICS]
        if taken or len(set(names)) != len(names):
            raise ValueError(f"metric {(taken or [name])[0]!r} is registered twice")
        for key in names:
            METRICS[key] = Metric(
                name=key,
                lower_is_better=lower_is_better,
                fn=fn,
                canonical=name,
                aliases=alias_names,
            )
        return fn

    return add


def get_metric(name: str) -> Metric:
    """The metric called ``name``; :class:`UnknownMetric` (a ``KeyError``) lists the known ones."""
    try:
        return METRICS[name]
    except KeyError:
        known = ", ".join(sorted(METRICS)) or "none"
        raise UnknownMetric(f"unknown metric {name!r}; known metrics: {known}") from None
