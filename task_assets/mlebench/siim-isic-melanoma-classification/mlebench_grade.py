"""siim-isic-melanoma-classification graded as MLE-bench grades it: ROC AUC of ``target``.

MLE-bench's grader uses its shared ROC-AUC preparation: the columns ``image_name`` and
``target`` (others are ignored), as many rows as the answers, a ``target`` column that
``pandas.to_numeric`` accepts with its minimum and maximum within [0, 1] (blanks are
skipped by that check), both frames sorted by ``image_name`` with the names equal
position by position. The score is scikit-learn's ``roc_auc_score``, which fails on a
blank prediction.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import auroc_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """ROC AUC of the submitted melanoma probabilities."""
    from sklearn.metrics import roc_auc_score

    y_true, y_score = auroc_inputs(
        submission, answers, id_column="image_name", target_column="target"
    )
    return float(roc_auc_score(y_true=y_true, y_score=y_score))
