"""champs-scalar-coupling graded as MLE-bench grades it: mean over types of log(MAE).

MLE-bench's grader wants the columns ``scalar_coupling_constant`` and ``id`` (others are
ignored) and the same set of ``id`` values as the answers; the row count is not checked,
so a repeated id passes. The answers are inner-joined with the submission's two columns
on ``id`` (``DataFrame.merge``; a repeated id is scored once per copy, ``12.0`` joins
``12``), the joined rows are grouped by the answers' ``type`` and the score is the mean
over types of ``log`` of scikit-learn's ``mean_absolute_error``. The log is not
floored: a type predicted exactly gives ``-inf``, and so does the mean (the best score,
reported as MLE-bench reports it); NaN, infinite or text predictions make scikit-learn
fail.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "id"
TARGET = "scalar_coupling_constant"
GROUP = "type"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean of the per-type logarithms of the mean absolute error."""
    from sklearn.metrics import mean_absolute_error

    for column in (TARGET, ID, GROUP):
        require(column in answers.columns, f"answers lack {column!r}")
    for column in (TARGET, ID):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if set(submission[ID]) != set(answers[ID]):
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    joined = answers.merge(submission[[ID, TARGET]], on=ID, suffixes=("_true", "_pred"))
    with np.errstate(divide="ignore"):  # log(0) = -inf, MLE-bench's value too
        per_type = [
            np.log(mean_absolute_error(rows[f"{TARGET}_true"], rows[f"{TARGET}_pred"]))
            for _, rows in joined.groupby(GROUP)
        ]
    return float(np.mean(per_type))
