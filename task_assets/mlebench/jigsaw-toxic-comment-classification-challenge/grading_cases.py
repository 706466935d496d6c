"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

IDS = [
    "0001ea8717f6de06",
    "000247e83dcc1211",
    "0002f87b16116a7f",
    "0003e1cccfd5a40a",
    "00059ace3e3e9a53",
]
# the third row was never scored (-1 everywhere) and is dropped
ANSWERS = pd.DataFrame(
    {
        "id": IDS,
        "toxic": [1, 0, -1, 1, 0],
        "severe_toxic": [1, 0, -1, 0, 0],
        "obscene": [1, 1, -1, 0, 0],
        "threat": [0, 0, -1, 1, 0],
        "insult": [1, 0, -1, 1, 1],
        "identity_hate": [0, 1, -1, 0, 0],
    }
)
# AUC per column over the four scored rows (share of positive/negative pairs ranked right):
# toxic 1, severe_toxic 2/3, obscene 3/4, threat 1/2 (all tied), insult 0, identity_hate 2/3
# mean = (1 + 0.66667 + 0.75 + 0.5 + 0 + 0.66667) / 6 = 0.59722
SUBMISSION = pd.DataFrame(
    {
        "id": IDS,
        "toxic": [0.9, 0.1, 0.5, 0.8, 0.2],
        "severe_toxic": [0.3, 0.6, 0.5, 0.2, 0.1],
        "obscene": [0.7, 0.4, 0.5, 0.5, 0.1],
        "threat": [0.2, 0.2, 0.5, 0.2, 0.2],
        "insult": [0.6, 0.9, 0.5, 0.7, 0.8],
        "identity_hate": [0.1, 0.3, 0.5, 0.2, 0.4],
    }
)

CASES: dict[str, Check] = {
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.59722,
        expected={
            "shuffled_rows": "same",
            # columns paired by position: identity_hate's scores against toxic, ...:
            # (0 + 0 + 0.5 + 0.66667 + 0 + 0) / 6
            "reordered_columns": 0.19444,
            "extra_column": "invalid",  # 7 score columns for 6 labels
            "index_column": "invalid",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",  # the row mask cannot be aligned
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            # first row twice: (1 + 2/3 + 5/6 + 1/2 + 0 + 3/4) / 6
            "duplicate_answer_keys": 0.625,
        },
    ),
}
