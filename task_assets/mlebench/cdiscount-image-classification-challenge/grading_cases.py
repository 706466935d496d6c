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
        "_id",
        "category_id",
        ["10", "14", "21", "24", "27"],
        [1000010653, 1000018294, 1000010653, 1000004079, 1000018294],
        [1000010653, 1000010653, 1000010653, 1000004079, 1000018294],
        accuracy_score,
    )


IDS = [10, 14, 21, 24, 27]
PARITY_ANSWERS = pd.DataFrame(
    {"_id": IDS, "category_id": [1000010653, 1000018294, 1000010653, 1000004079, 1000018294]}
)
# four of five right: 0.8
PARITY_SUBMISSION = pd.DataFrame(
    {"_id": IDS, "category_id": [1000010653, 1000010653, 1000010653, 1000004079, 1000018294]}
)

CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=0.8,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "float_ids": "same",  # ids compared as numbers
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",  # scikit-learn refuses NaN
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": round(5 / 6, 5),  # the first id twice: 5 of 6 right
        },
    ),
}
