"""herbarium-2022-fgvc9 graded as MLE-bench grades it: macro F1 of the ``Predicted`` classes.

The submission must have as many rows as the answers and both ``Id`` and ``Predicted``
columns (others are ignored). Both files are sorted on ``Id`` and the ids must be equal
position by position (``7.0`` matches ``7``). Every label is passed through Python's
``int()``: ``12.7`` counts as class 12, ``"12"`` as 12, ``True`` as 1; a blank, an
infinite value or text that is no integer makes the grader fail. The score is
scikit-learn's macro F1 over the classes of both files (a predicted class absent from the
answers lowers it).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission

ID = "Id"
TARGET = "Predicted"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Macro F1 of the submitted classes against the answers' classes."""
    from sklearn.metrics import f1_score

    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    if ID not in submission.columns or TARGET not in submission.columns:
        raise InvalidSubmission(f"the submission needs the columns {ID!r} and {TARGET!r}")
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    if np.asarray(sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    y_true = [int(label) for label in ans[TARGET]]
    y_pred = [int(label) for label in sub[TARGET]]
    return float(f1_score(y_true=y_true, y_pred=y_pred, average="macro"))
