"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

ANSWERS = pd.DataFrame(
    {
        "PassengerId": ["0001_01", "0002_01", "0003_01", "0004_01"],
        "Transported": [True, False, True, True],
    }
)
SUBMISSION = pd.DataFrame(
    {
        "PassengerId": ["0001_01", "0002_01", "0003_01", "0004_01"],
        "Transported": [True, True, True, False],
    }
)

CASES: dict[str, Check] = {
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.5,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": 0.6,  # 5 rows, the repeated one (right) twice: 3 of 5
        },
    ),
}
