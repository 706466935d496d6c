"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

CASE = WorseCase(
    answers={
        "contact_id": [
            "58168_003392_0_38590_43854",
            "58168_003392_0_38590_G",
            "58168_003392_1_38590_43854",
            "58168_003392_1_41944_G",
        ],
        "game_play": ["58168_003392"] * 4,
        "datetime": ["2020-09-11T03:01:48.100Z"] * 4,
        "step": [0, 0, 1, 1],
        "nfl_player_id_1": [38590, 38590, 38590, 41944],
        "nfl_player_id_2": ["43854", "G", "43854", "G"],
        "contact": [0, 1, 0, 1],
    },
    imperfect={
        "contact_id": [
            "58168_003392_0_38590_43854",
            "58168_003392_0_38590_G",
            "58168_003392_1_38590_43854",
            "58168_003392_1_41944_G",
        ],
        "contact": [1, 1, 0, 0],
    },
    malformed={
        "contact_id": [
            "58168_003392_0_38590_43854",
            "58168_003392_0_38590_G",
            "58168_003392_1_38590_43854",
            "58168_003392_1_41944_G",
        ],
        "contact": [0, "yes", 0, 1],
    },
    best=1.0,
)


IDS = [
    "58168_003392_0_38590_43854",
    "58168_003392_0_38590_G",
    "58168_003392_1_38590_43854",
    "58168_003392_1_41944_G",
    "58168_003392_2_38590_43854",
    "58168_003392_2_41944_G",
]
ANSWERS = pd.DataFrame(
    {
        "contact_id": IDS,
        "game_play": ["58168_003392"] * 6,
        "datetime": ["2020-09-11T03:01:48.100Z"] * 6,
        "step": [0, 0, 1, 1, 2, 2],
        "nfl_player_id_1": [38590, 38590, 38590, 41944, 38590, 41944],
        "nfl_player_id_2": ["43854", "G", "43854", "G", "43854", "G"],
        "contact": [1, 0, 1, 0, 0, 1],
    }
)
# TP 2, TN 2, FP 1, FN 1: MCC = (2 * 2 - 1 * 1) / sqrt(3 * 3 * 3 * 3) = 3 / 9
SUBMISSION = pd.DataFrame({"contact_id": IDS, "contact": [1, 0, 0, 0, 1, 1]})

CASES: dict[str, Check] = {
    "grading": CASE,
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.33333,
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
            # first row twice: TP 3 -> (3 * 2 - 1) / sqrt(4 * 4 * 3 * 3) = 5 / 12
            "duplicate_answer_keys": 0.41667,
        },
    ),
}
