"""the-icml-2013-whale-challenge-right-whale-redux graded as MLE-bench grades it: ROC AUC.

MLE-bench's grader requires ``clip`` and ``probability`` columns (others are ignored)
and one row per test clip; the probabilities must be numbers (``pandas.to_numeric``)
within [0, 1] (a blank cell passes that check); both files are sorted by ``clip`` and the
names compared position by position, then scikit-learn's ``roc_auc_score`` ranks the
probabilities (it fails on a blank value).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import auroc_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """ROC AUC of the submitted whale-call probabilities."""
    from sklearn.metrics import roc_auc_score

    y_true, y_score = auroc_inputs(
        submission, answers, id_column="clip", target_column="probability"
    )
    return float(roc_auc_score(y_true, y_score))
