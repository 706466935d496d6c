"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

ANSWERS = pd.DataFrame({"id": [1, 2, 3, 4], "label": [1, 0, 1, 0]})
SUBMISSION = pd.DataFrame({"id": [1, 2, 3, 4], "label": [0.8, 0.4, 0.6, 0.1]})
# log loss = -(ln 0.8 + ln 0.6 + ln 0.6 + ln 0.9) / 4 = 0.33754 (5 decimals); with the first
# answer (a dog predicted 0.8) twice: -(2 ln 0.8 + 2 ln 0.6 + ln 0.9) / 5 = 0.31466
PARITY = ParityCase(
    ANSWERS,
    SUBMISSION,
    score=0.33754,
    expected={
        "shuffled_rows": "same",
        "reordered_columns": "same",
        "extra_column": "same",
        "index_column": "same",
        "float_ids": "same",
        "missing_id": "invalid",
        "duplicate_id": "invalid",
        "unknown_id": "invalid",
        "blank_target": "invalid",
        "empty_file": "invalid",
        "header_only": "invalid",
        "duplicate_answer_keys": 0.31466,
    },
)

CASES: dict[str, Check] = {
    "parity": PARITY,
}
