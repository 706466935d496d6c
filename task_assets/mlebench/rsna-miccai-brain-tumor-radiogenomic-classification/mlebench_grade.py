"""rsna-miccai-brain-tumor-radiogenomic-classification graded as MLE-bench grades it.

The score is the ROC AUC of ``MGMT_value``. MLE-bench's grader requires ``BraTS21ID``
and ``MGMT_value`` columns (others are ignored) and one row per test case; the values
must be numbers (``pandas.to_numeric``) within [0, 1] (a blank cell passes that check);
both files are sorted by ``BraTS21ID`` and the ids compared position by position as
pandas reads them: the answers' zero-padded ids (``00013``) are read as integers, so
``13``, ``013`` and ``13.0`` all match. scikit-learn's ``roc_auc_score`` then ranks the
values (it fails on a blank value).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import auroc_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """ROC AUC of the submitted MGMT promoter methylation probabilities."""
    from sklearn.metrics import roc_auc_score

    y_true, y_score = auroc_inputs(
        submission, answers, id_column="BraTS21ID", target_column="MGMT_value"
    )
    return float(roc_auc_score(y_true, y_score))
