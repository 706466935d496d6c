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
    macro_f1,
)


def case() -> ExactCase:
    return case_classes(
        "Id",
        "Predicted",
        ["0", "1", "2", "3", "4", "5"],
        [15504, 3, 3, 7, 7, 7],
        [15504, 3, 7, 7, 7, 9],
        macro_f1,
    )


ANSWERS = pd.DataFrame({"Id": [0, 1, 2, 3, 4, 5], "Predicted": [3, 3, 7, 7, 9, 9]})
# category 3: 1 right, 1 false alarm, 1 missed: F1 1/2; category 7: 2 right, 1 false
# alarm: P 2/3, R 1, F1 4/5; category 9: 1 right, 1 missed: P 1, R 1/2, F1 2/3;
# macro F1 (1/2 + 4/5 + 2/3) / 3
SUBMISSION = pd.DataFrame({"Id": ANSWERS["Id"], "Predicted": [3, 7, 7, 7, 9, 3]})
# int() cuts fractional ids toward zero: 3.9 is category 3
TRUNCATED = SUBMISSION.assign(Predicted=[3.9, 7.5, 7.1, 7.0, 9.99, 3.2])
EXPECTED: dict[str, str | float] = {
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
    # image 0 twice, right both times: category 3 gets F1 2/3
    "duplicate_answer_keys": round((2 / 3 + 4 / 5 + 2 / 3) / 3, 5),
}

CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
    "parity": ParityCase(
        ANSWERS, SUBMISSION, score=round((1 / 2 + 4 / 5 + 2 / 3) / 3, 5), expected=EXPECTED
    ),
    "parity-fractional-ids-cut": ParityCase(
        ANSWERS,
        TRUNCATED,
        score=round((1 / 2 + 4 / 5 + 2 / 3) / 3, 5),
        expected=EXPECTED,
        strict={
            "as_is": "invalid",
            "shuffled_rows": "invalid",
            "reordered_columns": "invalid",
            "duplicate_answer_keys": "invalid",
        },
    ),
}
