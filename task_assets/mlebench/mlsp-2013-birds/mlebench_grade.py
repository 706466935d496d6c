"""mlsp-2013-birds graded as MLE-bench grades it: one ROC AUC over all (recording,
species) rows.

MLE-bench's grader needs the ``Id`` and ``Probability`` columns (others are ignored)
and one row per answer row; ``Probability`` must convert to numbers and lie in
[0, 1] (a blank passes that check, then makes scikit-learn fail); both files are
sorted by ``Id`` and the ids must be equal position by position (so ``100.0``
matches ``100``). The score is scikit-learn's ``roc_auc_score`` over every row.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import auroc_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """ROC AUC of ``Probability`` over all rows."""
    from sklearn.metrics import roc_auc_score

    y_true, y_score = auroc_inputs(submission, answers, id_column="Id", target_column="Probability")
    return float(roc_auc_score(y_true, y_score))
