"""imet-2020-fgvc7 graded as MLE-bench grades it: micro F1 of the ``attribute_ids`` sets.

MLE-bench's checks, in order: ``id`` and ``attribute_ids`` present (other columns are
ignored); as many rows as the answers; both frames sorted by ``id`` with the ids equal
position by position (``!=``). Blank cells become empty strings and every cell is split
on whitespace with pandas' ``.str.split()`` — which needs a text column: a submission
whose every cell is a single attribute id is read by pandas as numbers and makes the
grader fail (as does one mixing such numbers with blanks). The classes are the
attribute ids occurring in the answers; scikit-learn's ``MultiLabelBinarizer`` (sparse)
binarises both sides over them, dropping predicted ids outside them (with a warning),
and ``f1_score(average="micro")`` gives the score. Repeating an id in a cell counts once.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "id"
TARGET = "attribute_ids"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Micro-averaged F1 of the submitted attribute sets."""
    from sklearn.metrics import f1_score
    from sklearn.preprocessing import MultiLabelBinarizer

    require(ID in answers.columns and TARGET in answers.columns, "answers lack a column")
    for column in (ID, TARGET):
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
    predicted = sub[TARGET].fillna("")
    truth = ans[TARGET].fillna("")
    labels = set(truth.str.split().explode().unique())
    binarizer = MultiLabelBinarizer(classes=sorted(labels), sparse_output=True)
    y_true = binarizer.fit_transform(truth.str.split())
    y_pred = binarizer.transform(predicted.str.split())
    return float(f1_score(y_true=y_true, y_pred=y_pred, average="micro"))
