"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

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


CASES: dict[str, Check] = {
    "grading": CASE,
}
