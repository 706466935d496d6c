"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

# Id = recording * 100 + species
ANSWERS = pd.DataFrame({"Id": [100, 101, 102, 200, 201, 202], "Probability": [1, 0, 0, 0, 1, 1]})
SUBMISSION = pd.DataFrame(
    {"Id": [100, 101, 102, 200, 201, 202], "Probability": [0.9, 0.2, 0.4, 0.3, 0.8, 0.35]}
)

CASES: dict[str, Check] = {
    # MLE-bench's grading: one ROC AUC over all rows. Positives 0.9, 0.8, 0.35 against
    # negatives 0.2, 0.4, 0.3: 3 + 3 + 2 of 9 pairs ordered right.
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=round(8 / 9, 5),
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
            # Id 100 (positive, 0.9) twice: 6 + 3 + 2 of 12 pairs
            "duplicate_answer_keys": round(11 / 12, 5),
        },
    ),
}
