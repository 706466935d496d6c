"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, ParityCase


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


IDS = [f"{i:04d}.jpg" for i in range(1, 11)]
ANSWERS = pd.DataFrame({"Id": IDS, "Label": [0, 1, 0, 1, 1, 0, 0, 1, 0, 1]})
# ranked: + + - + + - + - - -; ROC corners (0,0) (0,.4) (.2,.4) (.2,.8) (.4,.8) (.4,1) (1,1).
# TPR 0-0.4: height 0.4 from x=0: 0.4, weight 2; TPR 0.4-1 (less 0.4): 0.4 on [.2,.4] and
# 0.6 on [.4,1]: 0.08 + 0.36 = 0.44. (0.8 + 0.44) / 1.4 = 0.88571
SUBMISSION = ANSWERS.assign(Label=[0.1, 0.9, 0.8, 0.3, 0.7, 0.2, 0.6, 0.65, 0.05, 0.95])
# three positives: TPR steps of 1/3, so TPR 0.4 is inserted at FPR 1/3 (between (1/3, 1/3)
# and (1/3, 2/3)). Band 1: 1/3 on [0,1/3] + 0.4 on [1/3,1] = 0.37778, x2 = 0.75556; band 2:
# 0.26667 on [1/3,2/3] + 0.6 on [2/3,1] = 0.28889; (0.75556 + 0.28889) / 1.4 = 0.74603
SIX = pd.DataFrame({"Id": IDS[:6], "Label": [1, 0, 1, 0, 1, 0]})
SIX_SCORES = SIX.assign(Label=[0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
EXPECTED = {
    "shuffled_rows": "same",
    "reordered_columns": "same",
    "extra_column": "same",
    "index_column": "same",
    "missing_id": "invalid",
    "duplicate_id": "invalid",
    "unknown_id": "invalid",
    "blank_target": "invalid",
    "empty_file": "invalid",
    "header_only": "invalid",
}

CASES: dict[str, Check] = {
    "grading": ExactGrading(case_alaska),
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.88571,
        # a second negative at 0.1: TPR 1 reached at FPR 2/6; (0.8 + 0.46667) / 1.4
        expected={**EXPECTED, "duplicate_answer_keys": 0.90476},
    ),
    "parity-inserted-threshold": ParityCase(
        SIX,
        SIX_SCORES,
        score=0.74603,
        # a fourth positive at 0.9: TPR 0.4 inserted at FPR 0; (0.8 + 0.35) / 1.4
        expected={**EXPECTED, "duplicate_answer_keys": 0.82143},
    ),
}
