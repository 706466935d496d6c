"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

KEYS = [
    "2009-06-15 17:26:21.0000001",
    "2010-01-05 16:52:16.0000002",
    "2011-08-18 00:35:00.00000049",
    "2012-04-21 04:30:42.0000001",
]
ANSWERS = pd.DataFrame(
    {
        "key": KEYS,
        "fare_amount": [4.5, 16.9, 5.7, 7.7],
        "pickup_datetime": [k[:19] + " UTC" for k in KEYS],
        "pickup_longitude": [-73.844311, -74.016048, -73.982738, -73.98713],
        "pickup_latitude": [40.721319, 40.711303, 40.76127, 40.733143],
        "dropoff_longitude": [-73.84161, -73.979268, -73.991242, -73.991567],
        "dropoff_latitude": [40.712278, 40.782004, 40.750562, 40.758092],
        "passenger_count": [1, 1, 2, 1],
    }
)
# errors 1, -2, 0, 1 -> RMSE = sqrt((1 + 4 + 0 + 1) / 4) = sqrt(1.5) = 1.22474
SUBMISSION = pd.DataFrame({"key": KEYS, "fare_amount": [5.5, 14.9, 5.7, 8.7]})

CASES: dict[str, Check] = {
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=1.22474,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",  # the two columns differ in length
            "duplicate_id": "invalid",
            # keys are never checked: the first key, renamed "unknown-id-0", sorts last and
            # shifts the pairing: predictions 14.9, 5.7, 8.7, 5.5 against 4.5, 16.9, 5.7, 7.7,
            # errors 10.4, -11.2, 3, -2.2 -> sqrt(247.44 / 4) = 7.86511
            "unknown_id": 7.86511,
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            # first row twice: sqrt((1 + 1 + 4 + 0 + 1) / 5) = sqrt(1.4)
            "duplicate_answer_keys": 1.18322,
        },
    ),
}
