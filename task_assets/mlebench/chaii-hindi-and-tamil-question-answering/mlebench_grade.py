"""chaii-hindi-and-tamil-question-answering graded as MLE-bench grades it: word-set
Jaccard per row, averaged.

The submission needs one row per answers row and the columns ``PredictionString`` and
``id`` (others are ignored). Both files are sorted by ``id`` and the ids must match one
for one. Blank predictions are empty strings; every prediction is lower-cased and split
on whitespace into a set of words (a prediction column that pandas reads as numbers
makes this fail). scikit-learn's ``jaccard_score(average="samples")`` of the binarised
word sets is the score: per row ``|P & T| / |P | T|``, a row whose two sets are both
empty counting 0.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID_COLUMN = "id"
TARGET = "PredictionString"


def _word_sets(texts: list[str]) -> list[set[str]]:
    return [set(text.lower().split()) for text in texts]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over rows of the Jaccard index of the predicted and true word sets."""
    from sklearn.metrics import jaccard_score
    from sklearn.preprocessing import MultiLabelBinarizer

    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    for column in (TARGET, ID_COLUMN):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    require(ID_COLUMN in answers.columns, f"answers lack {ID_COLUMN!r}")

    sub = submission.sort_values(ID_COLUMN)
    ans = answers.sort_values(ID_COLUMN)
    if (sub[ID_COLUMN].values != ans[ID_COLUMN].values).any():
        raise InvalidSubmission(f"the submission's {ID_COLUMN!r} values are not the test ids")

    predicted = _word_sets(sub[TARGET].fillna("").tolist())
    truth = _word_sets(ans[TARGET].fillna("").tolist())
    vocabulary = list(set().union(*truth, *predicted))
    binarizer = MultiLabelBinarizer(classes=vocabulary, sparse_output=True)
    y_true = binarizer.fit_transform(truth)
    y_pred = binarizer.transform(predicted)
    return float(jaccard_score(y_true=y_true, y_pred=y_pred, average="samples"))
