"""herbarium-2020-fgvc7 graded as MLE-bench grades it: macro F1 of the category ids.

MLE-bench's grader first requires as many rows as the answers, then ``Id`` and
``Predicted`` columns (others are ignored); both files are sorted by ``Id`` and the ids
compared position by position (so ``7.0`` matches ``7``). Every prediction is passed
through Python's ``int()``: ``12.9`` counts as category 12, text or a blank cell makes
the grader fail. scikit-learn's ``f1_score(average="macro")`` averages over every
category that appears in the answers or the predictions (a predicted category absent
from the answers adds an F1 of 0).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Macro-averaged F1 of the submitted category ids."""
    from sklearn.metrics import f1_score

    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test image "
            f"({len(answers)})"
        )
    if "Id" not in submission.columns or "Predicted" not in submission.columns:
        raise InvalidSubmission("the submission must have 'Id' and 'Predicted' columns")
    require("Id" in answers.columns, "answers lack 'Id'")
    require("Predicted" in answers.columns, "answers lack 'Predicted'")
    guess = submission.sort_values("Id")
    truth = answers.sort_values("Id")
    if (guess["Id"].values != truth["Id"].values).any():
        raise InvalidSubmission("the submission's 'Id' values are not the test image ids")
    y_true = [int(value) for value in truth["Predicted"]]
    y_pred = [int(value) for value in guess["Predicted"]]
    return float(f1_score(y_true=y_true, y_pred=y_pred, average="macro"))
