"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

FILES = ["0021e90e4.png", "003d61042.png", "007b3da8b.png", "0086a6340.png"]
ANSWERS = pd.DataFrame(
    {"file": FILES, "species": ["Black-grass", "Charlock", "Common Chickweed", "Sugar beet"]}
)
SUBMISSION = pd.DataFrame(
    {"file": FILES, "species": ["Black-grass", "Charlock", "Fat Hen", "Sugar beet"]}
)

CASES: dict[str, Check] = {
    # micro F1 of one label per row = accuracy: 3 of 4 right; the repeated answers row
    # (Black-grass) is right too: 4 of 5; a blank first species is one more wrong label
    # for scikit-learn (NaN among the texts): 2 of 4
    "parity": ParityCase(
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
            "blank_target": 0.5,
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": 0.8,
        },
    ),
}
