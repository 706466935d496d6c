"""Metric registry, in numpy only.

A metric is a function of two aligned arrays (answers first, predictions
second, same shape, one row per id, sorted the same way) returning a float.
Adding one takes one function and the decorator line above it::

    @register("mean_absolute_error", lower_is_better=True)
    def mean_absolute_error(y_true: np.ndarray, y_pred: np.ndarray) -> float:
        return float(np.mean(np.abs(y_true - y_pred)))

Tasks name their metric in ``task.yaml`` (``metric: accuracy``); the grader
looks it up with :func:`get_metric`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

MetricFn = Callable[[np.ndarray, np.ndarray], float]


@dataclass(frozen=True)
class Metric:
    """A named scoring function and its direction."""

    name: str
    lower_is_better: bool
    fn: MetricFn

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
"""Every registered metric, by name."""


def register(name: str, *, lower_is_better: bool) -> Callable[[MetricFn], MetricFn]:
    """Decorator adding ``fn`` to :data:`METRICS` under ``name``; returns ``fn`` unchanged."""

    def add(fn: MetricFn) -> MetricFn:
        if name in METRICS:
            raise ValueError(f"metric {name!r} is registered twice")
        METRICS[name] = Metric(name=name, lower_is_better=lower_is_better, fn=fn)
        return fn

    return add


def get_metric(name: str) -> Metric:
    """The metric called ``name``; :class:`UnknownMetric` (a ``KeyError``) lists the known ones."""
    try:
        return METRICS[name]
    except KeyError:
        known = ", ".join(sorted(METRICS)) or "none"
        raise UnknownMetric(f"unknown metric {name!r}; known metrics: {known}") from None


@register("accuracy", lower_is_better=False)
def accuracy(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Share of rows predicted exactly; with several columns a row counts only if all match."""
    hits = np.asarray(y_true == y_pred, dtype=bool)
    if hits.ndim > 1:
        hits = hits.all(axis=tuple(range(1, hits.ndim)))
    return float(hits.mean())
