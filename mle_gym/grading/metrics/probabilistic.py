"""Metrics on predicted probabilities: log-loss variants, KL divergence, Laplace log-likelihood."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from mle_gym.grading.metrics._common import floats, need_columns, probabilities
from mle_gym.grading.metrics.registry import register

EPS64 = float(np.finfo(np.float64).eps)
"""Clipping margin of scikit-learn's ``log_loss`` for float64 input (about 2.2e-16)."""

ROW_SUM_TOLERANCE = 1e-6
"""Absolute tolerance (on top of ``numpy.isclose``'s relative 1e-5) for rows summing to 1."""


def _check_rows_sum_to_one(name: str, pred: np.ndarray) -> None:
    sums = pred.sum(axis=1)
    bad = ~np.isclose(sums, 1.0, atol=ROW_SUM_TOLERANCE)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{name}: each row of predicted probabilities must sum to 1; {int(bad.sum())} row(s) "
            f"do not (e.g. row {first + 1} sums to {sums[first]:.6g})"
        )


@register("log-loss", lower_is_better=True, aliases=("multi-class-log-loss",))
def log_loss(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Cross-entropy, as scikit-learn's ``log_loss`` that MLE-bench calls.

    * 1-D: binary; ``y_true`` 0/1 labels, ``y_pred`` the probability of class 1:
      ``-mean(y log p + (1 - y) log(1 - p))``.
    * 2-D: multi-class; ``y_true`` one-hot rows x classes, ``y_pred`` the class
      probabilities, each row summing to 1 (within ``isclose(atol=1e-6)``, the
      check MLE-bench's graders make): ``-mean over rows of sum_k y_k log p_k``.

    Predictions must lie in ``[0, 1]``; they are clipped to ``[eps, 1 - eps]`` with
    ``eps`` the float64 machine epsilon (scikit-learn >= 1.5; no 1e-15 clipping
    and no renormalisation of rows).
    """
    name = "log-loss"
    truth = floats(name, y_true, what="answers")
    pred = probabilities(name, y_pred)
    if pred.ndim == 1:
        if not np.isin(truth, (0.0, 1.0)).all():
            raise ValueError(f"{name}: binary answers must be 0 or 1")
        truth = np.stack([1.0 - truth, truth], axis=1)
        pred = np.stack([1.0 - pred, pred], axis=1)
    elif pred.ndim == 2:
        _check_rows_sum_to_one(name, pred)
    else:
        raise ValueError(f"{name}: expected a 1-D or 2-D array, got {pred.ndim} dimensions")
    clipped = np.clip(pred, EPS64, 1.0 - EPS64)
    terms = np.zeros_like(clipped)
    np.multiply(truth, np.log(clipped), out=terms, where=truth != 0)
    return float(-np.mean(terms.sum(axis=1)))


RSNA_2022_WEIGHTS_NEGATIVE = (7.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
"""RSNA 2022 cervical spine weights of a negative label: patient_overall, C1..C7."""
RSNA_2022_WEIGHTS_POSITIVE = (14.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0)
"""RSNA 2022 cervical spine weights of a positive label: patient_overall, C1..C7."""


def weighted_binary_log_loss(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    negative_weights: Sequence[float],
    positive_weights: Sequence[float],
    *,
    eps: float = 1e-15,
) -> float:
    """Row-normalised weighted binary log-loss over several label columns.

    With ``p`` clipped to ``[eps, 1 - eps]``, per cell
    ``l = -(y log p + (1 - y) log(1 - p))`` and weight ``w = w+`` if ``y = 1`` else
    ``w-``; each row scores ``sum(w l) / sum(w)`` and the result is the mean over
    rows. ``y_true``/``y_pred``: rows x columns, one weight pair per column.
    """
    name = "weighted-multi-label-log-loss"
    truth = floats(name, y_true, what="answers")
    pred = probabilities(name, y_pred)
    need_columns(name, truth, len(negative_weights), "one per weighted label")
    w = truth * np.asarray(positive_weights) + (1 - truth) * np.asarray(negative_weights)
    p = np.clip(pred, eps, 1 - eps)
    loss = -(truth * np.log(p) + (1 - truth) * np.log(1 - p))
    return float(np.mean((loss * w).sum(axis=1) / w.sum(axis=1)))


@register("weighted-multi-label-log-loss", lower_is_better=True)
def rsna_2022_weighted_log_loss(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """RSNA 2022 cervical spine score: :func:`weighted_binary_log_loss` with 8 columns.

    Columns in the order ``patient_overall, C1, ..., C7``; negative weights
    ``7, 1, ..., 1``, positive weights ``14, 2, ..., 2``; clipping at 1e-15.
    """
    return weighted_binary_log_loss(
        y_true, y_pred, RSNA_2022_WEIGHTS_NEGATIVE, RSNA_2022_WEIGHTS_POSITIVE
    )


@register("KL-divergence", lower_is_better=True)
def kl_divergence(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Mean over rows of ``KL(q || p) = sum_k q_k log(q_k / p_k)`` (HMS brain activity).

    ``y_true``: rows x classes of non-negative votes, normalised to ``q = votes /
    row sum`` (as MLE-bench's grader does); ``y_pred``: probabilities in
    ``[0, 1]`` whose rows sum to 1 after rounding to 5 decimals. ``p`` is clipped to
    ``[1e-15, 1 - 1e-15]``; cells with ``q_k = 0`` contribute 0.
    """
    name = "KL-divergence"
    votes = floats(name, y_true, what="answers")
    pred = probabilities(name, y_pred)
    if votes.ndim != 2:
        raise ValueError(f"{name}: expected rows x classes, got shape {votes.shape}")
    if (votes < 0).any():
        raise ValueError(f"{name}: answers must be non-negative vote counts or probabilities")
    totals = votes.sum(axis=1)
    if (totals <= 0).any():
        raise ValueError(f"{name}: every answer row needs at least one vote")
    sums = pred.sum(axis=1)
    bad = [i for i, s in enumerate(sums.tolist()) if round(s, 5) != 1]
    if bad:
        raise ValueError(
            f"{name}: each row of predicted probabilities must sum to 1; {len(bad)} row(s) do not "
            f"(e.g. row {bad[0] + 1} sums to {sums[bad[0]]:.6g})"
        )
    q = votes / totals[:, None]
    p = np.clip(pred, 1e-15, 1 - 1e-15)
    terms = np.zeros_like(q)
    nz = q != 0
    terms[nz] = q[nz] * np.log(q[nz] / p[nz])
    return float(np.mean(terms.sum(axis=1)))


def laplace_log_likelihood(
    fvc_true: np.ndarray, fvc_pred: np.ndarray, confidence: np.ndarray
) -> float:
    """OSIC modified Laplace log-likelihood (higher is better, at most about -4.59).

    ``sigma = max(confidence, 70)`` (missing confidence counts as 0),
    ``delta = min(|true - pred|, 1000)``, per row
    ``-sqrt(2) delta / sigma - log(sqrt(2) sigma)``; the mean over rows.
    """
    name = "modified-laplace-log-likelihood"
    t = floats(name, fvc_true, what="answers").ravel()
    p = floats(name, fvc_pred).ravel()
    conf = np.asarray(confidence, dtype=np.float64).ravel()
    conf = np.where(np.isnan(conf), 0.0, conf)
    floats(name, conf, what="confidences")
    sigma = np.maximum(conf, 70.0)
    delta = np.minimum(np.abs(t - p), 1000.0)
    values = -math.sqrt(2) * delta / sigma - np.log(math.sqrt(2) * sigma)
    return float(np.mean(values))


@register("modified-laplace-log-likelihood", lower_is_better=False)
def modified_laplace_log_likelihood(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """:func:`laplace_log_likelihood` on two-column arrays.

    ``y_pred``: rows x 2 = ``(FVC, Confidence)``; ``y_true``: rows x 2 whose first
    column is the true FVC (the second column is not read). The OSIC task grader
    first keeps each patient's three last weeks, as MLE-bench does.
    """
    name = "modified-laplace-log-likelihood"
    pred = np.asarray(y_pred)
    need_columns(name, pred, 2, "FVC, Confidence")
    need_columns(name, np.asarray(y_true), 2, "FVC, unused")
    return laplace_log_likelihood(y_true[:, 0], pred[:, 0], pred[:, 1])
