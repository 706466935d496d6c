"""denoising-dirty-documents graded as MLE-bench grades it: RMSE of the pixel ``value``.

MLE-bench checks the answers, then that the submission has ``id`` and ``value`` columns
(others are ignored) and that ``value`` converts to float (the converted copy is thrown
away), then the row count; both files are sorted by ``id`` and the ids compared position
by position. scikit-learn's ``root_mean_squared_error`` then gets the submitted values as
pandas parsed them (a blank or infinite value makes it fail; True/False count as 1/0).
Values outside [0, 1] are not clipped.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import GraderFailure, InvalidSubmission, require


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Root mean squared error between the submitted and the true pixel values."""
    from sklearn.metrics import root_mean_squared_error

    require("id" in answers.columns, "answers lack 'id'")
    require("value" in answers.columns, "answers lack 'value'")
    try:
        answers["value"].astype(float)
    except ValueError:
        raise GraderFailure("the answers' values are not numbers") from None
    for column in ("id", "value"):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    try:
        submission["value"].astype(float)
    except ValueError:
        raise InvalidSubmission("'value' must hold numbers") from None
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per pixel "
            f"({len(answers)})"
        )
    sub = submission.sort_values(by="id").sort_index(axis=1)
    ans = answers.sort_values(by="id").sort_index(axis=1)
    if (sub["id"].values != ans["id"].values).any():
        raise InvalidSubmission("the submission's 'id' values are not the test pixel ids")
    return float(root_mean_squared_error(y_true=sub["value"], y_pred=ans["value"]))
