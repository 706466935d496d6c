"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

ANSWERS = pd.DataFrame({"name": [1, 2, 3, 4], "invasive": [0, 1, 1, 0]})
SUBMISSION = pd.DataFrame({"name": [1, 2, 3, 4], "invasive": [0.1, 0.4, 0.9, 0.8]})

CASES: dict[str, Check] = {
    # positives score 0.4 and 0.9, negatives 0.1 and 0.8: 3 of the 4 pairs are ordered
    # right (0.4 < 0.8 is not), AUC 3/4; with name 1 (a negative, 0.1) twice in both files:
    # 5 of 6 pairs
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.75,
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
            "duplicate_answer_keys": round(5 / 6, 5),
        },
    ),
}
