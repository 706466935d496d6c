"""text-normalization-challenge-english-language graded as MLE-bench grades it: accuracy of
``after``.

MLE-bench checks the answers' columns, then the submission's row count and its ``after``
and ``id`` columns (others are ignored); both files are sorted by ``id`` and the ids
compared position by position. Both ``after`` columns are then converted with pandas'
``astype(str)`` as pandas 2 converts them (a number pandas parsed, e.g. ``1.50`` read as
1.5, becomes ``"1.5"``; a cell pandas reads as missing, such as a blank, ``NA``, ``null``
or ``None``, becomes ``"nan"``) and compared exactly by scikit-learn's ``accuracy_score``.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "id"
TARGET = "after"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Share of tokens whose ``after`` text equals the answer's."""
    from sklearn.metrics import accuracy_score

    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    require(ID in answers.columns, f"answers lack {ID!r}")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    for column in (TARGET, ID):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    if (sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    y_pred = sub[TARGET].astype(str).to_numpy()
    y_true = ans[TARGET].astype(str).to_numpy()
    return float(accuracy_score(y_pred=y_pred, y_true=y_true))
