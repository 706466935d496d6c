"""aerial-cactus-identification graded as MLE-bench grades it: ROC AUC of ``has_cactus``.

Both frames must have ``id`` and ``has_cactus`` and as many rows as there are test ids (other
columns are ignored); ``has_cactus`` must convert to numbers and lie in [0, 1] (a blank cell
passes that check and then makes the metric fail). Both frames are sorted by ``id`` and
the ids must then agree position by position (``!=``, so ``7.0`` matches ``7``);
scikit-learn's ``roc_auc_score`` gives the score.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import auroc_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """ROC AUC of the submitted ``has_cactus`` probabilities."""
    from sklearn.metrics import roc_auc_score

    y_true, y_score = auroc_inputs(submission, answers, id_column="id", target_column="has_cactus")
    return float(roc_auc_score(y_true, y_score))
