"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

CASE = WorseCase(
    answers={
        "id": ["003c477d7c", "0108518d1e", "010ee525b6"],
        "rle_mask": ["1 5 102 8", "", "300 20"],
    },
    imperfect={
        "id": ["003c477d7c", "0108518d1e", "010ee525b6"],
        "rle_mask": ["1 5", "", "300 20"],
    },
    malformed={
        "id": ["003c477d7c", "0108518d1e", "010ee525b6"],
        "rle_mask": ["102 8 1 5", "", ""],
    },
    best=1.0,
)

IDS = ["0a1b2c3d4e", "1f2e3d4c5b", "2c3d4e5f6a", "3d4e5f6a7b", "4e5f6a7b8c"]
# Per image (IoU thresholds 0.5, 0.55, ..., 0.95; an image scores the share it exceeds):
#   0: truth 50 pixels, prediction its first 42 -> IoU 0.84 -> 7/10 = 0.7
#   1: both empty -> 1.0
#   2: truth 2 columns (202 px), prediction 3 columns (303 px) -> IoU 0.667 -> 4/10 = 0.4
#   3: truth 6000 px, prediction empty: numpy's histogram puts the empty prediction's
#      pixels in the salt bin, IoU = 6000 / 10201 = 0.588 -> 2/10 = 0.2 (MLE-bench's quirk)
#   4: truth empty, prediction not -> 0.0
# mean = (0.7 + 1 + 0.4 + 0.2 + 0) / 5 = 0.46
ANSWERS = pd.DataFrame({"id": IDS, "rle_mask": ["1 50", "", "1 101 102 101", "1 6000", ""]})
SUBMISSION = pd.DataFrame(
    {"id": IDS, "rle_mask": ["1 42", "", "1 101 102 101 203 101", "", "10 5"]}
)
# MLE-bench's rle_decode pairs starts and lengths with numpy broadcasting: "1 42 43" is
# two runs of 42 (IoU 50/84 = 0.595 -> 0.2), "1" alone is no run (empty mask: 6000 / 10201
# -> 0.2); (0.2 + 1 + 0.4 + 0.2 + 0) / 5 = 0.36
ODD = SUBMISSION.assign(rle_mask=["1 42 43", "", "1 101 102 101 203 101", "1", "10 5"])

CASES: dict[str, Check] = {
    "grading": CASE,
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.46,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "invalid",
            "index_column": "invalid",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            # image 0 predicted empty: 50 / 10201 -> 0; (0 + 1 + 0.4 + 0.2 + 0) / 5
            "blank_target": 0.32,
            "empty_file": "invalid",
            "header_only": "invalid",
            # image 0 twice: (2 * 0.7 + 1 + 0.4 + 0.2 + 0) / 6
            "duplicate_answer_keys": 0.5,
        },
        strict={"blank_target": 0.32},  # a blank mask is an empty one there too
    ),
    "parity_odd_run_counts": ParityCase(
        ANSWERS,
        ODD,
        score=0.36,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "invalid",
            "index_column": "invalid",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": 0.32,
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": 0.33333,  # (2 * 0.2 + 1 + 0.4 + 0.2 + 0) / 6
        },
        # strict grading wants start/length pairs
        strict={
            "as_is": "invalid",
            "shuffled_rows": "invalid",
            "reordered_columns": "invalid",
            "duplicate_answer_keys": "invalid",
        },
    ),
}
