"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading


def alaska_weighted_auc(labels: np.ndarray, scores: np.ndarray) -> float:
    """Weighted AUC as MLE-bench computes it: sklearn's ROC curve with a point at TPR 0.4."""
    from sklearn.metrics import auc, roc_curve

    fpr, tpr, _ = roc_curve(labels, scores)
    fpr, tpr = list(fpr), list(tpr)
    for level in (0.0, 0.4, 1.0):
        if level not in tpr:
            i = next(i for i, v in enumerate(tpr) if v > level)
            fpr.insert(
                i, fpr[i - 1] + (fpr[i] - fpr[i - 1]) * (level - tpr[i - 1]) / (tpr[i] - tpr[i - 1])
            )
            tpr.insert(i, level)
    fpr, tpr = np.array(fpr), np.array(tpr)
    total = 0.0
    for low, high, weight in ((0.0, 0.4, 2), (0.4, 1.0, 1)):
        band = (tpr >= low) & (tpr <= high)
        total += weight * auc(np.r_[fpr[band], 1.0], np.r_[tpr[band], high] - low)
    return total / (2 * 0.4 + 1 * 0.6)


def case_alaska() -> ExactCase:
    labels = np.array([0, 1, 0, 1, 1, 0, 0, 1, 0, 1])
    ids = [f"{i:04d}.jpg" for i in range(1, 11)]
    answers = pd.DataFrame({"Id": ids, "Label": labels})
    perfect = pd.DataFrame({"Id": ids, "Label": labels * 3.5 - 1.0})  # any increasing score
    scores = np.array([0.1, 0.9, 0.8, 0.3, 0.7, 0.2, 0.6, 0.65, 0.05, 0.95])
    imperfect = pd.DataFrame({"Id": ids, "Label": scores})
    malformed = "Id,Label\n" + "".join(f"{i},high\n" for i in ids)
    return ExactCase(
        answers, perfect, imperfect, alaska_weighted_auc(labels, scores), malformed, 1.0
    )


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_alaska),
}
