"""predict-volcanic-eruptions-ingv-oe graded as MLE-bench grades it: mean absolute error of
``time_to_eruption``, rounded to a whole number.

The submission needs ``segment_id`` and ``time_to_eruption`` columns (others are ignored)
and the same set of segment ids as the answers; the row count is not checked. The two
files are then inner-joined on ``segment_id``, so a repeated submission row is scored
twice (its segment counts twice in the mean). scikit-learn's MAE over the joined rows
(a blank or infinite prediction makes it fail) is rounded half to even to an integer.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "segment_id"
TARGET = "time_to_eruption"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean absolute error of the submitted times, rounded to an integer."""
    from sklearn.metrics import mean_absolute_error

    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    require(ID in answers.columns, f"answers lack {ID!r}")
    for column in (TARGET, ID):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if set(submission[ID]) != set(answers[ID]):
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test segments")
    joined = answers.merge(submission[[ID, TARGET]], on=ID, suffixes=("_true", "_pred"))
    error = mean_absolute_error(y_true=joined[f"{TARGET}_true"], y_pred=joined[f"{TARGET}_pred"])
    rounded: int = round(error)  # OverflowError if infinite, as in MLE-bench
    return float(rounded)
