"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

ANSWERS = pd.DataFrame(
    {
        "id": [3, 7, 11, 12],
        "BertzCT": [323.4, 12.9, 88.0, 401.5],
        "EC1": [1, 0, 1, 0],
        "EC2": [1, 1, 0, 0],
        "EC3": [0, 0, 1, 0],
        "EC4": [0, 1, 0, 0],
        "EC5": [0, 0, 0, 1],
        "EC6": [1, 0, 0, 0],
    }
)
# EC1: positives 0.9, 0.3 against negatives 0.2, 0.4: 3 of 4 pairs right (AUC 3/4);
# EC2: positives 0.7, 0.1 against negatives 0.5, 0.2: 2 of 4 (AUC 1/2); mean 0.625
SUBMISSION = pd.DataFrame(
    {"id": ANSWERS["id"], "EC1": [0.9, 0.2, 0.3, 0.4], "EC2": [0.7, 0.1, 0.5, 0.2]}
)
# scores need not be probabilities: any order-preserving numbers give the same AUCs
UNBOUNDED = pd.DataFrame(
    {"id": ANSWERS["id"], "EC1": [90.0, -2.0, 3.0, 4.0], "EC2": [7e9, -1e9, 5.0, 2.0]}
)
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
    # row 3 twice: EC1 positives 0.9, 0.3, 0.9 make 5 of 6 pairs right, EC2 positives
    # 0.7, 0.1, 0.7 make 4 of 6: (5/6 + 4/6) / 2
    "duplicate_answer_keys": 0.75,
}

CASES: dict[str, Check] = {
    "parity": ParityCase(ANSWERS, SUBMISSION, score=0.625, expected=EXPECTED),
    "parity-unbounded-scores": ParityCase(ANSWERS, UNBOUNDED, score=0.625, expected=EXPECTED),
}
