"""petfinder-pawpularity-score graded as MLE-bench grades it: RMSE of ``Pawpularity``.

MLE-bench's grader wants the columns ``Id`` and ``Pawpularity`` (others are ignored)
and every prediction within [1, 100] by pandas' ``between`` (a blank fails it, text
makes the comparison fail; True counts as 1 and passes). It does not check the row
count: both frames are sorted by ``Id`` and their ``Id`` arrays compared element by
element, which fails (an error, so no score) when the lengths differ and rejects the
submission when any id differs. The score is scikit-learn's RMSE of the sorted
predictions against the sorted answers.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "Id"
TARGET = "Pawpularity"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """RMSE of the predicted Pawpularity, after MLE-bench's range check."""
    from sklearn.metrics import root_mean_squared_error

    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    require(answers[TARGET].between(1, 100).all(), "answers outside [1, 100]")
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if not submission[TARGET].between(1, 100).all():
        raise InvalidSubmission(f"every {TARGET} must lie between 1 and 100 (inclusive)")
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    if (sub[ID].values != ans[ID].values).any():  # fails outright on unequal lengths
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    return float(
        root_mean_squared_error(y_true=ans[TARGET].to_numpy(), y_pred=sub[TARGET].to_numpy())
    )
