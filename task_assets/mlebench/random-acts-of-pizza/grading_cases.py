"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

IDS = ["t3_i8iy4", "t3_1mfqi0", "t3_lclka", "t3_1jdgdj"]
ANSWERS = pd.DataFrame({"request_id": IDS, "requester_received_pizza": [1, 0, 1, 0]})
# positives score 0.9 and 0.4, negatives 0.2 and 0.6: 3 of the 4 pairs are ordered right
SUBMISSION = pd.DataFrame({"request_id": IDS, "requester_received_pizza": [0.9, 0.2, 0.4, 0.6]})

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
            "blank_target": "invalid",  # passes the range check, then roc_auc_score fails
            "empty_file": "invalid",
            "header_only": "invalid",
            # the first positive twice: 5 of 6 pairs right
            "duplicate_answer_keys": round(5 / 6, 5),
        },
    ),
}
