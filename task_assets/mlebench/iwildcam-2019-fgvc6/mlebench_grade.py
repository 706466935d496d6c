"""iwildcam-2019-fgvc6 graded as MLE-bench grades it: macro F1 of ``Category``.

MLE-bench's grader wants as many rows as the answers and the columns ``Id`` and
``Category`` (others, such as the pandas index its own sample submission carries, are
ignored). Both frames are sorted by ``Id``, which must then be equal position by
position. Every ``Category`` is passed through Python's ``int()``: numbers pandas read
as floats are truncated (3.7 becomes 3), True/False become 1/0, and in a column read as
text each cell must be something ``int()`` accepts (" 3", "1_1"); a blank, inf, "3.0" or
other text makes the grader fail. The score is scikit-learn's macro-averaged F1 over
the classes appearing in either list.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "Id"
TARGET = "Category"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Macro F1 of the submitted categories."""
    from sklearn.metrics import f1_score

    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    if (sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    y_true = [int(value) for value in ans[TARGET]]
    y_pred = [int(value) for value in sub[TARGET]]
    return float(f1_score(y_true=y_true, y_pred=y_pred, average="macro"))
