"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, ParityCase


def case_ai4code() -> ExactCase:
    answers = pd.DataFrame({"id": ["nb1", "nb2"], "cell_order": ["a1 b2 c3 d4", "x9 y8 z7"]})
    imperfect = pd.DataFrame({"id": ["nb1", "nb2"], "cell_order": ["b2 a1 c3 d4", "z7 y8 x9"]})
    expected = 1 - 4 * (1 + 3) / (4 * 3 + 3 * 2)
    malformed = "id,cell_order\nnb1,a1 b2 c3\nnb2,x9 y8 z7\n"  # a cell is missing
    return ExactCase(answers, answers.copy(), imperfect, expected, malformed, 1.0)


PARITY_ANSWERS = pd.DataFrame(
    {"id": ["0001daf4c2c76d", "0002115f48f982"], "cell_order": ["a1 b2 c3 d4", "x9 y8 z7"]}
)
PARITY_SUBMISSION = pd.DataFrame(
    {"id": ["0001daf4c2c76d", "0002115f48f982"], "cell_order": ["b2 a1 c3 d4", "z7 y8 x9"]}
)

CASES: dict[str, Check] = {
    "grading": ExactGrading(case_ai4code),
    # MLE-bench's grading: 1 + 3 inversions over 4 * 3 + 3 * 2 ordered pairs,
    # 1 - 4 * 4 / 18.
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=round(1 - 16 / 18, 5),
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
            # the first notebook twice on both sides: 1 - 4 * (1 + 1 + 3) / (12 + 12 + 6)
            "duplicate_answer_keys": round(1 - 20 / 30, 5),
        },
    ),
}
