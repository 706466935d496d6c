"""alaska2-image-steganalysis graded as MLE-bench grades it: the weighted AUC.

MLE-bench checks the row count and the ``Id`` and ``Label`` columns (others are
ignored), sorts both files by ``Id`` and compares the ids position by position; the
submitted ``Label`` must convert to float (any real score, True/False as 1/0) and hold
no NaN. scikit-learn's ``roc_curve`` (positive label 1; an infinite score makes it fail)
gives the curve; the true-positive rates 0, 0.4 and 1 are inserted where missing, their
false-positive rates linearly interpolated. The area between TPR 0 and 0.4 (weight 2)
and between 0.4 and 1 (weight 1) is each taken with ``sklearn.metrics.auc`` over the
curve's points in that band closed by the point (1, top of band), and the weighted sum
is divided by 2 * 0.4 + 1 * 0.6. Only the ranking of the scores matters.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

TPR_LEVELS = [0.0, 0.4, 1.0]
WEIGHTS = [2, 1]


def _with_levels(fpr: np.ndarray, tpr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The curve with each TPR level added where it is absent: placed before the first
    larger TPR, its FPR interpolated between that point and the one before it."""
    xs = fpr.tolist()
    ys = tpr.tolist()
    for level in TPR_LEVELS:
        if level in ys:
            continue
        for i, y in enumerate(ys):
            if y > level:
                x = xs[i - 1] + (xs[i] - xs[i - 1]) * (level - ys[i - 1]) / (ys[i] - ys[i - 1])
                ys.insert(i, level)
                xs.insert(i, x)
                break
    return np.array(xs), np.array(ys)


def weighted_auc(y_true: np.ndarray, y_score: np.ndarray) -> float:
    """ALASKA2's weighted area under the ROC curve, computed band by band."""
    from sklearn.metrics import auc, roc_curve

    fpr, tpr, _ = roc_curve(y_true, y_score, pos_label=1)
    fpr, tpr = _with_levels(fpr, tpr)
    total: float = 0
    for band, weight in enumerate(WEIGHTS):
        low, high = TPR_LEVELS[band], TPR_LEVELS[band + 1]
        inside = (low <= tpr) & (tpr <= high)
        if inside.sum() == 0:
            continue
        xs = np.concatenate([fpr[inside], [1]])
        ys = np.concatenate([tpr[inside], [high]]) - low
        total += auc(xs, ys) * weight
    widths = np.array(TPR_LEVELS[1:]) - np.array(TPR_LEVELS[:-1])
    return float(total / np.dot(widths, WEIGHTS))


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Weighted AUC of the submitted scores."""
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test image "
            f"({len(answers)})"
        )
    for column in ("Id", "Label"):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    sub = submission.sort_values("Id")
    ans = answers.sort_values("Id")
    if (sub["Id"].values != ans["Id"].values).any():
        raise InvalidSubmission("the submission's 'Id' values are not the test images")
    try:
        scores = sub["Label"].astype(float)
    except ValueError:
        raise InvalidSubmission("'Label' must hold numbers") from None
    labels = ans["Label"].astype(float)
    require(not labels.isnull().any(), "the answers hold NaN")
    if scores.isnull().any():
        raise InvalidSubmission("'Label' must not be blank or NaN")
    return weighted_auc(np.array(labels), np.array(scores))
