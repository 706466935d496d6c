"""ventilator-pressure-prediction graded as MLE-bench grades it: MAE where ``u_out`` is 0.

MLE-bench's grader wants the columns ``id`` and ``pressure`` (others are ignored) and
as many rows as the answers; both frames are sorted by ``id``, which must then equal the
answers' position by position (``12.0`` matches ``12``). The answers' rows with
``u_out`` other than 0 (the expiratory phase) are dropped, the submission keeps the rows
whose ``id`` is among the remaining ones (``Series.isin``), and the score is
scikit-learn's ``mean_absolute_error`` of the two ``pressure`` columns, which fails on
NaN, infinite or text values among the kept rows; what an expiratory row holds is never
looked at.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "id"
TARGET = "pressure"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean absolute error of the submitted pressure over the inspiratory steps."""
    from sklearn.metrics import mean_absolute_error

    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test time "
            f"step ({len(answers)})"
        )
    sub = submission.sort_values(by=ID).reset_index(drop=True)
    ans = answers.sort_values(by=ID).reset_index(drop=True)
    if np.asarray(sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    ans = ans[ans["u_out"] == 0]
    sub = sub[sub[ID].isin(ans[ID])]
    sub = sub.sort_values(by=ID).reset_index(drop=True)
    ans = ans.sort_values(by=ID).reset_index(drop=True)
    return float(mean_absolute_error(ans[TARGET].values, sub[TARGET].values))
