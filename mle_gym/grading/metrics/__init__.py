"""Metric library: every metric named in MLE-bench's competition list, in numpy only.

A metric is a function of two aligned arrays (answers first, predictions
second, same shape, one row per id, sorted the same way) returning a float: 1-D
for one target column, rows x columns for several, object arrays for text.
Tasks name their metric in ``task.yaml`` (``metric: accuracy``); the grader
looks it up with :func:`get_metric`. Spelling variants of one metric are aliases
sharing its implementation (``root_mean_squared_error`` ->
``root-mean-squared-error``).

Modules, by family: :mod:`.classification`, :mod:`.ranking`, :mod:`.regression`,
:mod:`.probabilistic`, :mod:`.segmentation`, :mod:`.detection`, :mod:`.text`,
:mod:`.geo`, :mod:`.jigsaw`; the registry itself is :mod:`.registry`. Besides
the registered scores they export plain functions for task graders that must
parse a submission first (RLE masks, box strings, label lists...).
"""

from __future__ import annotations

from mle_gym.grading.metrics import (
    classification,
    detection,
    geo,
    jigsaw,
    probabilistic,
    ranking,
    regression,
    segmentation,
    text,
)
from mle_gym.grading.metrics.classification import accuracy
from mle_gym.grading.metrics.registry import (
    METRICS,
    Metric,
    MetricFn,
    UnknownMetric,
    get_metric,
    register,
)

__all__ = [
    "METRICS",
    "Metric",
    "MetricFn",
    "UnknownMetric",
    "accuracy",
    "classification",
    "detection",
    "geo",
    "get_metric",
    "jigsaw",
    "probabilistic",
    "ranking",
    "register",
    "regression",
    "segmentation",
    "text",
]
