"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

ANSWERS = pd.DataFrame(
    {
        "id": [900000, 900001, 900002, 900003],
        "f_00": [0.1, -1.2, 0.3, 2.0],
        "f_27": ["ABAC", "BBAC", "ACCA", "BCAA"],
        "target": [0, 1, 0, 1],
    }
)
# positives score 0.8 and 0.4, negatives 0.1 and 0.6: 0.8 beats both, 0.4 beats 0.1 only,
# so 3 of the 4 (positive, negative) pairs are ordered right: AUC 3/4
SUBMISSION = pd.DataFrame({"id": ANSWERS["id"], "target": [0.1, 0.8, 0.6, 0.4]})

CASES: dict[str, Check] = {
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
            # a third negative scored 0.1: 0.8 beats 3, 0.4 beats 2 of them: 5/6
            "duplicate_answer_keys": round(5 / 6, 5),
        },
    ),
}
