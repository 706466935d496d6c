"""Raw grader of smartphone-decimeter-2022: mean over trips of the 50/95th percentile errors.

A row is identified by the pair (``tripId``, ``UnixTimeMillis``); ``tripId`` repeats on every
row of a trip. MLE-bench's grade.py checks the four columns and the row count, then, for each
``tripId`` of the answers (in order of appearance), requires as many submission rows as answers
rows, measures the haversine distance (sphere of radius 6,371 km) between the i-th submission
row and the i-th answers row of the trip, takes the mean of the 50th and 95th percentiles of
those distances, and averages these trip errors. The metric library's
:func:`~mle_gym.grading.metrics.geo.smartphone_score` computes the same.

Rows are matched here by (``tripId``, ``UnixTimeMillis``), not by position within the trip.
For a submission whose rows follow sample_submission.csv (the answers' order; any order of the
trips is fine) this is exactly MLE-bench's pairing, hence the same score. A submission whose
rows are shuffled within a trip is scored here on the right pairs, where MLE-bench would
compare positions at different times. Also stricter than MLE-bench, for malformed submissions
only: every (``tripId``, ``UnixTimeMillis``) of the sample must appear once (MLE-bench checks
only the row count per trip), extra columns are rejected, and blank or non-numeric coordinates
are refused instead of producing a NaN score.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring import (
    InvalidSubmission,
    check_columns,
    check_row_count,
    numbers,
    pair_rows,
    require_answer_columns,
)
from mle_gym.authoring.metrics import smartphone_score

TRIP = "tripId"
TIME = "UnixTimeMillis"
LAT = "LatitudeDegrees"
LON = "LongitudeDegrees"
COLUMNS = (TRIP, TIME, LAT, LON)
PAIR = f"({TRIP}, {TIME})"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over trips of (p50 + p95) / 2 of the horizontal errors, in metres."""
    check_columns(submission, COLUMNS)
    require_answer_columns(answers, COLUMNS)
    check_row_count(submission, answers)
    try:
        expected = _keys(answers)
        truth = np.column_stack([numbers(answers, LAT), numbers(answers, LON)])
    except InvalidSubmission as exc:
        raise RuntimeError(f"the answers file is unusable: {exc}") from None
    rows = pair_rows(_keys(submission), expected, _describe, PAIR)
    predicted = np.column_stack([numbers(submission, LAT), numbers(submission, LON)])[rows]
    return smartphone_score(truth, predicted, expected[TRIP].tolist())


def validate(submission: pd.DataFrame, sample: pd.DataFrame) -> None:
    """Format check against the public sample submission: header, rows, numeric coordinates."""
    check_columns(submission, COLUMNS)
    try:
        expected = _keys(sample)
    except InvalidSubmission as exc:
        raise RuntimeError(f"the sample submission is unusable: {exc}") from None
    pair_rows(_keys(submission), expected, _describe, PAIR)
    numbers(submission, LAT)
    numbers(submission, LON)


def _keys(frame: pd.DataFrame) -> pd.DataFrame:
    """(tripId as text, UnixTimeMillis as an integer) of every row."""
    times = numbers(frame, TIME)
    bad = np.flatnonzero(times != np.round(times))
    if len(bad):
        raise InvalidSubmission(
            f"{TIME} must be a whole number of milliseconds; data row {bad[0] + 1} holds "
            f"{times[bad[0]]}"
        )
    return pd.DataFrame({TRIP: frame[TRIP].astype(str).to_numpy(), TIME: times.astype(np.int64)})


def _describe(key: tuple[object, ...]) -> str:
    return f"{TRIP} {key[0]} at {TIME} {key[1]}"
