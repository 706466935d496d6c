"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import math

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

STUDY_A, STUDY_B = "1.2.826.0.1.3680043.10001", "1.2.826.0.1.3680043.10005"


SPINE = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]


SPINE_TRUTH = [1, 0, 1, 0, 0, 0, 0, 0] + [0] * 8


CASE = WorseCase(
    answers={
        "StudyInstanceUID": [STUDY_A] * 8 + [STUDY_B] * 8,
        "prediction_type": SPINE * 2,
        "fractured": SPINE_TRUTH,
        "row_id": [f"{s}_{t}" for s in (STUDY_A, STUDY_B) for t in SPINE],
    },
    imperfect={
        "row_id": [f"{s}_{t}" for s in (STUDY_A, STUDY_B) for t in SPINE],
        "fractured": [0.5] * 16,
    },
    malformed={
        "row_id": [f"{s}_{t}" for s in (STUDY_A, STUDY_B) for t in SPINE],
        "fractured": [1.5] + [0.5] * 15,
    },
    best=0.0,
)


ROW_IDS = [f"{s}_{t}" for s in (STUDY_A, STUDY_B) for t in SPINE]
PARITY_ANSWERS = pd.DataFrame(
    {
        "StudyInstanceUID": [STUDY_A] * 8 + [STUDY_B] * 8,
        "prediction_type": SPINE * 2,
        "fractured": SPINE_TRUTH,
        "row_id": ROW_IDS,
    }
)
PARITY_SUBMISSION = pd.DataFrame({"row_id": ROW_IDS, "fractured": [0.8] + [0.5] * 15})
# Study A (patient_overall and C2 fractured): weights 14, 1, 2, 1 x 5 (sum 22), losses
# -log 0.8 for patient_overall and log 2 for the other seven. Study B (no fracture):
# every loss log 2, so log 2. The score is the mean of the two studies.
PARITY_SCORE = round(((14 * -math.log(0.8) + 8 * math.log(2)) / 22 + math.log(2)) / 2, 5)


CASES: dict[str, Check] = {
    "grading": CASE,
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=PARITY_SCORE,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            # comparing ids of unequal lengths fails
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            # pivoting a repeated row_id fails
            "duplicate_answer_keys": "invalid",
        },
        # the strict grade.py pivots too, and fails the same way
        strict={"duplicate_answer_keys": "invalid"},
    ),
}
