"""lmsys-chatbot-arena graded as MLE-bench grades it: multi-class log loss.

MLE-bench needs ``id`` and the three class columns in the submission (others are
ignored), then the row count; every class value must lie in [0, 1] (a NaN or a text
value fails that check, or the comparison itself) and every row's three values must sum
to 1 once the sum is rounded to 6 decimals. Both files keep only ``id`` and the class
columns, are sorted by ``id`` and their ids compared position by position; MLE-bench's
shared one-hot preparation (no softmax) then gives the answers' one-hot rows and the
submitted probabilities to scikit-learn's ``log_loss`` (which clips them to [eps, 1 - eps]).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import (
    InvalidSubmission,
    one_hot_log_loss_inputs,
    require,
)

CLASSES = ["winner_model_a", "winner_model_b", "winner_tie"]
COLUMNS = ["id", *CLASSES]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Log loss of the submitted outcome probabilities."""
    from sklearn.metrics import log_loss

    missing = [c for c in COLUMNS if c not in submission.columns]
    if missing:
        raise InvalidSubmission(f"the submission lacks the column(s) {missing}")
    require(set(COLUMNS).issubset(answers.columns), "answers lack required columns")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    probs = submission[CLASSES]
    if not ((probs >= 0) & (probs <= 1)).all().all():
        raise InvalidSubmission("every class probability must be between 0 and 1")
    if not probs.sum(axis=1).round(6).eq(1).all():
        raise InvalidSubmission("the three probabilities of each row must sum to 1")
    sub = submission[COLUMNS].sort_values("id").reset_index(drop=True)
    ans = answers[COLUMNS].sort_values("id").reset_index(drop=True)
    if (sub["id"].values != ans["id"].values).any():
        raise InvalidSubmission("the submission's 'id' values are not the test ids")
    y_true, y_pred = one_hot_log_loss_inputs(sub, ans, id_column="id", apply_softmax=False)
    return float(log_loss(y_true=y_true, y_pred=y_pred))
