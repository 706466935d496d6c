"""facebook-recruiting-iii-keyword-extraction graded as MLE-bench grades it: micro F1
of the tags.

MLE-bench's grader needs ``Id`` and ``Tags`` columns (others are ignored) and as many
rows as the answers; both files are sorted by ``Id`` and the ids must be equal
position by position. The tag vocabulary is the set of whitespace-separated tags of
the answers; scikit-learn's ``MultiLabelBinarizer`` with that fixed vocabulary turns
both columns into 0/1 matrices (a blank cell is no tag; predicted tags outside the
vocabulary are dropped) and the score is ``f1_score(..., average="micro")``.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "Id"
TAGS = "Tags"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Micro-averaged F1 over the answers' tag vocabulary."""
    from sklearn.metrics import f1_score
    from sklearn.preprocessing import MultiLabelBinarizer

    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TAGS in answers.columns, f"answers lack {TAGS!r}")
    for column in (ID, TAGS):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    sub = submission.sort_values(by=ID).reset_index(drop=True)
    ans = answers.sort_values(by=ID).reset_index(drop=True)
    if (sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    vocabulary: set[str] = set()
    for cell in ans[TAGS]:
        if isinstance(cell, str):
            vocabulary.update(cell.split())
    binarizer = MultiLabelBinarizer(classes=sorted(vocabulary), sparse_output=True)
    y_true = binarizer.fit_transform(ans[TAGS].fillna("").str.split())
    y_pred = binarizer.transform(sub[TAGS].fillna("").str.split())
    return float(f1_score(y_true=y_true, y_pred=y_pred, average="micro"))
