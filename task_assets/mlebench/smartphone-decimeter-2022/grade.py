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

from mle_gym.grading import InvalidSubmission
from mle_gym.grading.metrics.geo import smartphone_score

TRIP = "tripId"
TIME = "UnixTimeMillis"
LAT = "LatitudeDegrees"
LON = "LongitudeDegrees"
COLUMNS = (TRIP, TIME, LAT, LON)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over trips of (p50 + p95) / 2 of the horizontal errors, in metres."""
    _check_columns(submission)
    missing = [c for c in COLUMNS if c not in answers.columns]
    if missing:
        raise RuntimeError(f"the answers lack the column(s) {', '.join(missing)}")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission):,} rows but {len(answers):,} are expected "
            "(one per row of sample_submission.csv)"
        )
    try:
        expected = _keys(answers)
        truth = np.column_stack([_numbers(answers, LAT), _numbers(answers, LON)])
    except InvalidSubmission as exc:
        raise RuntimeError(f"the answers file is unusable: {exc}") from None
    rows = _pair_rows(_keys(submission), expected)
    predicted = np.column_stack([_numbers(submission, LAT), _numbers(submission, LON)])[rows]
    return smartphone_score(truth, predicted, expected[TRIP].tolist())


def validate(submission: pd.DataFrame, sample: pd.DataFrame) -> None:
    """Format check against the public sample submission: header, rows, numeric coordinates."""
    _check_columns(submission)
    try:
        expected = _keys(sample)
    except InvalidSubmission as exc:
        raise RuntimeError(f"the sample submission is unusable: {exc}") from None
    _pair_rows(_keys(submission), expected)
    _numbers(submission, LAT)
    _numbers(submission, LON)


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


def _keys(frame: pd.DataFrame) -> pd.DataFrame:
    """(tripId as text, UnixTimeMillis as an integer) of every row."""
    times = _numbers(frame, TIME)
    bad = np.flatnonzero(times != np.round(times))
    if len(bad):
        raise InvalidSubmission(
            f"{TIME} must be a whole number of milliseconds; data row {bad[0] + 1} holds "
            f"{times[bad[0]]}"
        )
    return pd.DataFrame({TRIP: frame[TRIP].astype(str).to_numpy(), TIME: times.astype(np.int64)})


def _describe(key: tuple[object, ...]) -> str:
    return f"{TRIP} {key[0]} at {TIME} {key[1]}"


def _pair_rows(submitted: pd.DataFrame, expected: pd.DataFrame) -> np.ndarray:
    """For each expected row, the submission row with the same (tripId, UnixTimeMillis).

    A pair listed n times in the expected rows must appear n times in the submission; its
    occurrences are matched in file order.
    """
    columns = list(expected.columns)
    sub = submitted.assign(_rank=submitted.groupby(columns, sort=False).cumcount())
    exp = expected.assign(_rank=expected.groupby(columns, sort=False).cumcount())
    positions = pd.MultiIndex.from_frame(sub).get_indexer(pd.MultiIndex.from_frame(exp))
    if len(submitted) == len(expected) and (positions >= 0).all():
        return positions
    have = submitted.value_counts(sort=False)
    want = expected.value_counts(sort=False)
    absent = want.index.difference(have.index)
    if len(absent):
        raise InvalidSubmission(
            f"{len(absent):,} row(s) of sample_submission.csv are missing from the submission, "
            f"e.g. {_describe(absent[0])}"
        )
    unknown = have.index.difference(want.index)
    if len(unknown):
        raise InvalidSubmission(
            f"{len(unknown):,} row(s) are not in sample_submission.csv, e.g. "
            f"{_describe(unknown[0])}"
        )
    diff = (have - want.reindex(have.index)).loc[lambda d: d != 0]
    key = diff.index[0]
    raise InvalidSubmission(
        f"each ({TRIP}, {TIME}) pair must appear as often as in sample_submission.csv (once, "
        f"normally); {_describe(key)} appears {have[key]} time(s) instead of {want[key]}"
    )
