"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

IDS = ["0b2f9a1c", "1a7e3d44", "9f00ab12", "c0ffee77"]
ANSWERS = pd.DataFrame({"id": IDS, "label": [0, 1, 0, 1]})
SUBMISSION = pd.DataFrame({"id": IDS, "label": [0.1, 0.3, 0.35, 0.8]})
# positives score 0.3 and 0.8, negatives 0.1 and 0.35: 3 of the 4 (positive, negative)
# pairs are ranked right, AUC 3/4. With the first answer (a negative scored 0.1) twice:
# 0.3 beats 2 of 3 negatives, 0.8 all 3, AUC 5/6.
PARITY = ParityCase(
    ANSWERS,
    SUBMISSION,
    score=0.75,
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
        "duplicate_answer_keys": 0.83333,  # 5/6 rounded to 5 decimals
    },
)

CASES: dict[str, Check] = {
    "parity": PARITY,
}
