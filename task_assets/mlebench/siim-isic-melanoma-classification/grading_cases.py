"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

IDS = ["ISIC_0015719", "ISIC_0052212", "ISIC_0068279", "ISIC_0074268", "ISIC_0074311"]
ANSWERS = pd.DataFrame({"image_name": IDS, "target": [0, 1, 0, 0, 1]})
# positives 0.7 and 0.3 against negatives 0.1, 0.5, 0.3: 0.7 beats all three; 0.3 beats
# 0.1, loses to 0.5 and ties 0.3 (half a pair): (3 + 1 + 0.5) / 6 = 0.75
SUBMISSION = pd.DataFrame({"image_name": IDS, "target": [0.1, 0.7, 0.5, 0.3, 0.3]})

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
            # the first negative (0.1) twice: 0.7 beats 4 negatives, 0.3 beats 2 and ties 1
            # of 4: (4 + 2 + 0.5) / 8
            "duplicate_answer_keys": round(6.5 / 8, 5),
        },
    ),
}
