"""plant-pathology-2021-fgvc8 graded as MLE-bench grades it: micro F1 of label sets.

MLE-bench's grader wants the columns ``image`` and ``labels`` (others are ignored) and
as many rows as the answers. Both frames are sorted by ``image``, whose values must
then be equal position by position. The vocabulary is the set of labels appearing in
the answers; blank cells become empty strings and every ``labels`` cell is split on
whitespace with pandas' ``.str.split`` (a ``labels`` column pandas read as numbers has
no ``.str`` and makes the grader fail). scikit-learn's ``MultiLabelBinarizer`` over the
sorted vocabulary turns the lists into indicator rows (a label outside the vocabulary
is dropped, a repeated one counts once) and the score is scikit-learn's micro-averaged
F1 of the two indicator matrices.
"""

from __future__ import annotations

import warnings

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Micro F1 of the submitted label sets over the answers' vocabulary."""
    from sklearn.metrics import f1_score
    from sklearn.preprocessing import MultiLabelBinarizer

    require({"image", "labels"} <= set(answers.columns), "answers lack image or labels")
    for column in ("image", "labels"):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; the answers have {len(answers)}"
        )
    sub = submission.sort_values(by="image").reset_index(drop=True)
    ans = answers.sort_values(by="image").reset_index(drop=True)
    if not all(sub["image"] == ans["image"]):
        raise InvalidSubmission("the submission's image values are not the test images")
    vocabulary = set(ans["labels"].str.split().explode().unique())
    ans["labels"] = ans["labels"].fillna("")
    sub["labels"] = sub["labels"].fillna("")
    binarizer = MultiLabelBinarizer(classes=sorted(vocabulary), sparse_output=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "unknown class(es) ... will be ignored"
        y_true = binarizer.fit_transform(ans["labels"].str.split())
        y_pred = binarizer.transform(sub["labels"].str.split())
        return float(f1_score(y_true=y_true, y_pred=y_pred, average="micro"))
