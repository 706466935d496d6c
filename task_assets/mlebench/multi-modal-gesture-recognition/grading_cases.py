"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

CASE = WorseCase(
    answers={"Id": ["0300", "0301"], "Sequence": ["2 14 20 6", "1 8 8 19 5"]},
    imperfect={"Id": ["0300", "0301"], "Sequence": ["2 14 6", "1 8 19 5 11"]},
    malformed={"Id": ["0300", "0301"], "Sequence": ["2 fourteen 6", "1 8"]},
    best=0.0,
)

ANSWERS = pd.DataFrame({"Id": [300, 301, 302], "Sequence": ["2 14 20 6", "1 8 8 19 5", "7 3 12"]})
SUBMISSION = pd.DataFrame({"Id": [300, 301, 302], "Sequence": ["2 14 6", "1 8 19 5 11", "7 3 12"]})
# edit distances 1 (20 deleted), 2 (an 8 deleted, 11 added), 0; true gestures 4 + 5 + 3:
# 3 / 12 = 0.25

CASES: dict[str, Check] = {
    "grading": CASE,
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.25,
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
            "duplicate_answer_keys": 0.25,  # (1 + 1 + 2 + 0) / (4 + 4 + 5 + 3)
        },
    ),
    # tokens are compared by their Python hash: 2**61 (hash 1) is gesture 1, "+8" is 8
    "parity-hashed-tokens": ParityCase(
        ANSWERS,
        pd.DataFrame(
            {
                "Id": [300, 301, 302],
                "Sequence": ["2 14 20 6", "2305843009213693952 +8 8 19 5", "7 3 12"],
            }
        ),
        score=0.0,
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
            "duplicate_answer_keys": 0.0,
        },
        strict={
            "as_is": 0.08333,  # 1 / 12: strict grading compares the numbers
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "duplicate_answer_keys": 0.0625,  # 1 / 16
        },
    ),
}
