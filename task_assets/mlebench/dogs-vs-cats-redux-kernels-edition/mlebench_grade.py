"""dogs-vs-cats-redux-kernels-edition graded as MLE-bench grades it: log loss of ``label``.

MLE-bench's checks, in order: the submission has ``id`` and ``label``; its set of ids is
the answers' set (Python set equality, so ``7.0`` equals ``7``); it has as many rows as
the answers; every ``label`` is in [0, 1] (a blank cell fails that comparison). Both
frames are then sorted by ``id`` and paired by position (the sorted ids are not compared)
and scikit-learn's ``log_loss`` scores the labels against the predicted dog
probabilities (extra columns are ignored).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "id"
TARGET = "label"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Binary log loss of the submitted dog probabilities (lower is better)."""
    from sklearn.metrics import log_loss

    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if set(submission[ID]) != set(answers[ID]):
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    predicted = submission[TARGET]
    if not ((predicted >= 0) & (predicted <= 1)).all():
        raise InvalidSubmission(f"every {TARGET!r} must be a probability in [0, 1]")
    y_pred = submission.sort_values(ID)[TARGET]
    y_true = answers.sort_values(ID)[TARGET]
    return float(log_loss(y_true=y_true, y_pred=y_pred))
