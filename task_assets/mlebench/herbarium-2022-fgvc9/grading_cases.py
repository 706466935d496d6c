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
    Outcome,
    ParityCase,
    case_classes,
    macro_f1,
)


def case() -> ExactCase:
    return case_classes(
        "Id",
        "Predicted",
        ["0", "1", "2", "3"],
        [12035, 877, 42, 42],
        [42, 877, 42, 12035],
        macro_f1,
    )


ANSWERS = pd.DataFrame({"Id": [0, 1, 2, 3], "Predicted": [12035, 877, 42, 42]})
SUBMISSION = pd.DataFrame({"Id": [0, 1, 2, 3], "Predicted": [42, 877, 42, 12035]})
# per class (precision, recall -> F1): 42 (1/2, 1/2 -> 1/2), 877 (1, 1 -> 1),
# 12035 (0, 0 -> 0): macro F1 = 1.5 / 3 = 0.5

EXPECTED: dict[str, Outcome] = {
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
    # id 0 (true 12035, predicted 42) twice: 42 (1/3, 1/2 -> 0.4), 877 (1), 12035 (0):
    # 1.4 / 3
    "duplicate_answer_keys": 0.46667,
}

CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
    "parity": ParityCase(ANSWERS, SUBMISSION, score=0.5, expected=EXPECTED),
    # labels go through int(): 42.9 is class 42 and 877.2 is class 877
    "parity-truncated-labels": ParityCase(
        ANSWERS,
        pd.DataFrame({"Id": [0, 1, 2, 3], "Predicted": [42.9, 877.2, 42.0, 12035.0]}),
        score=0.5,
        expected=EXPECTED,
        strict={
            "as_is": "invalid",
            "shuffled_rows": "invalid",
            "reordered_columns": "invalid",
            "duplicate_answer_keys": "invalid",
        },
    ),
}
