"""Raw grader of h-and-m-personalized-fashion-recommendations: MAP@12 over the buyers.

The sample submission lists every customer (about 1.37 million), but the answers (MLE-bench's
private answers.csv: ``customer_id``, ``prediction`` = the article ids bought in the test week,
space-separated) list only the customers who bought something. MLE-bench's grade.py requires the
columns ``customer_id`` and ``prediction``, requires the submission's customer ids to include
every answers customer, keeps only those rows, sorts both by ``customer_id``, splits both
predictions on single spaces (the answers as a set, the submission as a ranked list) and returns
the mean average precision at 12 (the metric library's
:func:`~mle_gym.grading.metrics.ranking.map_at_k`).

Article ids are compared as text, exactly as MLE-bench does. MLE-bench's preparation reads the
transactions with pandas, so the answers (and the public transactions_train.csv) write article
ids without the leading zero that Kaggle's articles.csv and sample submission show:
``0706016001`` never matches ``706016001``.

Stricter than MLE-bench, for malformed submissions only: a customer id may appear only once in
the whole submission (MLE-bench cannot score a scored customer listed twice, its two lists then
differing in length, and ignores repeats of unscored ones). Messages never name a scored
customer, since which customers bought something in the test week is part of the answers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring import InvalidSubmission, check_columns, require_answer_columns
from mle_gym.authoring.metrics import map_at_k

ID_COLUMN = "customer_id"
TARGET = "prediction"
COLUMNS = (ID_COLUMN, TARGET)
K = 12


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """MAP@12 of the submission's rankings over the customers listed in the answers."""
    check_columns(submission, COLUMNS)
    require_answer_columns(answers, COLUMNS)
    index = _unique_ids(submission)
    positions = index.get_indexer(pd.Index(answers[ID_COLUMN].astype(str)))
    absent = int((positions < 0).sum())
    if absent:
        raise InvalidSubmission(
            f"{absent:,} of the scored customers are missing from the submission; write one row "
            f"for every {ID_COLUMN} of sample_submission.csv"
        )
    predicted = submission[TARGET].astype(str).to_numpy(dtype=object)[positions]
    actual = [set(cell.split(" ")) for cell in answers[TARGET].astype(str)]
    return map_at_k(actual, [cell.split(" ") for cell in predicted], K)


def validate(submission: pd.DataFrame, sample: pd.DataFrame) -> None:
    """Format check against the public sample submission: header and every customer once."""
    check_columns(submission, COLUMNS)
    index = _unique_ids(submission)
    expected = pd.Index(sample[ID_COLUMN].astype(str))
    absent = np.flatnonzero(index.get_indexer(expected) < 0)
    if len(absent):
        raise InvalidSubmission(
            f"{len(absent):,} {ID_COLUMN} value(s) of sample_submission.csv are missing from the "
            f"submission, e.g. {expected[absent[0]]}; write one row for every customer"
        )


def _unique_ids(submission: pd.DataFrame) -> pd.Index:
    index = pd.Index(submission[ID_COLUMN].astype(str))
    if not index.is_unique:
        repeated = index[index.duplicated()]
        raise InvalidSubmission(
            f"each {ID_COLUMN} must appear once; {len(repeated):,} row(s) repeat one, e.g. "
            f"{repeated[0]}"
        )
    return index
