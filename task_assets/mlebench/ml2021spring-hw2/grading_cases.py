"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

ANSWERS = pd.DataFrame({"Id": [0, 1, 2, 3, 4], "ClassId": [36, 0, 12, 12, 5]})
# 3 of 5 right (ids 0, 2, 4) -> accuracy 0.6
SUBMISSION = pd.DataFrame({"Id": [0, 1, 2, 3, 4], "ClassId": [36, 1, 12, 7, 5]})

CASES: dict[str, Check] = {
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.6,
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
            "duplicate_answer_keys": 0.66667,  # the repeated row (right) counts twice: 4/6
        },
    ),
}
