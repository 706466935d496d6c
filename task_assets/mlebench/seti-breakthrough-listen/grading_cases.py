"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

CASE = WorseCase(
    answers={
        "id": ["000bf832cae9ff1", "000c74cc71a1140", "000f5f9851161d3"],
        "target": [0, 1, 0],
    },
    imperfect={
        "id": ["000bf832cae9ff1", "000c74cc71a1140", "000f5f9851161d3"],
        "target": [0.6, 0.5, 0.1],
    },
    malformed={
        "id": ["000bf832cae9ff1", "000c74cc71a1140", "000f5f9851161d3"],
        "target": [0.6, 1.5, 0.1],
    },
    best=1.0,
)

IDS = ["000bf832cae9ff1", "000c74cc71a1140", "000f5f9851161d3", "0010a9e1b7c4d2f"]
ANSWERS = pd.DataFrame({"id": IDS, "target": [0, 1, 0, 1]})
SUBMISSION = pd.DataFrame({"id": IDS, "target": [0.1, 0.3, 0.35, 0.8]})
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
    "grading": CASE,
    "parity": PARITY,
}
