"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

IDS = ["Test_0", "Test_1", "Test_2", "Test_3", "Test_4"]
ANSWERS = pd.DataFrame(
    {
        "image_id": IDS,
        "healthy": [1, 0, 0, 0, 0],
        "multiple_diseases": [0, 0, 0, 1, 0],
        "rust": [0, 1, 0, 0, 1],
        "scab": [0, 0, 1, 0, 0],
    }
)
# ROC AUC per class (share of positive/negative pairs ranked right): healthy 1,
# multiple_diseases 3/4, rust 5/6, scab 1/4; mean = (1 + 0.75 + 0.83333 + 0.25) / 4 = 0.70833
SUBMISSION = pd.DataFrame(
    {
        "image_id": IDS,
        "healthy": [0.9, 0.1, 0.2, 0.3, 0.4],
        "multiple_diseases": [0.1, 0.5, 0.2, 0.3, 0.1],
        "rust": [0.0, 0.6, 0.4, 0.2, 0.3],
        "scab": [0.0, 0.2, 0.1, 0.4, 0.3],
    }
)

CASES: dict[str, Check] = {
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.70833,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "invalid",
            "index_column": "invalid",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            # Test_0 twice: (1 + 4/5 + 7/8 + 2/5) / 4
            "duplicate_answer_keys": 0.76875,
        },
    ),
}
