"""plant-pathology-2020-fgvc7 graded as MLE-bench grades it: mean ROC AUC of the four
classes.

The submission needs one row per answers row and exactly the columns ``image_id``,
``healthy``, ``multiple_diseases``, ``rust`` and ``scab`` (any order; an extra column,
a written DataFrame index too, is rejected). Both files are sorted by ``image_id`` and
the ids must be equal row for row. scikit-learn's ``roc_auc_score`` of each class column
(any real numbers; a blank or text makes it fail), averaged over the four classes, is
the score.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID_COLUMN = "image_id"
CLASSES = ("healthy", "multiple_diseases", "rust", "scab")
COLUMNS = (ID_COLUMN, *CLASSES)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over the classes of the ROC AUC of the submitted scores."""
    from sklearn.metrics import roc_auc_score

    require(set(answers.columns) == set(COLUMNS), f"answers must have the columns {COLUMNS}")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    if set(submission.columns) != set(COLUMNS):
        raise InvalidSubmission(f"the submission must have exactly the columns {COLUMNS}")
    sub = submission.sort_values(by=ID_COLUMN).reset_index(drop=True)
    ans = answers.sort_values(by=ID_COLUMN).reset_index(drop=True)
    if not all(sub[ID_COLUMN] == ans[ID_COLUMN]):
        raise InvalidSubmission(f"the submission's {ID_COLUMN!r} values are not the test ids")
    aucs = [roc_auc_score(y_true=ans[c], y_score=sub[c]) for c in CLASSES]
    return float(np.mean(aucs))
