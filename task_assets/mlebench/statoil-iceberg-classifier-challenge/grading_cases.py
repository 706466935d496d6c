"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

CASE = WorseCase(
    answers={"id": ["5941774d", "4023181e", "b20200e4"], "is_iceberg": [0, 1, 1]},
    imperfect={"id": ["5941774d", "4023181e", "b20200e4"], "is_iceberg": [0.2, 0.7, 0.9]},
    malformed={"id": ["5941774d", "4023181e", "b20200e4"], "is_iceberg": [0.2, 1.7, 0.9]},
    best=0.0,
)

ANSWERS = pd.DataFrame({"id": ["5941774d", "4023181e", "b20200e4"], "is_iceberg": [0, 1, 1]})
SUBMISSION = pd.DataFrame(
    {"id": ["5941774d", "4023181e", "b20200e4"], "is_iceberg": [0.2, 0.7, 0.9]}
)
# -(ln 0.8 + ln 0.7 + ln 0.9) / 3 = 0.22839

CASES: dict[str, Check] = {
    "grading": CASE,
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.22839,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            # passes the id-set check, then log_loss fails on columns of unequal length
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            # -(2 ln 0.8 + ln 0.7 + ln 0.9) / 4
            "duplicate_answer_keys": 0.22708,
        },
    ),
}
