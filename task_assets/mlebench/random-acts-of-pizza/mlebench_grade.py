"""random-acts-of-pizza graded as MLE-bench grades it: ROC AUC of the predicted outcome.

MLE-bench's grader uses its shared ROC-AUC preparation: the columns ``request_id`` and
``requester_received_pizza`` (others are ignored), as many rows as the answers, a
prediction column ``pandas.to_numeric`` accepts with its minimum and maximum within
[0, 1] (blanks are skipped by that check), both frames sorted by ``request_id`` with the
ids equal position by position. The score is scikit-learn's ``roc_auc_score``, which
fails on a blank prediction.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import auroc_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """ROC AUC of the submitted probabilities."""
    from sklearn.metrics import roc_auc_score

    y_true, y_score = auroc_inputs(
        submission, answers, id_column="request_id", target_column="requester_received_pizza"
    )
    return float(roc_auc_score(y_true=y_true, y_score=y_score))
