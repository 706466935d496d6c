"""learning-agency-lab-automated-essay-scoring-2 graded as MLE-bench grades it: quadratic
weighted kappa.

The submission needs the columns ``score`` and ``essay_id`` (others are ignored) and at
least one row. Both files are sorted by ``essay_id`` and the id arrays compared element
by element: a different id is a rejection, a different row count makes the comparison
itself fail (there is no separate count check). scikit-learn's
``cohen_kappa_score(predicted, true, weights="quadratic")`` is the score; it takes the
scores as class labels (3.0 equals 3, 3.5 or a blank makes it fail).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID_COLUMN = "essay_id"
TARGET = "score"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Quadratic weighted kappa of the submitted scores."""
    from sklearn.metrics import cohen_kappa_score

    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    require(ID_COLUMN in answers.columns, f"answers lack {ID_COLUMN!r}")
    require(not answers.empty, "the answers are empty")
    for column in (TARGET, ID_COLUMN):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if submission.empty:
        raise InvalidSubmission("the submission has no rows")

    sub = submission.sort_values(by=ID_COLUMN)
    ans = answers.sort_values(by=ID_COLUMN)
    if (sub[ID_COLUMN].values != ans[ID_COLUMN].values).any():
        raise InvalidSubmission(f"the submission's {ID_COLUMN!r} values are not the test ids")
    return float(cohen_kappa_score(sub[TARGET].values, ans[TARGET].values, weights="quadratic"))
