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

from mle_gym.grading import InvalidSubmission
from mle_gym.grading.metrics.jigsaw import JIGSAW_IDENTITIES, jigsaw_bias_score

ID_COLUMN = "id"
TARGET = "prediction"
COLUMNS = (ID_COLUMN, TARGET)
TRUTH = "toxicity"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """The competition's bias score of the submission (higher is better)."""
    _check_columns(submission)
    missing = [c for c in (ID_COLUMN, TRUTH, *JIGSAW_IDENTITIES) if c not in answers.columns]
    if missing:
        raise RuntimeError(f"the answers lack the column(s) {', '.join(missing)}")
    rows = _pair_rows(_integers(submission), _integers(answers, owner="answers"))
    predictions = _numbers(submission, TARGET)[rows]
    try:
        truth = _numbers(answers, TRUTH)
    except InvalidSubmission as exc:
        raise RuntimeError(f"the answers file is unusable: {exc}") from None
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
    _check_columns(submission)
    _pair_rows(_integers(submission), _integers(sample, owner="sample"))
    _numbers(submission, TARGET)


def _check_columns(frame: pd.DataFrame) -> None:
    names = [str(c) for c in frame.columns]
    problems = []
    missing = [c for c in COLUMNS if c not in names]
    extra = [c for c in names if c not in COLUMNS]
    repeated = sorted({c for c in names if names.count(c) > 1})
    if missing:
        problems.append(f"missing {', '.join(missing)}")
    if extra:
        problems.append(f"unexpected {', '.join(extra)}")
    if repeated:
        problems.append(f"repeated {', '.join(repeated)}")
    if problems:
        raise InvalidSubmission(
            f"the header must hold exactly the columns {','.join(COLUMNS)}; "
            f"columns {'; '.join(problems)}"
        )


def _numbers(frame: pd.DataFrame, column: str) -> np.ndarray:
    """The column as finite floats, or InvalidSubmission naming the first bad cell."""
    text = frame[column].astype(str)
    values = pd.to_numeric(text.str.strip(), errors="coerce").to_numpy(dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(values))
    if len(bad):
        raise InvalidSubmission(
            f"{column} must be a number in every row; {len(bad):,} row(s) are not, e.g. data "
            f"row {bad[0] + 1} holds {text.iloc[bad[0]]!r}"
        )
    return values


def _integers(frame: pd.DataFrame, owner: str = "submission") -> np.ndarray:
    try:
        values = _numbers(frame, ID_COLUMN)
        bad = np.flatnonzero(values != np.round(values))
        if len(bad):
            raise InvalidSubmission(
                f"{ID_COLUMN} must be a whole number; data row {bad[0] + 1} holds {values[bad[0]]}"
            )
    except InvalidSubmission as exc:
        if owner == "submission":
            raise
        raise RuntimeError(f"the {owner} file is unusable: {exc}") from None
    return values.astype(np.int64)


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
