"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import math

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

IDS = ["id02310", "id24541", "id00134", "id27757"]
ANSWERS = pd.DataFrame(  # one-hot authors: EAP, HPL, MWS, EAP
    {"id": IDS, "EAP": [1, 0, 0, 1], "HPL": [0, 1, 0, 0], "MWS": [0, 0, 1, 0]}
)
SUBMISSION = pd.DataFrame(
    {
        "id": IDS,
        "EAP": [0.5, 0.25, 0.1, 1.0],
        "HPL": [0.25, 0.5, 0.1, 0.0],
        "MWS": [0.25, 0.25, 0.8, 0.0],
    }
)
# Log loss: -(log 0.5 + log 0.5 + log 0.8 + log 1) / 4 (the 1 is clipped to 1 - eps, whose
# log is -2.2e-16).
SCORE = round((2 * math.log(2) - math.log(0.8)) / 4, 5)

CASES: dict[str, Check] = {
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=SCORE,
        expected={
            "shuffled_rows": "same",
            # the probabilities are read as "every column after the first"
            "reordered_columns": "invalid",
            # the shape must be exactly (rows, 4)
            "extra_column": "invalid",
            "index_column": "invalid",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            # the first row (p = 0.5) once more in both files
            "duplicate_answer_keys": round((3 * math.log(2) - math.log(0.8)) / 5, 5),
        },
    ),
}
