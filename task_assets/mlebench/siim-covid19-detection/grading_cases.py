"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

CASE = WorseCase(
    answers={
        "id": [
            "00188a671292_study",
            "004bd59708be_study",
            "000a312787f2_image",
            "000c3a3f293f_image",
        ],
        "PredictionString": [
            "typical 1 0 0 1 1",
            "negative 1 0 0 1 1",
            "opacity 1 789.28836 582.43035 1815.94498 2499.73327",
            "none 1 0 0 1 1",
        ],
    },
    imperfect={
        "id": [
            "00188a671292_study",
            "004bd59708be_study",
            "000a312787f2_image",
            "000c3a3f293f_image",
        ],
        "PredictionString": [
            "negative 0.6 0 0 1 1 typical 0.4 0 0 1 1",
            "negative 0.9 0 0 1 1",
            "opacity 0.8 700 500 1500 2000",
            "none 0.7 0 0 1 1",
        ],
    },
    malformed={
        "id": [
            "00188a671292_study",
            "004bd59708be_study",
            "000a312787f2_image",
            "000c3a3f293f_image",
        ],
        "PredictionString": [
            "typical 1 0 0 1",
            "negative 1 0 0 1 1",
            "none 1 0 0 1 1",
            "none 1 0 0 1 1",
        ],
    },
    best=1.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
}
