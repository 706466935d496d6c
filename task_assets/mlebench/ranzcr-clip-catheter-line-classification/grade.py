"""Grading for ranzcr-clip-catheter-line-classification.

MLE-bench scores each of the eleven label columns with its own binary ROC AUC
and averages the eleven values (unweighted). The registered ``auc-roc`` metric
is applied to one column at a time, so how the metric library would combine
several columns does not matter here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring.metrics import get_metric

CLASSES = [
    "ETT - Abnormal",
    "ETT - Borderline",
    "ETT - Normal",
    "NGT - Abnormal",
    "NGT - Borderline",
    "NGT - Incompletely Imaged",
    "NGT - Normal",
    "CVC - Abnormal",
    "CVC - Borderline",
    "CVC - Normal",
    "Swan Ganz Catheter Present",
]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean of the per-column ROC AUCs (submission and answers aligned by id)."""
    auc = get_metric("auc-roc")
    scores = [
        auc.score(answers[name].to_numpy(dtype=int), submission[name].to_numpy(dtype=float))
        for name in CLASSES
    ]
    return float(np.mean(scores))
