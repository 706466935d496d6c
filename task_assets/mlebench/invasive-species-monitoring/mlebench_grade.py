"""invasive-species-monitoring graded as MLE-bench grades it: ROC AUC of ``invasive``.

MLE-bench's grader wants the columns ``name`` and ``invasive`` (others are ignored) and
as many rows as the answers; ``invasive`` must pass ``pandas.to_numeric`` and its
minimum and maximum must lie in [0, 1] (NaN is skipped by that check). Both frames are
sorted by ``name``, which must then equal the answers' position by position (``==`` of
the values, so ``12.0`` matches ``12``); the score is scikit-learn's ``roc_auc_score``
(which fails on NaN).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import auroc_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """ROC AUC of the submitted probabilities."""
    from sklearn.metrics import roc_auc_score

    y_true, y_score = auroc_inputs(submission, answers, id_column="name", target_column="invasive")
    return float(roc_auc_score(y_true=y_true, y_score=y_score))
