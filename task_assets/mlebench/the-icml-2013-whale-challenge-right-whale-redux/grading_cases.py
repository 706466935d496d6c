"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

CLIPS = [f"20090330_00{i}000_{i * 7}s2ms_Test{i}.aif" for i in range(5)]
ANSWERS = pd.DataFrame({"clip": CLIPS, "probability": [0, 1, 1, 0, 0]})
# positives 0.9 and 0.3 against negatives 0.1, 0.5, 0.3: 0.9 beats all three, 0.3 beats
# 0.1 and ties 0.3 (half a pair): (3 + 1.5) / 6 = 0.75
SUBMISSION = pd.DataFrame({"clip": CLIPS, "probability": [0.1, 0.9, 0.3, 0.5, 0.3]})

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
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            # a fourth negative at 0.1: (4 + 2.5) / 8
            "duplicate_answer_keys": 6.5 / 8,
        },
    ),
}
