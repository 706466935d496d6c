"""playground-series-s3e18 graded as MLE-bench grades it: macro ROC AUC of EC1 and EC2.

MLE-bench's grader requires ``id``, ``EC1`` and ``EC2`` columns (others are ignored)
and one row per test id; both files are sorted by ``id`` and the ids compared position
by position (so ``7.0`` matches ``7``); scikit-learn's ``roc_auc_score`` with
``average="macro"`` then ranks the two score columns against the two label columns.
The scores need not be probabilities (any numbers rank); a blank, infinite or
non-numeric value makes scikit-learn fail.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

TARGETS = ["EC1", "EC2"]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean of the ROC AUCs of EC1 and EC2."""
    from sklearn.metrics import roc_auc_score

    if "id" not in submission.columns or "id" not in answers.columns:
        raise InvalidSubmission("the submission has no 'id' column")
    if any(column not in submission.columns for column in TARGETS):
        raise InvalidSubmission("the submission must have 'EC1' and 'EC2' columns")
    require(all(column in answers.columns for column in TARGETS), "answers lack EC1/EC2")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    truth = answers.sort_values("id")
    guess = submission.sort_values("id")
    if (guess["id"].values != truth["id"].values).any():
        raise InvalidSubmission("the submission's 'id' values are not the test ids")
    return float(
        roc_auc_score(truth[TARGETS].to_numpy(), guess[TARGETS].to_numpy(), average="macro")
    )
