"""icecube-neutrinos-in-deep-ice graded as MLE-bench grades it: mean angular error.

MLE-bench's grader wants exactly the columns ``event_id``, ``azimuth`` and ``zenith``
(any order; no other column, not even a written index); both angles must be numeric
columns (pandas dtypes: a True/False column is not) of finite values. Then the
submission must have one row per test event and the same set of event ids (duplicates
are not noticed by that check); both files are sorted by ``event_id`` and paired
position by position. Each pair of directions gives the angle between the unit
vectors (the cosine clipped to [-1, 1]); the score is the mean angle in radians.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

COLUMNS = {"azimuth", "zenith", "event_id"}
ANGLES = ("azimuth", "zenith")


def _mean_angle(
    az_true: np.ndarray, zen_true: np.ndarray, az_pred: np.ndarray, zen_pred: np.ndarray
) -> float:
    """The mean angle between the directions (azimuth, zenith) of each pair."""
    sin_zen_true, sin_zen_pred = np.sin(zen_true), np.sin(zen_pred)
    cosine = sin_zen_true * sin_zen_pred * (
        np.cos(az_true) * np.cos(az_pred) + np.sin(az_true) * np.sin(az_pred)
    ) + np.cos(zen_true) * np.cos(zen_pred)
    return float(np.average(np.abs(np.arccos(np.clip(cosine, -1, 1)))))


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean angular distance, in radians, between the submitted and true directions."""
    if set(submission.columns) != COLUMNS:
        raise InvalidSubmission(
            "the submission's columns must be exactly event_id, azimuth and zenith"
        )
    for column in ANGLES:
        if not np.issubdtype(submission[column].dtype, np.number):
            raise InvalidSubmission(f"{column!r} must hold numbers only")
    for column in ANGLES:
        if not np.all(np.isfinite(submission[column])):
            raise InvalidSubmission(f"{column!r} must hold finite numbers")
    for column in ANGLES:
        if submission[column].isnull().any():
            raise InvalidSubmission(f"{column!r} must not be blank")
    require(set(answers.columns) == COLUMNS, "answers' columns differ")
    for column in ANGLES:
        require(np.issubdtype(answers[column].dtype, np.number), f"answers' {column} dtype")
    for column in ANGLES:
        require(np.all(np.isfinite(answers[column])), f"answers' {column} not finite")
    for column in ANGLES:
        require(not answers[column].isnull().any(), f"answers' {column} blank")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test event "
            f"({len(answers)})"
        )
    if set(submission["event_id"]) != set(answers["event_id"]):
        raise InvalidSubmission("the submission's event ids are not the test events")
    guess = submission.sort_values("event_id")
    truth = answers.sort_values("event_id")
    return _mean_angle(
        truth["azimuth"].to_numpy(),
        truth["zenith"].to_numpy(),
        guess["azimuth"].to_numpy(),
        guess["zenith"].to_numpy(),
    )
