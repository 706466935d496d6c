"""nfl-player-contact-detection graded as MLE-bench grades it: Matthews correlation.

The submission needs the columns ``contact_id`` and ``contact`` (others are ignored); its
set of ``contact_id`` values must equal the answers' and its row count theirs (rejected
otherwise). Both files are sorted by ``contact_id`` and scikit-learn's
``matthews_corrcoef(true, predicted)`` of the ``contact`` columns, paired by position, is
the score: the predictions are taken as class labels (0/1, 0.0/1.0 and True/False all
work; probabilities or a blank make it fail).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID_COLUMN = "contact_id"
TARGET = "contact"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Matthews correlation coefficient of the submitted contact labels."""
    from sklearn.metrics import matthews_corrcoef

    require(ID_COLUMN in answers.columns, f"answers lack {ID_COLUMN!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    if not {ID_COLUMN, TARGET}.issubset(set(submission.columns)):
        raise InvalidSubmission(f"the submission needs the columns {ID_COLUMN} and {TARGET}")
    if set(submission[ID_COLUMN]) != set(answers[ID_COLUMN]):
        raise InvalidSubmission(f"the submission's {ID_COLUMN!r} values are not the test ids")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    sub = submission.sort_values(ID_COLUMN)
    ans = answers.sort_values(ID_COLUMN)
    return float(matthews_corrcoef(ans[TARGET], sub[TARGET]))
