"""detecting-insults-in-social-commentary graded as MLE-bench grades it: ROC AUC of ``Insult``.

There is no id column: both files are sorted on the ``Comment`` text and matched row by
row (the comments must then be equal position by position). ``Insult`` must be numeric
with every value in [0, 1] (a blank passes that check, then makes scikit-learn fail);
``Date`` and any other column are ignored.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import auroc_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """ROC AUC of the submitted insult probabilities."""
    from sklearn.metrics import roc_auc_score

    y_true, y_score = auroc_inputs(submission, answers, id_column="Comment", target_column="Insult")
    return float(roc_auc_score(y_true, y_score))
