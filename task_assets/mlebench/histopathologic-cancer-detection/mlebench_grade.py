"""histopathologic-cancer-detection graded as MLE-bench grades it: ROC AUC of ``label``.

Both frames must have ``id`` and ``label`` and as many rows as there are test ids (other
columns are ignored); ``label`` must convert to numbers and lie in [0, 1] (a blank cell
passes that check and then makes the metric fail). Both frames are sorted by ``id`` and
the ids must then agree position by position (``!=``, so ``7.0`` matches ``7``);
scikit-learn's ``roc_auc_score`` gives the score.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import auroc_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """ROC AUC of the submitted ``label`` probabilities."""
    from sklearn.metrics import roc_auc_score

    y_true, y_score = auroc_inputs(submission, answers, id_column="id", target_column="label")
    return float(roc_auc_score(y_true, y_score))
