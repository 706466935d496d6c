"""Raw grader of hms-harmful-brain-activity-classification: KL divergence of vote shares.

The test set has one row per labelled EEG window, so ``eeg_id`` repeats (in the answers and in
the sample submission alike), and the submission carries no unique row key. MLE-bench's
grade.py checks the columns, the row count, that the six probabilities of every row add up to 1
(the sum rounded to 5 decimals) and that both files hold the same set of ``eeg_id`` values; it
then sorts both frames by ``eeg_id`` and compares them row by row: the answers' votes are
divided by their row total and the score is the mean over rows of
``sum_k q_k log(q_k / p_k)``, with ``p`` clipped to ``[1e-15, 1 - 1e-15]`` and classes without
votes contributing 0 (the metric library's ``KL-divergence``).

Rows of one ``eeg_id`` are paired in file order: the k-th submission row of an ``eeg_id`` is
compared with its k-th answers row. For a submission in the order of sample_submission.csv
(the answers' order) this is exactly MLE-bench's pairing, which sorts two identical ``eeg_id``
sequences with the same algorithm and so keeps rows i of both files together.

Stricter than MLE-bench, for malformed submissions only: each ``eeg_id`` must have as many rows
as in the answers (MLE-bench would then pair rows of different EEGs), extra columns are
rejected, and blank or non-numeric cells are refused instead of propagating NaN into the score.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring import (
    InvalidSubmission,
    answer_numbers,
    check_columns,
    check_row_count,
    integers,
    numbers,
    require_answer_columns,
)
from mle_gym.authoring.metrics import kl_divergence

ID_COLUMN = "eeg_id"
TARGETS = (
    "seizure_vote",
    "lpd_vote",
    "gpd_vote",
    "lrda_vote",
    "grda_vote",
    "other_vote",
)
COLUMNS = (ID_COLUMN, *TARGETS)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean KL divergence from the answers' vote shares to the submitted probabilities."""
    check_columns(submission, COLUMNS)
    require_answer_columns(answers, COLUMNS)
    check_row_count(submission, answers)
    rows = _pair_rows(integers(submission, ID_COLUMN), integers(answers, ID_COLUMN, "answers"))
    probabilities = _probabilities(submission)[rows]
    votes = np.column_stack([answer_numbers(answers, c) for c in TARGETS])
    return kl_divergence(votes, probabilities)


def validate(submission: pd.DataFrame, sample: pd.DataFrame) -> None:
    """Format check against the public sample submission: columns, rows, probabilities."""
    check_columns(submission, COLUMNS)
    if len(submission) != len(sample):
        raise InvalidSubmission(
            f"the submission has {len(submission):,} rows but sample_submission.csv has "
            f"{len(sample):,}; write one row per row of the sample submission"
        )
    _pair_rows(integers(submission, ID_COLUMN), integers(sample, ID_COLUMN, "sample"))
    _probabilities(submission)


def _probabilities(submission: pd.DataFrame) -> np.ndarray:
    values = np.column_stack([numbers(submission, c) for c in TARGETS])
    outside = np.flatnonzero(((values < 0) | (values > 1)).any(axis=1))
    if len(outside):
        raise InvalidSubmission(
            f"every probability must lie in [0, 1]; {len(outside):,} row(s) do not, e.g. data "
            f"row {outside[0] + 1}"
        )
    sums = values.sum(axis=1)
    off = [i for i, s in enumerate(sums.tolist()) if round(s, 5) != 1]
    if off:
        raise InvalidSubmission(
            f"the six probabilities of every row must add up to 1; {len(off):,} row(s) do not, "
            f"e.g. data row {off[0] + 1} (eeg_id {submission[ID_COLUMN].iloc[off[0]]}) adds up "
            f"to {sums[off[0]]:.6g}"
        )
    return values


def _pair_rows(submitted: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """For each expected row, the submission row of the same eeg_id and rank within it.

    The k-th row of an eeg_id in one file pairs with the k-th row of that eeg_id in the other.
    InvalidSubmission when some eeg_id has a different number of rows in the two files.
    """
    sub = pd.DataFrame({"key": submitted})
    exp = pd.DataFrame({"key": expected})
    sub["rank"] = sub.groupby("key", sort=False).cumcount()
    exp["rank"] = exp.groupby("key", sort=False).cumcount()
    positions = pd.MultiIndex.from_frame(sub).get_indexer(pd.MultiIndex.from_frame(exp))
    if (positions >= 0).all():
        return positions
    have = sub["key"].value_counts()
    want = exp["key"].value_counts()
    absent = want.index.difference(have.index)
    unknown = have.index.difference(want.index)
    if len(absent):
        raise InvalidSubmission(
            f"{len(absent):,} eeg_id value(s) of sample_submission.csv are missing from the "
            f"submission, e.g. {absent[0]}"
        )
    if len(unknown):
        raise InvalidSubmission(
            f"{len(unknown):,} eeg_id value(s) are not in sample_submission.csv, e.g. {unknown[0]}"
        )
    diff = (have - want).loc[lambda d: d != 0]
    key = diff.index[0]
    raise InvalidSubmission(
        f"each eeg_id needs as many rows as in sample_submission.csv; {len(diff):,} eeg_id "
        f"value(s) do not have them, e.g. eeg_id {key} has {have[key]} row(s) instead of "
        f"{want[key]}"
    )
