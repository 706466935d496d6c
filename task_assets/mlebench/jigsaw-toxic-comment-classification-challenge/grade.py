"""Grading for jigsaw-toxic-comment-classification-challenge.

The answers are Kaggle's published test labels, in which the comments that were
never scored carry -1 in all six label columns. As MLE-bench does, those rows are
left out and the score is the column-wise ROC AUC (one AUC per label column,
averaged) over the remaining rows. Predictions may be any real numbers: only
their order within a column matters.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.authoring.metrics import get_metric

LABELS = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]
METRIC = "column-wise ROC AUC"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean per-column ROC AUC over the scored rows (submission and answers aligned by id)."""
    truth = answers[LABELS].to_numpy(dtype=float)
    scored = truth.sum(axis=1) >= 0
    predicted = submission[LABELS].to_numpy(dtype=float)
    return get_metric(METRIC).score(truth[scored].astype(int), predicted[scored])
