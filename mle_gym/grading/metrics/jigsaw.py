"""Jigsaw Unintended Bias in Toxicity Classification: overall AUC combined with bias AUCs."""

from __future__ import annotations

from typing import Any

import numpy as np

from mle_gym.grading.metrics._common import floats
from mle_gym.grading.metrics.ranking import roc_auc
from mle_gym.grading.metrics.registry import register

JIGSAW_IDENTITIES = (
    "male",
    "female",
    "homosexual_gay_or_lesbian",
    "christian",
    "jewish",
    "muslim",
    "black",
    "white",
    "psychiatric_or_mental_illness",
)
"""Identity columns of the answers, in the order MLE-bench scores them."""

NAME = "jigsaw-unintended-bias-in-toxicity-classification-score"


def _auc(labels: np.ndarray, scores: np.ndarray, where: str) -> float:
    try:
        return roc_auc(labels.astype(np.float64), scores.astype(np.float64), name=NAME)
    except ValueError as exc:
        raise ValueError(f"{exc} ({where})") from None


def generalized_mean(values: list[float], p: float) -> float:
    """Power mean ``(mean(v^p))^(1/p)``; 0.0 when ``p < 0`` and some value is 0 (the limit)."""
    arr = np.asarray(values, dtype=np.float64)
    if p < 0 and (arr == 0).any():
        return 0.0
    return float(np.mean(arr**p) ** (1.0 / p))


def jigsaw_bias_score(
    toxicity_true: Any,
    toxicity_pred: Any,
    identities: Any,
    *,
    p: float = -5.0,
    w: float = 0.25,
    identity_names: tuple[str, ...] = JIGSAW_IDENTITIES,
) -> float:
    """``w * AUC_overall + w * sum over {subgroup, BPSN, BNSP} of M_p(bias AUCs)``.

    ``toxicity_true``: the answers' toxicity (>= 0.5 is toxic); ``toxicity_pred``:
    predicted scores; ``identities``: rows x identities (>= 0.5 mentions the
    identity; NaN counts as not mentioned). For each identity the AUC is taken on
    the rows mentioning it (subgroup), on its non-toxic plus the other toxic rows
    (BPSN) and on its toxic plus the other non-toxic rows (BNSP); ``M_p`` is the
    power mean with ``p = -5`` over the identities.

    Like MLE-bench's grader, the PREDICTIONS are also cut at 0.5 before any AUC is
    taken, so only the side of 0.5 of each score matters. ``ValueError`` when an
    AUC is undefined (a subset holding one class).
    """
    truth: np.ndarray = floats(NAME, toxicity_true, what="answers").ravel() >= 0.5
    pred = (floats(NAME, toxicity_pred).ravel() >= 0.5).astype(np.float64)
    values = np.asarray(identities, dtype=np.float64)
    if values.ndim == 1:
        values = values[:, None]
    if values.shape[0] != len(truth) or len(pred) != len(truth):
        raise ValueError(f"{NAME}: answers, predictions and identities differ in length")
    groups: np.ndarray = np.nan_to_num(values, nan=0.0) >= 0.5
    names = identity_names if len(identity_names) == groups.shape[1] else None
    overall = _auc(truth, pred, "overall")
    bias: list[list[float]] = [[], [], []]
    for j in range(groups.shape[1]):
        label = names[j] if names else f"identity {j + 1}"
        member = groups[:, j]
        subsets = (
            member,
            (~truth & member) | (truth & ~member),
            (truth & member) | (~truth & ~member),
        )
        for kind, (subset, where) in enumerate(
            zip(subsets, ("subgroup", "BPSN", "BNSP"), strict=True)
        ):
            bias[kind].append(_auc(truth[subset], pred[subset], f"{where} AUC of {label}"))
    return w * overall + sum(w * generalized_mean(values, p) for values in bias)


@register(NAME, lower_is_better=False)
def jigsaw_bias_metric(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """:func:`jigsaw_bias_score` on arrays.

    ``y_true``: rows x (1 + identities): the toxicity target then the identity
    columns (MLE-bench's nine, in :data:`JIGSAW_IDENTITIES` order); ``y_pred``: the
    same shape, only its first column (the predicted toxicity) is read.
    """
    if y_true.ndim != 2 or y_true.shape[1] < 2:
        raise ValueError(
            f"{NAME}: expected rows x (toxicity + identity columns), got shape {y_true.shape}"
        )
    return jigsaw_bias_score(y_true[:, 0], y_pred[:, 0], y_true[:, 1:])
