"""jigsaw-toxic-comment-classification-challenge graded as MLE-bench grades it: mean
column-wise ROC AUC.

The submission needs ``id`` and the six label columns (rejected otherwise) and as many
rows as the answers (a failed assert otherwise). Both files are indexed by ``id`` and
sorted by it; the answers' rows with a negative label sum (Kaggle's unscored rows, -1
everywhere) are dropped, and the same mask drops the submission's rows: pandas aligns
it by id, so a submission id that is not an answers id makes the grader fail (there is
no other id check). Then every remaining submission column, in the submission's order,
is paired by position with the answers' label columns, in their order, for
scikit-learn's macro ROC AUC: a column out of the answers' order is scored against
another label, and any extra column (a written DataFrame index too) makes the metric
fail.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID_COLUMN = "id"
LABELS = ("toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate")


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Macro ROC AUC of the submission's columns against the answers' labels."""
    from sklearn.metrics import roc_auc_score

    labels = list(LABELS)
    if ID_COLUMN not in submission.columns:
        raise InvalidSubmission(f"the submission has no {ID_COLUMN!r} column")
    missing = set(labels) - set(submission.columns)
    if missing:
        raise InvalidSubmission(f"the submission lacks the columns {sorted(missing)}")
    require(ID_COLUMN in answers.columns, f"answers lack {ID_COLUMN!r}")
    require(set(labels).issubset(set(answers.columns)), "answers lack a label column")
    require(
        len(submission) == len(answers),
        f"the submission has {len(submission)} rows; it must have one per test id ({len(answers)})",
    )

    sub = submission.set_index(ID_COLUMN).sort_index()
    ans = answers.set_index(ID_COLUMN).sort_index()
    scored = ans[labels].sum(axis=1) >= 0
    ans = ans[scored]
    sub = sub[scored]
    return float(roc_auc_score(y_true=ans.to_numpy(), y_score=sub.to_numpy(), average="macro"))
