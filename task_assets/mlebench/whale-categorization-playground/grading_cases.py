"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

CASE = WorseCase(
    answers={
        "Image": ["00029b3a.jpg", "0003c693.jpg", "000a6daec.jpg"],
        "Id": ["w_1287fbc", "new_whale", "w_d3b4b6e"],
    },
    imperfect={
        "Image": ["00029b3a.jpg", "0003c693.jpg", "000a6daec.jpg"],
        "Id": ["new_whale w_1287fbc", "new_whale", "w_98baff9 w_7554f44"],
    },
    malformed={
        "image": ["00029b3a.jpg", "0003c693.jpg", "000a6daec.jpg"],
        "Id": ["a", "b", "c"],
    },
    best=1.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
    # AP@5 per image: w_1287fbc found second (1/2), new_whale first (1), w_d3b4b6e not
    # guessed (0): mean 0.5; the repeated first image adds another 1/2, mean still 0.5
    "parity": ParityCase(
        pd.DataFrame(CASE.answers),
        pd.DataFrame(CASE.imperfect),
        score=0.5,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "invalid",
            "index_column": "invalid",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": round(1 / 3, 5),  # the guess "nan" (pandas 2): AP 0 there
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": "same",
        },
        strict={"blank_target": round(1 / 3, 5)},  # no guess: AP 0 as well
    ),
}
