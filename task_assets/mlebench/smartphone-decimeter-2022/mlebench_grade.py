"""smartphone-decimeter-2022 graded as MLE-bench grades it: mean trip error in metres.

MLE-bench's grader wants the columns ``tripId``, ``UnixTimeMillis``, ``LatitudeDegrees``
and ``LongitudeDegrees`` (others are ignored) and as many rows as the answers. For each
trip of the answers (in order of first appearance) the submission must have exactly as
many rows with that ``tripId``; the i-th of them is compared with the i-th answers row
of the trip, whatever its ``UnixTimeMillis`` (which is never read): the haversine
distance on a 6,371 km sphere, of which the 50th and 95th percentiles are averaged. The
score is the mean of these trip errors; a blank or non-finite coordinate makes it NaN
(no score) and text in a coordinate column makes numpy fail.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

TRIP = "tripId"
COLUMNS = ("tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees")
RADIUS_M = 6_371_000


def _distances(pred: pd.DataFrame, truth: pd.DataFrame) -> Any:
    """Haversine distances (metres) between the rows of ``pred`` and ``truth``, by position."""
    lat_p = np.deg2rad(pred["LatitudeDegrees"].to_numpy())
    lon_p = np.deg2rad(pred["LongitudeDegrees"].to_numpy())
    lat_t = np.deg2rad(truth["LatitudeDegrees"].to_numpy())
    lon_t = np.deg2rad(truth["LongitudeDegrees"].to_numpy())
    h = (
        np.sin((lat_t - lat_p) / 2) ** 2
        + np.cos(lat_p) * np.cos(lat_t) * np.sin((lon_t - lon_p) / 2) ** 2
    )
    return 2 * RADIUS_M * np.arcsin(np.sqrt(h))


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over the answers' trips of (p50 + p95) / 2 of the position errors."""
    for column in COLUMNS:
        require(column in answers.columns, f"answers lack {column!r}")
    for column in COLUMNS:
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; the answers have {len(answers)}"
        )
    errors = []
    for trip in answers[TRIP].unique():
        truth = answers[answers[TRIP] == trip]
        pred = submission[submission[TRIP] == trip]
        if len(pred) != len(truth):
            raise InvalidSubmission(
                f"trip {trip}: the submission has {len(pred)} rows, the answers {len(truth)}"
            )
        with np.errstate(invalid="ignore"):  # non-finite input: a NaN score
            d = _distances(pred, truth)
        errors.append(np.mean([np.quantile(d, 0.50), np.quantile(d, 0.95)]))
    return float(np.mean(errors))
