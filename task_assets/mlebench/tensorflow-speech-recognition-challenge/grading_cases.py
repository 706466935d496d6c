"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

CASE = WorseCase(
    answers={
        "fname": [f"clip_0000000{i}.wav" for i in range(4)],
        "label": ["yes", "bed", "_background_noise_", "stop"],
    },
    imperfect={
        "fname": [f"clip_0000000{i}.wav" for i in range(4)],
        "label": ["yes", "unknown", "silence", "stop"],
    },
    malformed={
        "fname": [f"clip_0000000{i}.wav" for i in range(4)],
        "label": ["yes", "", "silence", "stop"],
    },
    best=1.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
    # MLE-bench compares the labels as written: the answers hold the clips' folder names, so
    # "unknown" never matches "bed" and "silence" never matches "_background_noise_":
    # 2 of 4 right (yes, stop) = 0.5; the repeated answers row is right: 3 of 5 = 0.6
    "parity": ParityCase(
        pd.DataFrame(CASE.answers),
        pd.DataFrame(CASE.imperfect),
        score=0.5,
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
            "duplicate_answer_keys": 0.6,
        },
    ),
}
