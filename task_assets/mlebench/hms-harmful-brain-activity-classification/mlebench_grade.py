"""hms-harmful-brain-activity-classification graded as MLE-bench grades it: KL divergence.

MLE-bench's grader checks, in this order: the submission has ``eeg_id`` and the six
``*_vote`` columns; it has as many rows as the answers; every row's six votes add up to
1 once rounded to 5 decimals (pandas' row sum, which skips blanks); it holds the same
set of ``eeg_id`` values as the answers. Both frames are then sorted by ``eeg_id``
(pandas' default, unstable sort: the rows of a repeated ``eeg_id``, which the test set
has, are paired in whatever order that sort leaves them) and paired row by row; the
answers' votes are divided by their row total. Kaggle's KL-divergence metric follows:
with ``eeg_id`` removed, every remaining column of the submission — extra columns, a
written DataFrame index too — must be numeric, within [0, 1], and the columns of a row
must add up to 1 (``numpy.allclose``); then each submitted probability is clipped to
``[1e-15, 1 - 1e-15]``, a class contributes ``q * log(q / p)`` where its true share
``q`` is not 0 and 0 where it is, and the score is the mean over rows of the row sums.
Blank probabilities are skipped by every sum, so a blank cell passes the checks (if the
rest of its row adds up to 1) and contributes nothing to the divergence.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import GraderFailure, InvalidSubmission, require

ID = "eeg_id"
VOTES = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
EPSILON = 1e-15


def _check_probabilities(frame: pd.DataFrame, name: str) -> None:
    """Kaggle's checks of a frame of probabilities (every column of ``frame``)."""
    from pandas.api.types import is_numeric_dtype

    where = f"the {name}'s columns other than eeg_id (extra columns included)"
    if not is_numeric_dtype(frame.values):
        raise GraderFailure(f"Kaggle's metric needs numbers in all of {where}")
    if frame.min().min() < 0:
        raise GraderFailure(f"Kaggle's metric found a value below 0 in {where}")
    if frame.max().max() > 1:
        raise GraderFailure(f"Kaggle's metric found a value above 1 in {where}")
    if not np.allclose(frame.sum(axis=1), 1):
        raise GraderFailure(f"Kaggle's metric needs every row of {where} to add up to 1")


def _kl_divergence(truth: pd.DataFrame, predicted: pd.DataFrame) -> Any:
    """Kaggle's row-averaged KL divergence (both frames changed in place)."""
    from pandas.api.types import is_float_dtype

    for column in truth.columns:
        if not is_float_dtype(truth[column]):
            truth[column] = truth[column].astype(float)
        predicted[column] = np.clip(predicted[column], EPSILON, 1 - EPSILON)
        voted = truth[column] != 0
        truth[column] = truth[column].astype(float)
        shares = truth.loc[voted, column]
        truth.loc[voted, column] = shares * np.log(shares / predicted.loc[voted, column])
        truth.loc[~voted, column] = 0
    return np.average(truth.sum(axis=1), weights=None)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean KL divergence from the answers' vote shares to the submitted probabilities."""
    if ID not in submission.columns:
        raise InvalidSubmission(f"the submission has no {ID!r} column")
    if not all(column in submission.columns for column in VOTES):
        raise InvalidSubmission(f"the submission needs the columns {', '.join(VOTES)}")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test row "
            f"({len(answers)})"
        )
    totals = submission[VOTES].sum(axis=1)
    if not totals.apply(lambda total: round(total, 5) == 1).all():
        raise InvalidSubmission("the six probabilities of every row must add up to 1")
    if set(answers[ID]) != set(submission[ID]):
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    require(ID in answers.columns, f"answers lack {ID!r}")
    require(all(column in answers.columns for column in VOTES), "answers lack vote columns")

    sub = submission.sort_values(ID).reset_index(drop=True)
    truth = answers.sort_values(ID).reset_index(drop=True)
    truth = truth.copy()[[ID, *VOTES]]
    truth[VOTES] = truth[VOTES].div(truth[VOTES].sum(axis=1), axis=0)

    del truth[ID]
    del sub[ID]
    _check_probabilities(truth, "answers")
    _check_probabilities(sub, "submission")
    return float(_kl_divergence(truth, sub))
