"""Grader of champs-scalar-coupling: mean over coupling types of log(MAE).

Reproduces MLE-bench's grade.py: the submission is matched to the answers by id, the answers'
``type`` column groups the pairs, and the score is the mean over types of ``log(MAE)``, computed
by the metric library's :func:`~mle_gym.grading.metrics.regression.grouped_log_mae`. That
function floors each MAE at 1e-9 (as Kaggle's own metric does), because MLE-bench's unfloored
``log(0) = -inf`` for an exactly predicted type is not a finite score.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.authoring.metrics import grouped_log_mae

TARGET = "scalar_coupling_constant"
GROUP = "type"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean of the per-type log mean absolute errors."""
    return grouped_log_mae(
        answers[TARGET].to_numpy(), submission[TARGET].to_numpy(), answers[GROUP]
    )
