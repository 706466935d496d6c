"""statoil-iceberg-classifier-challenge graded as MLE-bench grades it: log loss of ``is_iceberg``.

The submission needs ``id`` and ``is_iceberg`` columns (others are ignored) and the same
set of ids as the answers; the row count is not checked, so a repeated id passes that
check and then makes the metric fail (the two columns differ in length). Every
``is_iceberg`` value must be in [0, 1] (a blank fails that check). Both files are sorted
on ``id`` and scikit-learn's ``log_loss`` compares the columns position by position.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "id"
TARGET = "is_iceberg"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Log loss of the submitted iceberg probabilities."""
    from sklearn.metrics import log_loss

    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if set(submission[ID]) != set(answers[ID]):
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    probability = submission[TARGET]
    if not ((probability >= 0) & (probability <= 1)).all():
        raise InvalidSubmission(f"every {TARGET!r} value must be a probability in [0, 1]")
    y_pred = submission.sort_values(ID)[TARGET]
    y_true = answers.sort_values(ID)[TARGET]
    return float(log_loss(y_true, y_pred))
