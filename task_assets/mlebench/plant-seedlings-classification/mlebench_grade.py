"""plant-seedlings-classification graded as MLE-bench grades it: micro F1 of ``species``.

MLE-bench's grader wants the columns ``file`` and ``species`` (others are ignored) and
as many rows as the answers; both frames are sorted by ``file``, which must then equal
the answers' position by position. The species are compared as they are (any text is
accepted; a name outside the twelve species counts as wrong) by scikit-learn's
``f1_score(average="micro")``, which for one label per row is the accuracy; a blank
species makes it fail (text mixed with NaN), as does a column of numbers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "file"
TARGET = "species"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Micro-averaged F1 (the accuracy) of the submitted species."""
    from sklearn.metrics import f1_score

    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test image "
            f"({len(answers)})"
        )
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    if np.asarray(sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test files")
    return float(
        f1_score(y_true=ans[TARGET].tolist(), y_pred=sub[TARGET].tolist(), average="micro")
    )
