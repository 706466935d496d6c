"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

IDS = ["000c1434d8d7", "001639a390f0", "0024cdab0c1e", "002c21358ce6", "005b95c28852"]
ANSWERS = pd.DataFrame({"id_code": IDS, "diagnosis": [0, 2, 4, 1, 3]})
SUBMISSION = pd.DataFrame({"id_code": IDS, "diagnosis": [0, 2, 3, 1, 4]})

CASES: dict[str, Check] = {
    # MLE-bench's grading: quadratic weighted kappa. Each grade 0..4 occurs once on each
    # side, so the expected table is 1/5 everywhere and sum (i - j)^2 / 5 over it is 20;
    # the observed disagreements are 3<->4 twice, weight 1 each: 1 - 2 / 20.
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.9,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            # the id sets still match, then scikit-learn fails on the lengths
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": "scored",
        },
    ),
}
