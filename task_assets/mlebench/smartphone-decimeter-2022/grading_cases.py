"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    KeyedRawCase,
    KeyedRawFormat,
    KeyedRawGrading,
    MLEBenchTask,
    ParityCase,
    assert_invalid,
    assert_score,
    expect,
    grade_frame,
    keyed_raw_files,
)

TRIPS = ["2021-08-24-US-SVL-1-GooglePixel5", "2021-08-24-US-SVL-1-SamsungGalaxyS20Ultra"]


TRIP_SIZES = [6, 5]


SMARTPHONE_COLUMNS = ("tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees")


def haversine_like_mlebench(frame: pd.DataFrame, truth: pd.DataFrame) -> float:
    """Per trip (rows paired by position), the mean of the p50 and p95 errors; then the mean."""
    errors = []
    for trip in truth["tripId"].unique():
        a = truth[truth["tripId"] == trip]
        b = frame[frame["tripId"] == trip]
        lat1, lon1 = (
            np.deg2rad(a["LatitudeDegrees"].to_numpy()),
            np.deg2rad(a["LongitudeDegrees"].to_numpy()),
        )
        lat2, lon2 = (
            np.deg2rad(b["LatitudeDegrees"].to_numpy()),
            np.deg2rad(b["LongitudeDegrees"].to_numpy()),
        )
        h = np.sin((lat2 - lat1) / 2) ** 2
        h += np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
        d = 2 * 6_371_000 * np.arcsin(np.sqrt(h))
        errors.append(np.mean([np.quantile(d, 0.5), np.quantile(d, 0.95)]))
    return float(np.mean(errors))


def raw_case_smartphone() -> KeyedRawCase:
    trip = [t for t, n in zip(TRIPS, TRIP_SIZES, strict=True) for _ in range(n)]
    step = [k for n in TRIP_SIZES for k in range(n)]
    answers = pd.DataFrame(  # MLE-bench's private test.csv: the trips' ground_truth.csv rows
        {
            "tripId": trip,
            "UnixTimeMillis": [1313868312000 + 1000 * k for k in step],
            "LatitudeDegrees": [37.4275 + 1.1e-5 * k for k in step],
            "LongitudeDegrees": [-122.0731 - 1.3e-5 * k for k in step],
        }
    )
    sample = answers.assign(LatitudeDegrees=37.904611315634504, LongitudeDegrees=-86.48107806249548)
    imperfect = answers.copy()
    imperfect["LatitudeDegrees"] += [1e-5 * (k % 3) for k in step]
    imperfect.loc[imperfect["tripId"] == TRIPS[1], "LongitudeDegrees"] += 2e-5
    malformed = answers.copy()
    malformed.loc[3, "UnixTimeMillis"] += 500  # a time the sample does not list
    return KeyedRawCase(
        answers,
        sample,
        imperfect,
        haversine_like_mlebench(imperfect, answers),
        malformed,
        "1 row(s) of sample_submission.csv are missing",
        0.0,
        SMARTPHONE_COLUMNS,
    )


def rows_and_coordinates_are_checked(task: MLEBenchTask, tmp_path: Path) -> None:
    task, case, answers = keyed_raw_files(task, raw_case_smartphone, tmp_path)
    report = grade_frame(task, tmp_path, "short", case.answers.iloc[1:], answers)
    assert_invalid(report, "10 rows but 11")
    twice = case.answers.copy()
    twice.loc[1, "UnixTimeMillis"] = twice.loc[0, "UnixTimeMillis"]
    report = grade_frame(task, tmp_path, "twice", twice, answers)
    assert_invalid(report, "missing")
    text = case.answers.astype(str)
    text.loc[7, "LatitudeDegrees"] = "north"
    report = grade_frame(task, tmp_path, "text", text, answers)
    assert_invalid(report, "LatitudeDegrees must be a number")
    expect("data row 8" in report.message, report.message)
    # a trip whose rows all miss by the same distance scores that distance
    east = case.answers.copy()
    east.loc[east["tripId"] == TRIPS[0], "LatitudeDegrees"] += 1e-4
    report = grade_frame(task, tmp_path, "east", east, answers)
    assert_score(report, 6_371_000 * math.radians(1e-4) / 2, abs=1e-5)


# Parity cases: trip A (3 rows) and trip B (2 rows) at one longitude; the predictions are
# off in latitude only, by k * 1e-5 degree, i.e. k * U metres (the haversine distance of a
# pure latitude offset is R * dlat).
U = 6_371_000 * math.pi / 180 * 1e-5
PARITY_ANSWERS = pd.DataFrame(
    {
        "tripId": ["trip-A"] * 3 + ["trip-B"] * 2,
        "UnixTimeMillis": [1000, 2000, 3000, 1000, 2000],
        "LatitudeDegrees": [37.0, 37.0001, 37.0002, 38.0, 38.0001],
        "LongitudeDegrees": [-122.0] * 5,
    }
)
# errors: trip A [0, 1, 2] U -> p50 1, p95 1 + 0.9 * 1 = 1.9, trip error 1.45 U;
# trip B [0, 4] U -> p50 2, p95 0.95 * 4 = 3.8, trip error 2.9 U; score 2.175 U.
PARITY_SUBMISSION = PARITY_ANSWERS.assign(
    LatitudeDegrees=[37.0, 37.00011, 37.00022, 38.0, 38.00014]
)
PARITY_EXPECTED = {
    # rows are paired by position within a trip: reversed, trip A errors are [22, 1, 20]
    # U (p50 20, p95 20 + 0.9 * 2 = 21.8: 20.9) and trip B [14, 10] U (p50 12, p95
    # 10 + 0.95 * 4 = 13.8: 12.9); (20.9 + 12.9) / 2 = 16.9 U
    "shuffled_rows": round(16.9 * U, 5),
    "reordered_columns": "same",
    "extra_column": "same",
    "index_column": "same",
    "missing_id": "invalid",
    "duplicate_id": "invalid",
    "unknown_id": "invalid",
    "empty_file": "invalid",
    "header_only": "invalid",
    # trip A's first row twice: errors [0, 1, 2, 0] U -> p50 0.5, p95 1 + 0.85 * 1 = 1.85,
    # trip error 1.175 U; (1.175 + 2.9) / 2 = 2.0375 U
    "duplicate_answer_keys": round(2.0375 * U, 5),
}

CASES: dict[str, Check] = {
    # UnixTimeMillis is never read: a blank one changes nothing
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=round(2.175 * U, 5),
        expected={**PARITY_EXPECTED, "blank_target": "same"},
    ),
    # a blank latitude makes the score NaN: no score
    "parity-blank-latitude": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=round(2.175 * U, 5),
        expected={**PARITY_EXPECTED, "blank_target": "invalid"},
        target_column="LatitudeDegrees",
    ),
    "grading": KeyedRawGrading(raw_case_smartphone),
    "format": KeyedRawFormat(raw_case_smartphone),
    "rows-and-coordinates-are-checked": rows_and_coordinates_are_checked,
}
