"""paddy-disease-classification graded as MLE-bench grades it: accuracy of ``label``.

MLE-bench's grader wants the columns ``image_id`` and ``label`` (others are ignored) and
as many rows as the answers. Both frames are sorted by ``image_id``, whose values must
then be equal position by position. Blank labels become empty strings (always wrong);
the score is scikit-learn's accuracy of the submitted labels against the answers'
(labels pandas read as numbers make scikit-learn fail on the mix of types).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "image_id"
TARGET = "label"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Accuracy of the submitted disease labels."""
    from sklearn.metrics import accuracy_score

    require({ID, TARGET} <= set(answers.columns), "answers lack image_id or label")
    require(not answers.isnull().values.any(), "answers hold blanks")
    if not {ID, TARGET} <= set(submission.columns):
        raise InvalidSubmission(f"the submission needs the columns {ID!r} and {TARGET!r}")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test image "
            f"({len(answers)})"
        )
    sub = submission.sort_values(by=ID).reset_index(drop=True)
    ans = answers.sort_values(by=ID).reset_index(drop=True)
    if (sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test images")
    y_pred = sub[TARGET].fillna("").tolist()
    return float(accuracy_score(y_true=ans[TARGET], y_pred=y_pred))
