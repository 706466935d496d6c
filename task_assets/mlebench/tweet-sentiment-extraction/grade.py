"""Grading for tweet-sentiment-extraction (MLE-bench semantics).

Word-level Jaccard similarity between the predicted and the true
``selected_text`` (lower-cased, split on whitespace, compared as sets), averaged
over tweets; a blank cell is an empty set. The registered ``jaccard-similarity``
scores a tweet whose prediction and answer are both empty as 0, but MLE-bench's
grader divides by zero there and cannot score the file at all, so here such a
submission is invalid. Cells that pandas reads as missing (``NA``, ``null``...)
are empty text, as in MLE-bench.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mle_gym.authoring import PANDAS_NA_STRINGS, InvalidSubmission
from mle_gym.authoring.metrics import word_jaccard


def _text(cell: str) -> str:
    return "" if cell in PANDAS_NA_STRINGS else cell


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean word-set Jaccard similarity; invalid if one tweet is empty on both sides."""
    scores = [
        word_jaccard(_text(truth), _text(predicted), both_empty=math.nan)
        for predicted, truth in zip(
            submission["selected_text"].tolist(), answers["selected_text"].tolist(), strict=True
        )
    ]
    if any(math.isnan(s) for s in scores):
        raise InvalidSubmission(
            "selected_text is empty on some rows and the Jaccard score of at least one of "
            "them is undefined (MLE-bench cannot score such a file); write a non-empty "
            "prediction for every tweet"
        )
    return float(np.mean(scores))
