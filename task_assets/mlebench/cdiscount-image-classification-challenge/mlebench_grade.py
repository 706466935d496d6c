"""cdiscount-image-classification-challenge graded as MLE-bench grades it: accuracy.

MLE-bench's grader uses its shared accuracy preparation: as many rows as the answers,
the columns ``category_id`` and ``_id`` (others are ignored), both frames sorted by
``_id`` with the ids equal position by position (numerically, so 10.0 matches 10). The
score is scikit-learn's accuracy of ``category_id`` as pandas read it (1000010653.0
equals 1000010653; a blank makes scikit-learn fail, as does text mixed with numbers).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import accuracy_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Accuracy of the submitted product categories."""
    from sklearn.metrics import accuracy_score

    y_true, y_pred = accuracy_inputs(
        submission, answers, target_column="category_id", id_column="_id"
    )
    return float(accuracy_score(y_true=y_true, y_pred=y_pred))
