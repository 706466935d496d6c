"""herbarium-2021-fgvc8 graded as MLE-bench grades it: macro F1 of ``Predicted``.

MLE-bench's checks, in order: as many rows as the answers; ``Id`` and ``Predicted``
present (other columns are ignored); both frames sorted by ``Id`` with the ids equal
position by position (``!=``, so ``7.0`` matches ``7``). Every label is then converted
with Python's ``int()``: a float is truncated (``2.7`` counts as class 2), ``True`` is 1,
a text cell holding an integer (in a column pandas read as text) is that integer, and a
blank, NaN, infinite or non-integer text makes the grader fail. scikit-learn's
``f1_score(average="macro")`` over the classes of both lists gives the score.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "Id"
TARGET = "Predicted"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Macro-averaged F1 of the submitted class ids."""
    from sklearn.metrics import f1_score

    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    if ID not in submission.columns or TARGET not in submission.columns:
        raise InvalidSubmission(f"the submission must have the columns {ID!r} and {TARGET!r}")
    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    if (sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    y_true = [int(value) for value in ans[TARGET]]
    y_pred = [int(value) for value in sub[TARGET]]
    return float(f1_score(y_true=y_true, y_pred=y_pred, average="macro"))
