"""Regression and correlation metrics: RMSE, RMSLE, MAE, log-MAE, Pearson, Spearman, Kendall."""

from __future__ import annotations

import math
from bisect import bisect_right, insort
from collections.abc import Sequence
from typing import Any

import numpy as np

from mle_gym.grading.metrics._common import as_2d, floats, mean_of, pearson, rank_average, text
from mle_gym.grading.metrics.registry import register


def _pair(name: str, y_true: np.ndarray, y_pred: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return floats(name, y_true, what="answers"), floats(name, y_pred)


def root_mean_squared_error(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """``sqrt(mean((y - p)^2))``; for rows x columns the mean of the per-column RMSEs.

    The 2-D form is scikit-learn's ``multioutput="uniform_average"`` and also the
    MCRMSE of Stanford COVID vaccine (mean column-wise RMSE).
    """
    t, p = _pair("root-mean-squared-error", y_true, y_pred)
    t2 = as_2d("root-mean-squared-error", t)
    p2 = as_2d("root-mean-squared-error", p)
    return float(np.mean(np.sqrt(np.mean((t2 - p2) ** 2, axis=0))))


@register("root-mean-squared-error", lower_is_better=True, aliases=("root_mean_squared_error",))
def rmse(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Root mean squared error; see :func:`root_mean_squared_error`."""
    return root_mean_squared_error(y_true, y_pred)


@register("mean-column-wise-rmsle", lower_is_better=True)
def mean_column_wise_rmsle(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Mean over columns of ``sqrt(mean((log(1 + p) - log(1 + y))^2))`` (NOMAD 2018).

    A 1-D array is one column. ``ValueError`` for values ``<= -1`` (the log is
    undefined there; scikit-learn raises the same error).
    """
    name = "mean-column-wise-rmsle"
    t, p = _pair(name, y_true, y_pred)
    if (t <= -1).any() or (p <= -1).any():
        raise ValueError(f"{name}: values must be greater than -1 for log(1 + x)")
    t2 = as_2d(name, np.log1p(t))
    p2 = as_2d(name, np.log1p(p))
    return float(np.mean(np.sqrt(np.mean((t2 - p2) ** 2, axis=0))))


def mean_absolute_error(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """``mean(|y - p|)`` (the mean of per-column MAEs for rows x columns, which is the same)."""
    t, p = _pair("mean-absolute-error", y_true, y_pred)
    t2 = as_2d("mean-absolute-error", t)
    p2 = as_2d("mean-absolute-error", p)
    return float(np.mean(np.mean(np.abs(t2 - p2), axis=0)))


@register("mean-absolute-error", lower_is_better=True)
def rounded_mean_absolute_error(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """MAE rounded to a whole number, as MLE-bench grades INGV volcanic eruptions.

    ``int(round(mean(|y - p|)))`` (Python rounding: halves go to the even
    neighbour). Tasks needing the exact MAE (e.g. ventilator pressure) call
    :func:`mean_absolute_error`.
    """
    return float(round(mean_absolute_error(y_true, y_pred)))


MAE_FLOOR = 1e-9
"""Smallest MAE whose log is taken, so that a perfect group scores log(1e-9), not -inf."""


def grouped_log_mae(y_true: Any, y_pred: Any, groups: Sequence[Any]) -> float:
    """CHAMPS score: mean over groups (coupling types) of ``log(MAE within the group)``.

    Each group's MAE is floored at :data:`MAE_FLOOR` (MLE-bench takes the plain
    log, which is ``-inf`` for a perfect group; the floor keeps the score finite).
    """
    name = "log-mean-absolute-error"
    t = floats(name, y_true, what="answers").ravel()
    p = floats(name, y_pred).ravel()
    keys = np.asarray([text(g) for g in groups], dtype=object)
    if not len(t) == len(p) == len(keys):
        raise ValueError(f"{name}: answers, predictions and groups differ in length")
    logs = []
    for key in sorted(set(keys.tolist())):
        mask = keys == key
        mae = float(np.mean(np.abs(t[mask] - p[mask])))
        logs.append(math.log(max(mae, MAE_FLOOR)))
    return mean_of(name, logs)


@register("log-mean-absolute-error", lower_is_better=True)
def log_mae(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """``log(max(MAE, 1e-9))``; for rows x columns the mean over columns of that.

    The CHAMPS competition averages this over scalar-coupling types; its task
    grader passes the types to :func:`grouped_log_mae`.
    """
    name = "log-mean-absolute-error"
    t, p = _pair(name, y_true, y_pred)
    maes = np.mean(np.abs(as_2d(name, t) - as_2d(name, p)), axis=0)
    return float(np.mean(np.log(np.maximum(maes, MAE_FLOOR))))


@register("pearson-correlation-coefficient", lower_is_better=False)
def pearson_correlation(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Pearson's r between answers and predictions (``scipy.stats.pearsonr``).

    ``r = sum(dx dy) / sqrt(sum(dx^2) sum(dy^2))`` with ``dx = x - mean(x)``; for
    rows x columns the mean of per-column r. ``ValueError`` for a constant column
    (r is undefined; SciPy returns NaN).
    """
    name = "pearson-correlation-coefficient"
    t, p = _pair(name, y_true, y_pred)
    t2, p2 = as_2d(name, t), as_2d(name, p)
    return mean_of(name, [pearson(name, t2[:, j], p2[:, j]) for j in range(t2.shape[1])])


def spearman(name: str, x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rho: Pearson's r of the average ranks (ties share their mean rank)."""
    return pearson(name, rank_average(x), rank_average(y))


@register("column-wise-spearman", lower_is_better=False)
def column_wise_spearman(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Mean over columns of Spearman's rank correlation (Google QUEST).

    Each column's rho is Pearson's r of the tie-averaged ranks
    (``scipy.stats.spearmanr``). ``ValueError`` naming the column when a column
    of answers or predictions is constant: rho is NaN there and MLE-bench's mean
    would be NaN.
    """
    name = "column-wise-spearman"
    t, p = _pair(name, y_true, y_pred)
    t2, p2 = as_2d(name, t), as_2d(name, p)
    rhos = []
    for j in range(t2.shape[1]):
        try:
            rhos.append(spearman(name, t2[:, j], p2[:, j]))
        except ValueError as exc:
            raise ValueError(f"{exc} (column {j + 1})") from None
    return mean_of(name, rhos)


def _inversions(ranks: list[int]) -> int:
    """Number of pairs ``i < j`` with ``ranks[i] > ranks[j]``."""
    n = len(ranks)
    if n < 2:
        return 0
    if n <= 2048:
        r = np.asarray(ranks)
        return int(np.count_nonzero(np.triu(r[:, None] > r[None, :], k=1)))
    seen: list[int] = []
    count = 0
    for i, value in enumerate(ranks):
        count += i - bisect_right(seen, value)
        insort(seen, value)
    return count


def kendall_tau_orders(
    ground_truth: Sequence[Sequence[str]], predictions: Sequence[Sequence[str]]
) -> float:
    """AI4Code's Kendall tau over many orderings, pooled.

    For each row, the predicted order is mapped to positions in the true order and
    its inversions are counted; ``tau = 1 - 4 * sum(inversions) / sum(n (n - 1))``.
    Each prediction must be a permutation of its true items (``ValueError``
    otherwise), and some row must have at least two items.
    """
    name = "kendall-tau"
    if len(ground_truth) != len(predictions):
        raise ValueError(
            f"{name}: {len(ground_truth)} answer rows but {len(predictions)} predictions"
        )
    total_inv = 0
    total_pairs2 = 0
    for row, (truth, pred) in enumerate(zip(ground_truth, predictions, strict=True), start=1):
        position = {item: i for i, item in enumerate(truth)}
        if len(pred) != len(truth) or len(position) != len(truth) or set(pred) != set(position):
            raise ValueError(
                f"{name}: row {row}: the prediction must list each of the {len(truth)} items "
                f"exactly once; got {len(pred)} item(s)"
            )
        total_inv += _inversions([position[item] for item in pred])
        n = len(truth)
        total_pairs2 += n * (n - 1)
    if total_pairs2 == 0:
        raise ValueError(f"{name}: every row has fewer than two items; tau is undefined")
    return 1.0 - 4.0 * total_inv / total_pairs2


@register("kendall-tau", lower_is_better=False)
def kendall_tau(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Kendall tau of orderings (Google AI4Code); see :func:`kendall_tau_orders`.

    ``y_true``/``y_pred``: 1-D object arrays, each cell a space-separated order
    of item ids (``"c3 c1 c2"``).
    """
    truth = [text(v).split() for v in np.ravel(y_true)]
    pred = [text(v).split() for v in np.ravel(y_pred)]
    return kendall_tau_orders(truth, pred)
