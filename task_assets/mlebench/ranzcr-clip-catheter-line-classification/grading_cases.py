"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

SCORED = [  # MLE-bench's class list
    "ETT - Abnormal",
    "ETT - Borderline",
    "ETT - Normal",
    "NGT - Abnormal",
    "NGT - Borderline",
    "NGT - Incompletely Imaged",
    "NGT - Normal",
    "CVC - Abnormal",
    "CVC - Borderline",
]
UNSCORED = ["CVC - Normal", "Swan Ganz Catheter Present"]  # the competition's other two
IDS = [f"1.2.826.0.1.3680043.8.498.{n}" for n in (10, 11, 12, 13)]
TRUTH = [1, 0, 0, 1]
GOOD = [0.9, 0.1, 0.2, 0.8]  # ROC AUC 1
HALF = [0.9, 0.95, 0.2, 0.8]  # positives 0.9, 0.8 vs negatives 0.95, 0.2: AUC 2/4
WRONG = [0.1, 0.9, 0.8, 0.2]  # ROC AUC 0

ANSWERS = pd.DataFrame(
    {"StudyInstanceUID": IDS, **{c: TRUTH for c in SCORED + UNSCORED}, "PatientID": list("abcd")}
)
SUBMISSION = pd.DataFrame(
    {
        "StudyInstanceUID": IDS,
        **{c: HALF if c == SCORED[0] else GOOD for c in SCORED},
        **{c: WRONG for c in UNSCORED},
    }
)
# MLE-bench averages its nine classes only: (1/2 + 8 * 1) / 9. (Strict grading averages
# all eleven, the two unscored ones at AUC 0: 8.5 / 11.)
SCORE = round(8.5 / 9, 5)
VARIANTS = {
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
    # the first study twice in both files leaves every AUC as it was
    "duplicate_answer_keys": "same",
}

CASES: dict[str, Check] = {
    "parity": ParityCase(ANSWERS, SUBMISSION, score=SCORE, expected=VARIANTS),
    # Without the two columns MLE-bench does not score: the same score; strict grading
    # rejects every variant.
    "parity_nine_columns": ParityCase(
        ANSWERS,
        SUBMISSION.drop(columns=UNSCORED),
        score=SCORE,
        expected=VARIANTS,
        strict={
            "as_is": "invalid",
            "shuffled_rows": "invalid",
            "reordered_columns": "invalid",
            "duplicate_answer_keys": "invalid",
        },
    ),
}
