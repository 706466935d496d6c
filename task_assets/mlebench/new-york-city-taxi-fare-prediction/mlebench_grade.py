"""new-york-city-taxi-fare-prediction graded as MLE-bench grades it: RMSE of
``fare_amount``.

The submission needs the columns ``key`` and ``fare_amount`` (others are ignored). Both
files are sorted by ``key`` and scikit-learn's ``root_mean_squared_error`` of the two
``fare_amount`` columns, paired by position, is the score. The keys are never compared:
any keys, even none that exist, are accepted, and a key that sorts elsewhere shifts the
pairing; only a different row count, a blank, text or an infinite value makes the metric
fail.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID_COLUMN = "key"
TARGET = "fare_amount"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Root mean squared error of the submitted fares, paired after sorting by key."""
    from sklearn.metrics import root_mean_squared_error

    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    require(ID_COLUMN in answers.columns, f"answers lack {ID_COLUMN!r}")
    for column in (TARGET, ID_COLUMN):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    sub = submission.sort_values(ID_COLUMN)
    ans = answers.sort_values(ID_COLUMN)
    return float(root_mean_squared_error(ans[TARGET], sub[TARGET]))
