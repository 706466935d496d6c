"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

CASE = WorseCase(
    answers={  # gold_submission.csv: the true boxes with confidence 1.0
        "image_id": ["004f33259ee4", "008b3176a7248a0a", "00a2145de1886cb9"],
        "PredictionString": [
            "14 1.0 0.0 0.0 1.0 1.0",
            "0 1.0 1223.0 582.0 1470.0 859.0 3 1.0 691.0 1375.0 1653.0 1831.0",
            "14 1.0 0.0 0.0 1.0 1.0",
        ],
    },
    imperfect={
        "image_id": ["004f33259ee4", "008b3176a7248a0a", "00a2145de1886cb9"],
        "PredictionString": [
            "14 0.9 0 0 1 1",
            "0 0.8 1223 582 1470 859 3 0.7 100 100 300 300",
            "14 0.6 0 0 1 1",
        ],
    },
    malformed={
        "image_id": ["004f33259ee4", "008b3176a7248a0a", "00a2145de1886cb9"],
        "PredictionString": ["14 0.9 0 0 1", "14 1 0 0 1 1", "14 1 0 0 1 1"],
    },
    # pycocotools (as MLE-bench calls it) never counts the first true box (id 0)
    # as matched: class 14 keeps half its recall, (25.5 / 101 + 1 + 1) / 3.
    best=(25.5 / 101 + 2) / 3,
)


CASES: dict[str, Check] = {
    "grading": CASE,
}
