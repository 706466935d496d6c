"""tabular-playground-series-may-2022 graded as MLE-bench grades it: ROC AUC of ``target``.

MLE-bench's grader requires ``id`` and ``target`` columns (others are ignored) and one row
per test id; the predictions must be numbers (``pandas.to_numeric``; True/False count as
1/0) within [0, 1] (infinity is outside, a blank cell passes that check); both files are
sorted by ``id`` and the ids compared position by position (so ``7.0`` matches ``7``),
then scikit-learn's ``roc_auc_score`` ranks the predictions (it fails on a blank).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import auroc_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """ROC AUC of the submitted probabilities."""
    from sklearn.metrics import roc_auc_score

    y_true, y_score = auroc_inputs(submission, answers, id_column="id", target_column="target")
    return float(roc_auc_score(y_true, y_score))
