"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

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


CASES: dict[str, Check] = {
    "grading": CASE,
}
