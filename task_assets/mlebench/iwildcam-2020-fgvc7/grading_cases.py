"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    ExactCase,
    ExactGrading,
    ParityCase,
    case_classes,
)


def case() -> ExactCase:
    from sklearn.metrics import accuracy_score

    return case_classes(
        "Id",
        "Category",
        ["8b2e1c20", "8b2f3b9e", "8b30a1b2"],
        [372, 0, 5],
        [372, 0, 0],
        accuracy_score,
    )


IDS = [
    "896c1198-21bc-11ea-a13a-137349068a90",
    "8792549a-21bc-11ea-a13a-137349068a90",
    "87b6ff7c-21bc-11ea-a13a-137349068a90",
    "8a0d3b62-21bc-11ea-a13a-137349068a90",
    "8b31a58a-21bc-11ea-a13a-137349068a90",
]
ANSWERS = pd.DataFrame({"Id": IDS, "Category": [372, 0, 5, 0, 101]})
# 3 of 5 right
SUBMISSION = pd.DataFrame({"Id": IDS, "Category": [372, 0, 0, 0, 3]})

CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.6,
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
            "duplicate_answer_keys": 0.66667,  # first row twice: 4 of 6
        },
    ),
}
