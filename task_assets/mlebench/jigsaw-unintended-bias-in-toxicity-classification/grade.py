"""Raw grader of jigsaw-unintended-bias-in-toxicity-classification: bias-aware ROC AUC.

The answers are Kaggle's ``test_private_expanded.csv`` (MLE-bench copies it as private/test.csv):
``id``, the comment text and metadata, the rater share ``toxicity`` and the identity columns;
the submission has ``id`` and ``prediction``. MLE-bench's grade.py sorts both by ``id``, requires
the same ids, cuts predictions, toxicity and identity shares at 0.5 (a missing identity share
counts as not mentioned) and returns ``0.25 * AUC_overall + 0.25 * M(subgroup AUCs) + 0.25 *
M(BPSN AUCs) + 0.25 * M(BNSP AUCs)`` over nine identities, ``M`` the power mean with p = -5.
The metric library's :func:`~mle_gym.grading.metrics.jigsaw.jigsaw_bias_score` computes exactly
that, thresholding the predictions too.

Stricter than MLE-bench, for malformed submissions only: the header must be exactly
``id,prediction`` (MLE-bench ignores extra columns and also accepts ``toxicity`` in place of
``prediction``), and blank or non-numeric predictions are refused (MLE-bench would count a blank
as non-toxic).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring import (
    InvalidSubmission,
    answer_numbers,
    check_columns,
    integers,
    numbers,
    require_answer_columns,
)
from mle_gym.authoring.metrics import JIGSAW_IDENTITIES, jigsaw_bias_score

ID_COLUMN = "id"
TARGET = "prediction"
COLUMNS = (ID_COLUMN, TARGET)
TRUTH = "toxicity"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """The competition's bias score of the submission (higher is better)."""
    check_columns(submission, COLUMNS)
    require_answer_columns(answers, (ID_COLUMN, TRUTH, *JIGSAW_IDENTITIES))
    rows = _pair_rows(integers(submission, ID_COLUMN), integers(answers, ID_COLUMN, "answers"))
    predictions = numbers(submission, TARGET)[rows]
    truth = answer_numbers(answers, TRUTH)
    # identity shares are blank for most comments: NaN, i.e. "not mentioned"
    identities = np.column_stack(
        [
            pd.to_numeric(answers[c].astype(str).str.strip(), errors="coerce").to_numpy(float)
            for c in JIGSAW_IDENTITIES
        ]
    )
    return jigsaw_bias_score(truth, predictions, identities)


def validate(submission: pd.DataFrame, sample: pd.DataFrame) -> None:
    """Format check against the public sample submission: header, ids, numeric predictions."""
    check_columns(submission, COLUMNS)
    _pair_rows(integers(submission, ID_COLUMN), integers(sample, ID_COLUMN, "sample"))
    numbers(submission, TARGET)


def _pair_rows(submitted: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """For each expected id, the submission row holding it; each id exactly once."""
    index = pd.Index(submitted)
    if not index.is_unique:
        counts = index.value_counts()
        repeated = counts[counts > 1]
        raise InvalidSubmission(
            f"each id must appear once; {len(repeated):,} id(s) are repeated, e.g. "
            f"{repeated.index[0]} ({repeated.iloc[0]} rows)"
        )
    positions = index.get_indexer(expected)
    absent = np.flatnonzero(positions < 0)
    if len(absent):
        raise InvalidSubmission(
            f"{len(absent):,} id(s) of sample_submission.csv are missing from the submission, "
            f"e.g. {expected[absent[0]]}"
        )
    if len(submitted) != len(expected):
        unknown = index.difference(pd.Index(expected))
        raise InvalidSubmission(
            f"{len(unknown):,} id(s) are not in sample_submission.csv, e.g. {unknown[0]}"
        )
    return positions
