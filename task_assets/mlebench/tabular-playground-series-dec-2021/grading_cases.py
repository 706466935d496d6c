"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

# the private answers keep the test features; MLE-bench's grader ignores them
ANSWERS = pd.DataFrame(
    {
        "Id": [3, 11, 25, 40, 52],
        "Elevation": [2900, 3100, 2750, 3300, 2600],
        "Cover_Type": [2, 1, 2, 3, 7],
    }
)
SUBMISSION = pd.DataFrame({"Id": [3, 11, 25, 40, 52], "Cover_Type": [2, 2, 2, 3, 1]})
# ids 3, 25 and 40 are right: accuracy = 3 / 5 = 0.6

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
            # the repeated answers row (id 3, right) is matched by the repeated submission
            # row: 4 right of 6 (0.66667 after rounding)
            "duplicate_answer_keys": 0.66667,
        },
    ),
    # classes written as floats are the same classes
    "parity-float-classes": ParityCase(
        ANSWERS,
        pd.DataFrame({"Id": [3, 11, 25, 40, 52], "Cover_Type": [2.0, 2.0, 2.0, 3.0, 1.0]}),
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
            "duplicate_answer_keys": 0.66667,
        },
    ),
}
