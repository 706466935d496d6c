"""iwildcam-2020-fgvc7 graded as MLE-bench grades it: accuracy of ``Category``.

The submission needs one row per answers row and the columns ``Category`` and ``Id``
(others are ignored). Both files are sorted by ``Id`` and the ids must be equal row for
row (an answers id that repeats must repeat in the submission too). scikit-learn's
``accuracy_score`` of the categories is the score: labels compare as numbers (5.0 equals
5); a blank, or text among number labels, makes it fail.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import accuracy_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Accuracy of the submitted categories."""
    from sklearn.metrics import accuracy_score

    y_true, y_pred = accuracy_inputs(submission, answers, target_column="Category", id_column="Id")
    return float(accuracy_score(y_true=y_true, y_pred=y_pred))
